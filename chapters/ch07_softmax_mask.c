/* Chapter 7: normalising over the sequence.
 *
 * Chapter 6 gave scores; a layer needs weights. Chapter 3 wrote the dynamic
 * weight as a sum over score functions ("heads") of c_j(x_i, x_L) V_j, and
 * the output as a sum of that over positions i. Swapping the two sums shows
 * that each head takes a weighted sum over positions, so its weights are
 * normalised over the positions (claim S1). The softmax with a temperature
 * does that normalisation (S2). A causal mask keeps each token from reading
 * later ones; written as one matrix product, softmax(Q K^T + M) V, it gives
 * the per-position sums exactly (S3) at the price of computing scores that
 * the mask throws away (S4). Computed with the largest score subtracted, the
 * softmax survives scores far outside the range of exp (S5).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "invent.h"

typedef struct {
    size_t tokens, dim, rank, heads;
} sizes;

typedef struct {
    gsl_matrix *X;            /* (T, d) tokens */
    gsl_matrix *Wq, *Wk, *Wv; /* (r, d) queries, keys; (d, d) values */
} example;

static void example_free(example *m)
{
    gsl_matrix_free(m->X);
    gsl_matrix_free(m->Wq);
    gsl_matrix_free(m->Wk);
    gsl_matrix_free(m->Wv);
}

static int example_new(const sizes *s, gsl_rng *r, example *m)
{
    double sigma = 1.0 / sqrt((double)s->dim);
    m->X = mat_gaussian(s->tokens, s->dim, 1.0, r);
    m->Wq = mat_gaussian(s->rank, s->dim, 2.0 * sigma, r);
    m->Wk = mat_gaussian(s->rank, s->dim, 2.0 * sigma, r);
    m->Wv = mat_gaussian(s->dim, s->dim, sigma, r);
    if (m->X && m->Wq && m->Wk && m->Wv)
        return INVENT_OK;
    example_free(m);
    return INVENT_ENOMEM;
}

/* ---------------------------------------------------------------- S1 */

/* y: (d) <- sum_i (sum_j C[i][j] V_j) x_i: one dynamic matrix per position
 * (the V_j and W are whole, contiguous matrices, so each term is one axpy) */
static int sum_positions_outside(const gsl_matrix *X, const gsl_matrix *C,
                                 gsl_matrix *const *V, gsl_vector *y)
{
    size_t d = X->size2;
    gsl_matrix *W = gsl_matrix_alloc(d, d);
    if (!W)
        return INVENT_ENOMEM;
    gsl_vector_view w = gsl_vector_view_array(W->data, d * d);
    gsl_vector_set_zero(y);
    for (size_t i = 0; i < X->size1; i++) {
        gsl_matrix_set_zero(W);
        for (size_t j = 0; j < C->size2; j++) {
            gsl_vector_const_view v = gsl_vector_const_view_array(V[j]->data, d * d);
            gsl_blas_daxpy(gsl_matrix_get(C, i, j), &v.vector, &w.vector);
        }
        gsl_vector_const_view x = gsl_matrix_const_row(X, i);
        gsl_blas_dgemv(CblasNoTrans, 1.0, W, &x.vector, 1.0, y);
    }
    gsl_matrix_free(W);
    return INVENT_OK;
}

/* y: (d) <- sum_j V_j (sum_i C[i][j] x_i): each head sums over positions */
static int sum_heads_outside(const gsl_matrix *X, const gsl_matrix *C, gsl_matrix *const *V,
                             gsl_vector *y)
{
    gsl_vector *u = gsl_vector_alloc(X->size2);
    if (!u)
        return INVENT_ENOMEM;
    gsl_vector_set_zero(y);
    for (size_t j = 0; j < C->size2; j++) {
        gsl_vector_const_view c = gsl_matrix_const_column(C, j);
        gsl_blas_dgemv(CblasTrans, 1.0, X, &c.vector, 0.0, u);
        gsl_blas_dgemv(CblasNoTrans, 1.0, V[j], u, 1.0, y);
    }
    gsl_vector_free(u);
    return INVENT_OK;
}

/* C: (T, H) <- c_ij = x_L^T A_j x_i, x_L the last token, A_j random */
static int head_scores(const gsl_matrix *X, gsl_rng *r, gsl_matrix *C)
{
    size_t T = X->size1, d = X->size2;
    gsl_matrix *A = gsl_matrix_alloc(d, d);
    if (!A)
        return INVENT_ENOMEM;
    gsl_vector_const_view xL = gsl_matrix_const_row(X, T - 1);
    for (size_t j = 0; j < C->size2; j++) {
        rng_fill_gaussian(A, r, 1.0 / sqrt((double)d));
        for (size_t i = 0; i < T; i++) {
            gsl_vector_const_view xi = gsl_matrix_const_row(X, i);
            double c;
            bilinear_score(&xL.vector, A, &xi.vector, &c);
            gsl_matrix_set(C, i, j, c);
        }
    }
    gsl_matrix_free(A);
    return INVENT_OK;
}

/* The swap of sums builds one d x d matrix per position and head; 16 heads keep
 * the top of the ranges (T = 512, d = 256) to a few seconds. */
#define MAX_HEADS 16

static int swap_section(const invent_opts *o, const example *m, size_t H, gsl_rng *r)
{
    size_t T = m->X->size1, d = m->X->size2;
    report_section(o, "Over positions, not over heads");
    report_text(o, "Chapter 3 built the weight from input x_i as a sum over H score functions, "
                   "sum_j c_ij V_j, and the output of the last token as a sum of those weights "
                   "applied to every x_i. That is a double sum over positions i and heads j. "
                   "Summed the other way round it reads sum_j V_j (sum_i c_ij x_i): each head "
                   "first forms a weighted sum of the positions, then maps it with its own V_j. "
                   "So the weights a head must normalise are its c_ij over the positions i, one "
                   "distribution per head, not over the heads. Here with H = %zu head%s, T = %zu "
                   "tokens of size %zu, before any normalisation:", H, H == 1 ? "" : "s", T, d);
    gsl_matrix *C = gsl_matrix_alloc(T, H);
    gsl_matrix *V[MAX_HEADS] = {0};
    gsl_vector *y1 = gsl_vector_alloc(d), *y2 = gsl_vector_alloc(d);
    int status = C && y1 && y2 ? head_scores(m->X, r, C) : INVENT_ENOMEM;
    for (size_t j = 0; j < H && status == INVENT_OK; j++)
        if (!(V[j] = mat_gaussian(d, d, 1.0 / sqrt((double)d), r)))
            status = INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = sum_positions_outside(m->X, C, V, y1);
    if (status == INVENT_OK)
        status = sum_heads_outside(m->X, C, V, y2);
    if (status == INVENT_OK) {
        gsl_matrix_view a = gsl_matrix_view_vector(y1, 1, d), b = gsl_matrix_view_vector(y2, 1, d);
        check_at_most("S1", "sum over positions of (sum over heads) equals sum over heads of "
                            "(sum over positions), unnormalised (relative error)",
                      mat_rel_error(&a.matrix, &b.matrix), 1e-12);
    }
    for (size_t j = 0; j < H; j++)
        gsl_matrix_free(V[j]);
    gsl_matrix_free(C);
    gsl_vector_free(y1);
    gsl_vector_free(y2);
    return status == INVENT_OK ? 0 : chapter_fail(o, "swapping the sums", status);
}

/* ---------------------------------------------------------------- S2 */

#define N_TAU 81 /* tau = 10^-2 .. 10^2, 20 points a decade */

static double tau_at(int k) { return pow(10.0, -2.0 + k / 20.0); }

/* w: (T) <- softmax(s / tau); -> distances to the one-hot of the largest
 * score and to uniform (largest entry difference), and |sum - 1| */
static void weights_at(const gsl_vector *s, double tau, gsl_vector *w, double *to_onehot,
                       double *to_uniform, double *sum_err)
{
    gsl_vector_memcpy(w, s);
    softmax_vector(w, tau);
    size_t top = gsl_vector_max_index(s), T = s->size;
    double sum = 0.0;
    *to_onehot = *to_uniform = 0.0;
    for (size_t i = 0; i < T; i++) {
        double v = gsl_vector_get(w, i);
        sum += v;
        *to_onehot = fmax(*to_onehot, fabs(v - (i == top)));
        *to_uniform = fmax(*to_uniform, fabs(v - 1.0 / (double)T));
    }
    *sum_err = fabs(sum - 1.0);
}

/* A position and its score, to list positions from the largest score down. */
typedef struct {
    double score;
    size_t pos;
} ranked;

static int by_score_down(const void *a, const void *b)
{
    double x = ((const ranked *)a)->score, y = ((const ranked *)b)->score;
    return (x < y) - (x > y);
}

enum { MAX_TOKENS = 512, NAMED_LINES = 7 }; /* the figure names the 7 largest scores */

static void plot_temperature(const invent_opts *o, const gsl_vector *s, gsl_vector *w,
                             double tau_scaled)
{
    plot *p = plot_begin(o, "ch07_temperature");
    plot *q = plot_begin(o, "ch07_entropy");
    size_t T = s->size;
    ranked order[MAX_TOKENS];
    for (size_t i = 0; i < T; i++)
        order[i] = (ranked){gsl_vector_get(s, i), i};
    qsort(order, T, sizeof order[0], by_score_down);
    char scores[256] = "";
    for (size_t k = 0; k < T && k < NAMED_LINES; k++) {
        size_t used = strlen(scores);
        snprintf(scores + used, sizeof scores - used, "%s%.2f", k ? " " : "", order[k].score);
    }
    plot_set(p, "T", (double)T);
    plot_set(p, "named", (double)(T < NAMED_LINES ? T : NAMED_LINES));
    plot_set_text(p, "scores", scores);
    plot_set(p, "rest_high", T > NAMED_LINES ? order[NAMED_LINES].score : 0.0);
    plot_set(p, "rest_low", order[T - 1].score);
    plot_set(p, "tau_scaled", tau_scaled);
    plot_set(q, "T", (double)T);
    double a, b, c;
    for (size_t k = 0; k < T; k++) {
        plot_block(p, "tau  weight_of_this_position  score (blocks from the largest score down)");
        for (int j = 0; j < N_TAU; j++) {
            weights_at(s, tau_at(j), w, &a, &b, &c);
            PLOT_ROW(p, tau_at(j), gsl_vector_get(w, order[k].pos), order[k].score);
        }
    }
    plot_block(q, "tau  entropy_nats");
    for (int k = 0; k < N_TAU; k++) {
        weights_at(s, tau_at(k), w, &a, &b, &c);
        PLOT_ROW(q, tau_at(k), softmax_entropy(w));
    }
    plot_render(p, "ch07_temperature.gp");
    plot_render(q, "ch07_entropy.gp");
}

static int temperature_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1;
    gsl_matrix *S = gsl_matrix_alloc(T, T);
    gsl_vector *s = gsl_vector_alloc(T), *w = gsl_vector_alloc(T);
    int status = S && s && w ? factor_scores(m->X, m->Wq, m->Wk, S) : INVENT_ENOMEM;
    if (status != INVENT_OK) {
        gsl_matrix_free(S);
        gsl_vector_free(s);
        gsl_vector_free(w);
        return chapter_fail(o, "computing the scores", status);
    }
    gsl_matrix_get_row(s, S, T - 1);
    gsl_matrix_free(S);
    report_section(o, "Softmax, and its temperature");
    report_text(o, "The softmax turns scores s_i into weights exp(s_i / tau) / sum_j exp(s_j / "
                   "tau): positive, summing to one, larger for larger scores. The temperature "
                   "tau sets how sharp the choice is. Cold (tau -> 0) it picks the largest score "
                   "alone; hot (tau -> infinity) it spreads evenly. The 1/sqrt(r) scaling of "
                   "Vaswani et al. (2017) is the temperature tau = sqrt(r). The scores below are "
                   "the last token's, against all %zu positions.", T);
    double sorted_gap = INFINITY, top = gsl_vector_max(s);
    for (size_t i = 0; i < T; i++)
        if (gsl_vector_get(s, i) < top)
            sorted_gap = fmin(sorted_gap, top - gsl_vector_get(s, i));
    double worst_sum = 0.0, onehot, uniform, err, prev_top = INFINITY, prev_entropy = 0.0;
    int monotone = 1;
    report_line(o, "     tau   largest weight   entropy (nats)");
    for (int k = 0; k < N_TAU; k++) {
        weights_at(s, tau_at(k), w, &onehot, &uniform, &err);
        double largest = gsl_vector_max(w), entropy = softmax_entropy(w);
        worst_sum = fmax(worst_sum, err);
        monotone &= largest <= prev_top + 1e-15 && entropy >= prev_entropy - 1e-15;
        prev_top = largest;
        prev_entropy = entropy;
        if (k % 20 == 0)
            report_line(o, "  %6.4g   %14.4f   %14.4f", tau_at(k), largest, entropy);
    }
    report_line(o, "%s", "");
    check_at_most("S2", "the weights sum to 1 at every tau from 0.01 to 100 (largest |sum - 1|)",
                  worst_sum, 1e-14);
    double cold = sorted_gap / 50.0, hot = 1e6 * (top - gsl_vector_min(s));
    weights_at(s, cold, w, &onehot, &uniform, &err);
    check_at_most("S2", "tau -> 0: at tau = (gap between the two largest scores) / 50 the "
                        "weights are the one-hot of the largest score", onehot, 1e-20);
    weights_at(s, hot, w, &onehot, &uniform, &err);
    check_at_most("S2", "tau -> infinity: at tau = 10^6 x (score range) the weights are "
                        "uniform, 1/T each", uniform, 1e-6);
    check_close("S2", "... and their entropy reaches log T, its largest possible value",
                softmax_entropy(w), log((double)T), 1e-9);
    check_true("S2", "along the tau grid, the weights move steadily from one-hot to uniform",
               monotone, monotone ? "the largest weight falls and the entropy rises with tau"
                                  : "not monotone in tau");
    plot_temperature(o, s, w, sqrt((double)m->Wq->size1));
    gsl_vector_free(s);
    gsl_vector_free(w);
    return 0;
}

/* ---------------------------------------------------------------- S3, S4 */

typedef struct {
    gsl_matrix *Q, *K, *V; /* (T, r), (T, r), (T, d) */
} qkv;

static void qkv_free(qkv *p)
{
    gsl_matrix_free(p->Q);
    gsl_matrix_free(p->K);
    gsl_matrix_free(p->V);
}

static int qkv_of(const example *m, qkv *p)
{
    p->Q = mat_product(m->X, CblasNoTrans, m->Wq, CblasTrans);
    p->K = mat_product(m->X, CblasNoTrans, m->Wk, CblasTrans);
    p->V = mat_product(m->X, CblasNoTrans, m->Wv, CblasTrans);
    return p->Q && p->K && p->V ? INVENT_OK : INVENT_ENOMEM;
}

static void plot_heatmap(const invent_opts *o, const gsl_matrix *W)
{
    plot *p = plot_begin(o, "ch07_causal");
    plot_set(p, "T", (double)W->size1);
    plot_block(p, "key_position  query_position  weight");
    plot_matrix(p, W);
    plot_render(p, "ch07_causal.gp");
}

static void print_per_position(const invent_opts *o, const gsl_matrix *a, const gsl_matrix *b)
{
    report_line(o, "  position t   visible positions   max |sum form - matrix form|");
    for (size_t t = 0; t < a->size1; t++) {
        gsl_matrix_const_view ra = gsl_matrix_const_submatrix(a, t, 0, 1, a->size2);
        gsl_matrix_const_view rb = gsl_matrix_const_submatrix(b, t, 0, 1, b->size2);
        report_line(o, "  %10zu   %17zu   %.3g", t, t + 1,
                    mat_max_abs_diff(&ra.matrix, &rb.matrix));
    }
    report_line(o, "%s", "");
}

static int forms_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, r = m->Wq->size1, d = m->X->size2;
    double scale = 1.0 / sqrt((double)r);
    report_section(o, "The per-position sum and the masked matrix form");
    report_text(o, "Token t may read only tokens 0..t. Written per position, it computes the "
                   "scores q_t . k_i / sqrt(r) for i <= t, their softmax, and the weighted sum of "
                   "the values v_i. Written as matrices, it computes every score at once, Q K^T, "
                   "adds a mask M that is 0 on and below the diagonal and minus infinity above, "
                   "and takes softmax(Q K^T / sqrt(r) + M) V: exp(-infinity) = 0 removes what "
                   "token t must not see. Here T = %zu, d = %zu, r = %zu.", T, d, r);
    qkv p = {0};
    gsl_matrix *sum = gsl_matrix_alloc(T, d), *mat = gsl_matrix_alloc(T, d);
    gsl_matrix *S = gsl_matrix_alloc(T, T);
    int status = sum && mat && S ? qkv_of(m, &p) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = attn_sum_form(p.Q, p.K, p.V, scale, ATTN_CAUSAL, sum);
    if (status == INVENT_OK)
        status = attn_matrix_form(p.Q, p.K, p.V, scale, ATTN_CAUSAL, mat);
    if (status == INVENT_OK)
        status = attn_weights(p.Q, p.K, scale, ATTN_CAUSAL, S);
    /* dump_matrix reports its own failure: no second message for it */
    int dump_failed = status == INVENT_OK &&
                      (dump_matrix(o, "X", m->X) || dump_matrix(o, "W_q", m->Wq) ||
                       dump_matrix(o, "W_k", m->Wk) || dump_matrix(o, "W_v", m->Wv) ||
                       dump_matrix(o, "output", mat) || dump_matrix(o, "weights", S));
    if (status == INVENT_OK && !dump_failed) {
        print_per_position(o, sum, mat);
        check_matrix_close("S3", "the per-position sums equal softmax(Q K^T / sqrt(r) + M) V with "
                                 "a causal mask, at every position", sum, mat, 1e-12);
        plot_heatmap(o, S);
    }
    gsl_matrix_free(sum);
    gsl_matrix_free(mat);
    gsl_matrix_free(S);
    qkv_free(&p);
    if (status != INVENT_OK)
        return chapter_fail(o, "computing attention", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* T -> how many of the T^2 entries a causal mask sets to -infinity, counted */
static int count_masked(size_t T, uint64_t *masked)
{
    gsl_matrix *S = gsl_matrix_calloc(T, T);
    if (!S)
        return INVENT_ENOMEM;
    mask_causal(S);
    *masked = 0;
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i < T; i++)
            *masked += gsl_matrix_get(S, t, i) == -INFINITY;
    gsl_matrix_free(S);
    return INVENT_OK;
}

static int waste_section(const invent_opts *o, size_t tokens)
{
    report_section(o, "What the matrix form wastes");
    report_text(o, "The matrix form computes all T^2 scores and the mask then discards those "
                   "above the diagonal, T(T-1)/2 of them: nearly half the work for long "
                   "sequences. It is still the form real systems use, because one large matrix "
                   "product runs far faster than T small ones.");
    report_line(o, "       T          scores          masked   wasted fraction");
    size_t Ts[6] = {2, 16, 128, 512}, n = 4;
    if (tokens != 2 && tokens != 16 && tokens != 128 && tokens != 512)
        Ts[n++] = tokens;
    qsort(Ts, n, sizeof Ts[0], by_size);
    int agree = 1;
    for (size_t k = 0; k < n; k++) {
        uint64_t masked = 0, T = Ts[k];
        if (count_masked(Ts[k], &masked) != INVENT_OK)
            return chapter_fail(o, "counting masked scores", INVENT_ENOMEM);
        agree &= masked == T * (T - 1) / 2;
        report_line(o, "  %6llu   %13llu   %13llu   %.6f", (unsigned long long)T,
                    (unsigned long long)(T * T), (unsigned long long)masked,
                    (double)masked / (double)(T * T));
    }
    uint64_t T = 5000;
    report_line(o, "  %6llu   %13llu   %13llu   %.6f   (by the formula, the ledger's length)",
                (unsigned long long)T, (unsigned long long)(T * T),
                (unsigned long long)(T * (T - 1) / 2), (double)(T - 1) / (double)(2 * T));
    report_line(o, "%s", "");
    check_true("S4", "the causal mask discards T(T-1)/2 of the T^2 scores (counted on the masked "
                     "matrix for T = 2, 16, 128, 512 and the chosen T)",
               agree, agree ? "every count equals T(T-1)/2" : "a count differs from T(T-1)/2");
    uint64_t masked = 0;
    count_masked(tokens, &masked);
    char what[128];
    snprintf(what, sizeof what, "wasted fraction at T = %zu is (T-1)/(2T)", tokens);
    check_close("S4", what,
                (double)masked / (double)(tokens * tokens),
                (double)(tokens - 1) / (double)(2 * tokens), 1e-15);
    return 0;
}

/* ---------------------------------------------------------------- S5 */

static int all_finite_summing_to_one(const gsl_vector *w, double *sum)
{
    int finite = 1;
    *sum = 0.0;
    for (size_t i = 0; i < w->size; i++) {
        finite &= isfinite(gsl_vector_get(w, i));
        *sum += gsl_vector_get(w, i);
    }
    return finite;
}

static int stability_section(const invent_opts *o, const example *m)
{
    report_section(o, "Scores of plus and minus ten thousand");
    double s[] = {1e4, -1e4, 1e4 - 1.0, 0.0, -1e4, 5e3};
    const size_t n = sizeof s / sizeof s[0];
    double naive_total = 0.0;
    for (size_t i = 0; i < n; i++)
        naive_total += exp(s[i]);
    report_text(o, "exp(10^4) is far beyond the largest double (about 1.8 x 10^308): it is "
                   "infinity, and the naive softmax exp(s_i) / sum_j exp(s_j) divides infinity "
                   "by infinity: the first weight comes out as %s. Subtracting the row's largest score first changes "
                   "no weight, since the factor exp(-max) cancels, and leaves exponents <= 0, "
                   "which cannot overflow.",
                isnan(exp(s[0]) / naive_total) ? "NaN, not a number" : "a number");
    gsl_vector_view w = gsl_vector_view_array(s, n);
    int status = softmax_vector(&w.vector, 1.0);
    double sum = NAN;
    int finite = status == INVENT_OK && all_finite_summing_to_one(&w.vector, &sum);
    report_line(o, "  scores  1e4, -1e4, 1e4 - 1, 0, -1e4, 5e3");
    report_line(o, "  weights %.6g, %.3g, %.6g, %.3g, %.3g, %.3g", s[0], s[1], s[2], s[3], s[4], s[5]);
    report_line(o, "%s", "");
    check_true("S5", "scores of +-1e4 give finite weights", finite,
               finite ? "every weight is a finite number" : "a weight is NaN or infinite");
    check_close("S5", "... that sum to 1", sum, 1.0, 1e-15);
    check_close("S5", "... and are right: the two top scores, 1 apart, share 1/(1+e^-1) and "
                      "e^-1/(1+e^-1)", s[0], 1.0 / (1.0 + exp(-1.0)), 1e-15);
    report_line(o, "%s", "");
    report_text(o, "A row in which every entry is masked (it can happen with padding, or a "
                   "window that excludes the token itself) has no position to attend to. The "
                   "library defines its weights as all zero, so its output is the zero vector; "
                   "no NaN escapes into the rest of the computation.");
    double row[] = {-INFINITY, -INFINITY, -INFINITY};
    gsl_vector_view v = gsl_vector_view_array(row, 3);
    status = softmax_vector(&v.vector, 1.0);
    int zero = status == INVENT_OK && row[0] == 0.0 && row[1] == 0.0 && row[2] == 0.0;
    check_true("S5", "a fully masked row gets all-zero weights, no NaN", zero,
               zero ? "weights 0, 0, 0" : "weights are not all zero");
    /* the whole attention at huge scores: both forms finite and equal */
    qkv p = {0};
    size_t T = m->X->size1, d = m->X->size2;
    gsl_matrix *a = gsl_matrix_alloc(T, d), *b = gsl_matrix_alloc(T, d);
    status = a && b ? qkv_of(m, &p) : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix_scale(p.Q, 1e4);
        status = attn_sum_form(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, a);
    }
    if (status == INVENT_OK)
        status = attn_matrix_form(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, b);
    if (status == INVENT_OK)
        check_matrix_close("S5", "causal attention with queries scaled by 1e4: both forms finite "
                                 "and equal", a, b, 1e-10);
    gsl_matrix_free(a);
    gsl_matrix_free(b);
    qkv_free(&p);
    return status == INVENT_OK ? 0 : chapter_fail(o, "attention at huge scores", status);
}

int main(int argc, char **argv)
{
    sizes s = {.tokens = 8, .dim = 16, .rank = 8, .heads = 4};
    const cli_option options[] = {
        {"tokens", CLI_SIZE, &s.tokens, 2, MAX_TOKENS, "tokens T"},
        {"dim", CLI_SIZE, &s.dim, 1, 256, "size d of a token"},
        {"rank", CLI_SIZE, &s.rank, 1, 256, "size r of queries and keys (at most --dim)"},
        {"heads", CLI_SIZE, &s.heads, 1, MAX_HEADS,
         "score functions H in the swap of sums (it builds T H d x d matrices)"},
    };
    const cli_spec spec = {"ch07", "Chapter 7: softmax over positions, temperature, causal mask.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.rank > s.dim)
        return cli_fail(&o, "--rank (%zu) must not exceed --dim (%zu)", s.rank, s.dim);
    rc = chapter_start(&o, "Chapter 7: normalising over the sequence");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *r = rng_new(o.seed);
    example m;
    if (!r || example_new(&s, r, &m) != INVENT_OK) {
        gsl_rng_free(r);
        return chapter_fail(&o, "creating the example", INVENT_ENOMEM);
    }
    rc = swap_section(&o, &m, s.heads, r);
    if (rc == 0)
        rc = temperature_section(&o, &m);
    if (rc == 0)
        rc = forms_section(&o, &m);
    if (rc == 0)
        rc = waste_section(&o, s.tokens);
    if (rc == 0)
        rc = stability_section(&o, &m);
    example_free(&m);
    gsl_rng_free(r);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "One head now reads the past through normalised, masked weights. The next "
                    "chapter runs several heads side by side and mixes their outputs.");
    return chapter_end();
}
