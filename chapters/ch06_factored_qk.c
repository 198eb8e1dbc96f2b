/* Chapter 6: queries and keys by factoring.
 *
 * The bilinear score of chapter 5 caches d numbers per token and function.
 * Writing A as a product W_q^T W_k of two (r, d) matrices changes nothing in
 * the scores: x_L^T W_q^T W_k x_i is the dot product of the query W_q x_L
 * with the key W_k x_i (claim Q1). What it changes is the rest: the cache
 * holds keys of r numbers instead of d; the product has rank at most r, where
 * a free A is full rank, and any rank-r A can be split back into the two
 * factors (Q2); and the arithmetic per token shrinks (Q3). Two facts about
 * the result close the chapter: without positions and without a mask,
 * attention cannot tell the order of its inputs (Q4), and before the softmax
 * every score is a quadratic form of the input (Q5).
 */
#include <math.h>

#include "invent.h"

typedef struct {
    size_t dim, rank, tokens;
} sizes;

/* The ledger's setting of chapter 5, and the rank of Q1. */
static const kvcache_shape LEDGER = {5000, 50, 20, 1000, 2};
static const uint64_t LEDGER_RANK = 200;

typedef struct {
    gsl_matrix *X;      /* (T, d) the tokens, one per row */
    gsl_matrix *Wq, *Wk; /* (r, d) the two projections */
    gsl_matrix *A;      /* (d, d) their product W_q^T W_k */
    gsl_matrix *Wv;     /* (d, d) values, for the attention of Q4 */
} example;

static void example_free(example *m)
{
    gsl_matrix_free(m->X);
    gsl_matrix_free(m->Wq);
    gsl_matrix_free(m->Wk);
    gsl_matrix_free(m->A);
    gsl_matrix_free(m->Wv);
}

static int example_new(const sizes *s, gsl_rng *r, example *m)
{
    double sigma = 1.0 / sqrt((double)s->dim);
    m->X = mat_gaussian(s->tokens, s->dim, 1.0, r);
    m->Wq = mat_gaussian(s->rank, s->dim, sigma, r);
    m->Wk = mat_gaussian(s->rank, s->dim, sigma, r);
    m->Wv = mat_gaussian(s->dim, s->dim, sigma, r);
    m->A = m->Wq && m->Wk ? mat_product(m->Wq, CblasTrans, m->Wk, CblasNoTrans) : NULL;
    if (m->X && m->Wq && m->Wk && m->Wv && m->A)
        return INVENT_OK;
    example_free(m);
    return INVENT_ENOMEM;
}

/* Decodes the tokens one at a time with a cache of keys W_k x_i (r numbers
 * each) and queries W_q x_L; -> the largest difference from S. */
static int decode_factored(const example *m, const gsl_matrix *S, double *worst)
{
    size_t T = m->X->size1, r = m->Wq->size1;
    kvcache *c = kvcache_new(T, r);
    gsl_vector *q = gsl_vector_alloc(r), *k = gsl_vector_alloc(r), *s = gsl_vector_alloc(T);
    int status = c && q && k && s ? INVENT_OK : INVENT_ENOMEM;
    *worst = 0.0;
    for (size_t L = 0; L < T && status == INVENT_OK; L++) {
        gsl_vector_const_view x = gsl_matrix_const_row(m->X, L);
        gsl_vector_view seen = gsl_vector_subvector(s, 0, L + 1);
        gsl_blas_dgemv(CblasNoTrans, 1.0, m->Wk, &x.vector, 0.0, k);
        gsl_blas_dgemv(CblasNoTrans, 1.0, m->Wq, &x.vector, 0.0, q);
        status = kvcache_append(c, k);
        if (status == INVENT_OK)
            status = kvcache_scores(c, q, &seen.vector);
        for (size_t i = 0; i <= L && status == INVENT_OK; i++)
            *worst = fmax(*worst, fabs(gsl_vector_get(s, i) - gsl_matrix_get(S, L, i)));
    }
    kvcache_free(c);
    gsl_vector_free(q);
    gsl_vector_free(k);
    gsl_vector_free(s);
    return status;
}

static void cache_shrink(const invent_opts *o)
{
    kvcache_shape full = LEDGER, thin = LEDGER;
    thin.width = LEDGER_RANK;
    uint64_t full_bytes = 0, thin_bytes = 0;
    kvcache_bytes(&full, &full_bytes);
    kvcache_bytes(&thin, &thin_bytes);
    report_line(o, "  keys of d = %llu numbers: %llu bytes = %.4g GB",
                (unsigned long long)full.width, (unsigned long long)full_bytes, full_bytes / 1e9);
    report_line(o, "  keys of r = %llu numbers:  %llu bytes = %.4g GB",
                (unsigned long long)thin.width, (unsigned long long)thin_bytes, thin_bytes / 1e9);
    check_equal("Q1", "for the ledger's setting, keys of r = 200 numbers take 2 GB (2 x 10^9 "
                      "bytes)", thin_bytes, 2000000000ULL);
    check_close("Q1", "the cache shrinks by d / r = 5", (double)full_bytes / (double)thin_bytes,
                5.0, 0.0);
}

/* Q1: same scores, smaller cache. */
static int factored_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, d = m->X->size2, r = m->Wq->size1;
    report_section(o, "Two thin matrices instead of one square one");
    report_text(o, "Let A = W_q^T W_k with W_q and W_k of shape (r, d), here r = %zu and d = %zu. "
                   "Then x_L^T A x_i = (W_q x_L) . (W_k x_i): a query of r numbers made from the "
                   "current token, dotted with a key of r numbers made from the past one. Only "
                   "the keys need to be cached. The scores of %zu tokens are computed three "
                   "ways: with A, with queries and keys, and token by token from a cache of keys.",
                r, d, T);
    gsl_matrix *SA = gsl_matrix_alloc(T, T), *SF = gsl_matrix_alloc(T, T);
    int status = SA && SF ? bilinear_scores(m->X, m->A, SA) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = factor_scores(m->X, m->Wq, m->Wk, SF);
    double worst = NAN;
    if (status == INVENT_OK)
        status = decode_factored(m, SA, &worst);
    if (status == INVENT_OK) {
        check_matrix_close("Q1", "x_L^T (W_q^T W_k) x_i equals (W_q x_L) . (W_k x_i) for every "
                                 "pair", SF, SA, 1e-12);
        check_at_most("Q1", "a cache of keys W_k x_i (r numbers each) gives the same scores, "
                            "token by token", worst, 1e-12);
        report_line(o, "%s", "");
        report_text(o, "For the ledger's setting of chapter 5 (5,000 tokens, 50 layers, 20 "
                       "functions, d = 1,000, 2 bytes) with r = 200:");
        cache_shrink(o);
    }
    gsl_matrix_free(SA);
    gsl_matrix_free(SF);
    return status == INVENT_OK ? 0 : chapter_fail(o, "computing the scores", status);
}

/* A: (m, n) -> s: (min(m, n)), its singular values; NULL when it fails */
static gsl_vector *spectrum(const gsl_matrix *A)
{
    gsl_vector *s = gsl_vector_alloc(A->size1 < A->size2 ? A->size1 : A->size2);
    if (s && linalg_singular_values(A, s) != INVENT_OK) {
        gsl_vector_free(s);
        return NULL;
    }
    return s;
}

static void plot_spectra(const invent_opts *o, const gsl_vector *product, const gsl_vector *free_A,
                         size_t r)
{
    plot *p = plot_begin(o, "ch06_spectra");
    plot_set(p, "rank", (double)r);
    plot_set(p, "dim", (double)product->size);
    plot_block(p, "index  singular_value_of_WqT_Wk  singular_value_of_free_A");
    for (size_t j = 0; j < product->size; j++)
        PLOT_ROW(p, (double)(j + 1), fmax(gsl_vector_get(product, j), 1e-17),
                 gsl_vector_get(free_A, j));
    plot_render(p, "ch06_spectra.gp");
}

/* Q2, the second half: the rank-r product factors back, and a free A
 * truncated to rank r loses exactly its dropped singular values. */
static int refactor(const invent_opts *o, const example *m, const gsl_matrix *A_free,
                    const gsl_vector *s_free)
{
    size_t r = m->Wq->size1, d = m->Wq->size2;
    gsl_matrix *Fq = gsl_matrix_alloc(r, d), *Fk = gsl_matrix_alloc(r, d), *B = NULL, *C = NULL;
    int status = Fq && Fk ? factor_svd(m->A, Fq, Fk) : INVENT_ENOMEM;
    if (status == INVENT_OK && !(B = mat_product(Fq, CblasTrans, Fk, CblasNoTrans)))
        status = INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = factor_svd(A_free, Fq, Fk);
    if (status == INVENT_OK && !(C = mat_product(Fq, CblasTrans, Fk, CblasNoTrans)))
        status = INVENT_ENOMEM;
    if (status == INVENT_OK) {
        check_at_most("Q2", "the rank-r product factors back into W_q, W_k by SVD (relative "
                            "error of W_q^T W_k)", mat_rel_error(B, m->A), 1e-12);
        double dropped = 0.0, norm = 0.0;
        for (size_t j = 0; j < d; j++) {
            double v = gsl_vector_get(s_free, j);
            norm += v * v;
            dropped += j >= r ? v * v : 0.0;
        }
        double lost = mat_rel_error(C, A_free) * sqrt(norm);
        report_line(o, "%s", "");
        report_text(o, "Factoring the free A at rank %zu keeps its %zu largest singular values "
                       "and loses %.1f%% of its Frobenius norm: the best any rank-%zu factoring "
                       "can do (Eckart & Young, 1936).", r, r, 100.0 * sqrt(dropped / norm), r);
        check_close("Q2", "a free A factored at rank r misses by exactly its dropped singular "
                          "values, ||A - W_q^T W_k||_F = sqrt(sum_{j>r} s_j^2)",
                    lost, sqrt(dropped), 1e-10 * sqrt(norm));
    }
    gsl_matrix_free(Fq);
    gsl_matrix_free(Fk);
    gsl_matrix_free(B);
    gsl_matrix_free(C);
    return status == INVENT_OK ? 0 : chapter_fail(o, "factoring by SVD", status);
}

/* Q2: rank of the product against a free matrix. */
static int rank_section(const invent_opts *o, const example *m, gsl_rng *rng)
{
    size_t r = m->Wq->size1, d = m->Wq->size2;
    report_section(o, "Rank: what the factoring gives up");
    report_text(o, "W_q^T W_k sends every vector through r = %zu numbers, so it has rank at most "
                   "r. A single free d x d matrix has no such limit. Their singular values (GSL's "
                   "SVD) show the difference: the product's fall off a cliff after the r-th, the "
                   "free matrix's do not.", r);
    gsl_matrix *A_free = mat_gaussian(d, d, 1.0 / sqrt((double)d), rng);
    gsl_vector *s_prod = spectrum(m->A), *s_free = A_free ? spectrum(A_free) : NULL;
    int rc = 0;
    if (!s_prod || !s_free) {
        rc = chapter_fail(o, "computing singular values", INVENT_ENUMERIC);
    } else {
        report_line(o, "   j   s_j of W_q^T W_k   s_j of a free A");
        for (size_t j = 0; j < d; j++)
            if (j < 3 || (j + 2 >= r && j <= r + 1) || j + 2 >= d)
                report_line(o, "  %2zu   %16.3e   %15.3e", j + 1, gsl_vector_get(s_prod, j),
                            gsl_vector_get(s_free, j));
        size_t rank_prod = linalg_rank(s_prod, 1e-10), rank_free = linalg_rank(s_free, 1e-10);
        check_true("Q2", "rank(W_q^T W_k) <= r (singular values above 1e-10 of the largest)",
                   rank_prod <= r, rank_prod <= r ? "numerical rank within r" : "rank above r");
        check_equal("Q2", "the numerical rank of W_q^T W_k is r", rank_prod, r);
        check_equal("Q2", "a free d x d matrix A is full rank", rank_free, d);
        plot_spectra(o, s_prod, s_free, r);
        rc = refactor(o, m, A_free, s_free);
    }
    gsl_matrix_free(A_free);
    gsl_vector_free(s_prod);
    gsl_vector_free(s_free);
    return rc;
}

/* Sums the cost of decoding step by step, as the loop runs: token t makes
 * its projections and scores against the t + 1 cached keys. */
static kvcache_cost stepwise(uint64_t T, uint64_t proj, uint64_t width)
{
    kvcache_cost c = {0, 0};
    for (uint64_t t = 0; t < T; t++) {
        c.madds += proj + width * (t + 1);
        c.cached += width;
    }
    return c;
}

static int same_cost(kvcache_cost a, kvcache_cost b)
{
    return a.madds == b.madds && a.cached == b.cached;
}

/* Q3: the cost table; returns how many rows disagree with the step count. */
static int cost_row(const invent_opts *o, uint64_t T, uint64_t d, uint64_t r)
{
    kvcache_cost one, two;
    if (kvcache_cost_bilinear(T, d, &one) || kvcache_cost_factored(T, d, r, &two)) {
        report_line(o, "  %7llu %5llu %4llu   (does not fit in 64 bits)", (unsigned long long)T,
                    (unsigned long long)d, (unsigned long long)r);
        return 1;
    }
    report_line(o, "  %7llu %5llu %4llu   %10.3e %10.3e %6.2f   %10.3e %10.3e %6.2f",
                (unsigned long long)T, (unsigned long long)d, (unsigned long long)r,
                (double)one.madds, (double)two.madds, (double)one.madds / (double)two.madds,
                (double)one.cached, (double)two.cached, (double)one.cached / (double)two.cached);
    int ok = same_cost(one, stepwise(T, d * d, d)) && same_cost(two, stepwise(T, 2 * r * d, r));
    return !ok || one.cached != two.cached * d / r;
}

static void cost_section(const invent_opts *o, const sizes *s)
{
    report_section(o, "What each form costs");
    report_text(o, "Tokens arrive one at a time; token t is scored against itself and every "
                   "token before it, T(T+1)/2 pairs in all. With one matrix, each token costs "
                   "d^2 multiply-adds for A x_t and d per pair, and d numbers are cached. With "
                   "the pair, each token costs 2rd for its query and key and r per pair, and r "
                   "numbers are cached. The formulas of the library are compared with the "
                   "costs summed step by step as the loop would run them.");
    report_line(o, "        T     d    r   madds, A   madds, Wq Wk  ratio  cached, A  cached, Wk  ratio");
    const uint64_t Ts[] = {1000, 5000, 100000}, ds[] = {512, 1000, 4096}, rs[] = {64, 200};
    int bad = 0, rows = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 2; k++, rows++)
                bad += cost_row(o, Ts[i], ds[j], rs[k]);
    bad += cost_row(o, s->tokens, s->dim, s->rank);
    report_line(o, "%s", "  (last row: your --tokens, --dim, --rank)");
    report_line(o, "%s", "");
    char detail[96];
    snprintf(detail, sizeof detail, "%d of %d rows agree", rows + 1 - bad, rows + 1);
    check_true("Q3", "multiply-adds and cached numbers of both forms, by formula and summed "
                     "step by step, agree for every (T, d, r); the cache shrinks by d / r",
               bad == 0, detail);
}

/* out: (T, d) <- attention over X, scores by A (Q = X A, K = X) or by the
 * pair (Q = X W_q^T, K = X W_k^T), values X W_v^T */
static int attend(const example *m, const gsl_matrix *X, int factored, attn_mask mask,
                  gsl_matrix *out)
{
    gsl_matrix *Q = factored ? mat_product(X, CblasNoTrans, m->Wq, CblasTrans)
                             : mat_product(X, CblasNoTrans, m->A, CblasNoTrans);
    gsl_matrix *K = factored ? mat_product(X, CblasNoTrans, m->Wk, CblasTrans) : mat_clone(X);
    gsl_matrix *V = mat_product(X, CblasNoTrans, m->Wv, CblasTrans);
    int status = Q && K && V ? attn_matrix_form(Q, K, V, 1.0, mask, out) : INVENT_ENOMEM;
    gsl_matrix_free(Q);
    gsl_matrix_free(K);
    gsl_matrix_free(V);
    return status;
}

/* max |attn(P X) - P attn(X)| for one form, mask and permutation -> *gap */
static int equivariance_gap(const example *m, int factored, attn_mask mask,
                            const gsl_permutation *p, double *gap)
{
    size_t T = m->X->size1, d = m->X->size2;
    gsl_matrix *PX = gsl_matrix_alloc(T, d), *Y = gsl_matrix_alloc(T, d);
    gsl_matrix *PY = gsl_matrix_alloc(T, d), *YP = gsl_matrix_alloc(T, d);
    int status = PX && Y && PY && YP ? permute_rows(p, m->X, PX) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = attend(m, m->X, factored, mask, Y);
    if (status == INVENT_OK)
        status = attend(m, PX, factored, mask, YP);
    if (status == INVENT_OK)
        status = permute_rows(p, Y, PY);
    *gap = status == INVENT_OK ? mat_max_abs_diff(YP, PY) : NAN;
    gsl_matrix_free(PX);
    gsl_matrix_free(Y);
    gsl_matrix_free(PY);
    gsl_matrix_free(YP);
    return status;
}

/* Q4: attention cannot see the order of its inputs, unless masked. */
static int order_section(const invent_opts *o, const example *m, gsl_rng *r)
{
    report_section(o, "Attention does not see the order");
    report_text(o, "Nothing so far tells attention where a token sits: the score of a pair "
                   "depends on the two tokens alone. Reorder the input rows by a permutation P "
                   "and the output rows come out reordered the same way, attn(P X) = P attn(X). "
                   "This is checked for a rotation of the tokens by one place and for a random "
                   "shuffle, with the single matrix A and with the factored pair, without a "
                   "mask; then once more with a causal mask, which does see the order.");
    gsl_permutation *perm[2] = {gsl_permutation_alloc(m->X->size1),
                                gsl_permutation_alloc(m->X->size1)};
    int status = perm[0] && perm[1] ? INVENT_OK : INVENT_ENOMEM;
    double worst = 0.0, masked = INFINITY;
    if (status == INVENT_OK) {
        permute_rotation(perm[0], 1);
        permute_random(perm[1], r);
        if (gsl_permutation_inversions(perm[1]) == 0) /* drew the identity: no reordering */
            gsl_permutation_swap(perm[1], 0, 1);
    }
    for (int k = 0; k < 4 && status == INVENT_OK; k++) {
        double gap = NAN, causal = NAN;
        status = equivariance_gap(m, k % 2, ATTN_BIDIRECTIONAL, perm[k / 2], &gap);
        if (status == INVENT_OK)
            status = equivariance_gap(m, k % 2, ATTN_CAUSAL, perm[k / 2], &causal);
        report_line(o, "  %-8s  %-14s  no mask: %.2e   causal mask: %.2e",
                    k / 2 ? "shuffle" : "rotation", k % 2 ? "W_q^T W_k pair" : "single A", gap,
                    causal);
        worst = fmax(worst, gap);
        masked = fmin(masked, causal);
    }
    report_line(o, "%s", "");
    if (status == INVENT_OK) {
        check_at_most("Q4", "without positions or mask, attn(P X) = P attn(X) for a rotation and "
                            "a shuffle, single matrix and factored pair alike", worst, 1e-12);
        check_at_least("Q4", "a causal mask breaks it: the smallest difference under the same "
                             "permutations is far from zero", masked, 1e-3);
    }
    gsl_permutation_free(perm[0]);
    gsl_permutation_free(perm[1]);
    return status == INVENT_OK ? 0 : chapter_fail(o, "permuting the tokens", status);
}

#define QUADRATIC_PAIRS 16 /* tokens whose pairs are checked one by one in Q5 */

/* largest |z^T B z - S[t][i]| over the pairs of the first QUADRATIC_PAIRS
 * tokens, z = [x_t; x_i], B = [0 M/2; M^T/2 0] (each costs (2d)^2) */
static double quadratic_form_gap(const example *m, const gsl_matrix *S, const gsl_matrix *B)
{
    size_t T = m->X->size1 < QUADRATIC_PAIRS ? m->X->size1 : QUADRATIC_PAIRS, d = m->X->size2;
    gsl_vector *z = gsl_vector_alloc(2 * d), *Bz = gsl_vector_alloc(2 * d);
    double worst = z && Bz ? 0.0 : NAN;
    for (size_t t = 0; t < T && z && Bz; t++)
        for (size_t i = 0; i < T; i++) {
            gsl_vector_view top = gsl_vector_subvector(z, 0, d), low = gsl_vector_subvector(z, d, d);
            gsl_matrix_get_row(&top.vector, m->X, t);
            gsl_matrix_get_row(&low.vector, m->X, i);
            double q;
            gsl_blas_dsymv(CblasLower, 1.0, B, z, 0.0, Bz);
            gsl_blas_ddot(z, Bz, &q);
            worst = fmax(worst, fabs(q - gsl_matrix_get(S, t, i)));
        }
    gsl_vector_free(z);
    gsl_vector_free(Bz);
    return worst;
}

/* Q5: every score is a quadratic form of the input. */
static int quadratic_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, d = m->X->size2;
    report_section(o, "A quadratic form of the input");
    report_text(o, "Before the softmax, the score x_L^T (W_q^T W_k) x_i is of degree two in the "
                   "input: stack the two tokens into z = [x_L; x_i] and it is z^T B z for the "
                   "symmetric 2d x 2d matrix B = [0, M/2; M^T/2, 0], M = W_q^T W_k. So scaling "
                   "every token by c scales every score by c^2.");
    gsl_matrix *B = gsl_matrix_calloc(2 * d, 2 * d), *S = gsl_matrix_alloc(T, T);
    gsl_matrix *S3 = gsl_matrix_alloc(T, T), *X3 = mat_clone(m->X);
    int status = B && S && S3 && X3 ? factor_scores(m->X, m->Wq, m->Wk, S) : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix_view upper = gsl_matrix_submatrix(B, 0, d, d, d);
        gsl_matrix_view lower = gsl_matrix_submatrix(B, d, 0, d, d);
        gsl_matrix_memcpy(&upper.matrix, m->A);
        gsl_matrix_transpose_memcpy(&lower.matrix, m->A);
        gsl_matrix_scale(B, 0.5);
        gsl_matrix_scale(X3, 3.0);
        status = factor_scores(X3, m->Wq, m->Wk, S3);
    }
    if (status == INVENT_OK) {
        check_at_most("Q5", "every score equals z^T B z, a quadratic form of the stacked input "
                            "(largest difference over the pairs of the first 16 tokens)", quadratic_form_gap(m, S, B),
                      1e-12);
        gsl_matrix_scale(S, 9.0);
        check_at_most("Q5", "scaling the input by 3 scales every score by 9 (relative error)",
                      mat_rel_error(S3, S), 1e-14);
    }
    gsl_matrix_free(B);
    gsl_matrix_free(S);
    gsl_matrix_free(S3);
    gsl_matrix_free(X3);
    return status == INVENT_OK ? 0 : chapter_fail(o, "computing the quadratic form", status);
}

/* Figure: the ledger's cache against r, with the single matrix for contrast. */
static void plot_cache_rank(const invent_opts *o)
{
    plot *p = plot_begin(o, "ch06_cache_rank");
    kvcache_shape k = LEDGER;
    uint64_t full = 0, thin = 0;
    kvcache_bytes(&k, &full);
    k.width = LEDGER_RANK;
    kvcache_bytes(&k, &thin);
    plot_set(p, "dim", (double)LEDGER.width);
    plot_set(p, "tokens", (double)LEDGER.tokens);
    plot_set(p, "layers", (double)LEDGER.layers);
    plot_set(p, "funcs", (double)LEDGER.funcs);
    plot_set(p, "bytes", (double)LEDGER.bytes_each);
    plot_set(p, "full_gb", full / 1e9);
    plot_set(p, "r0", (double)LEDGER_RANK);
    plot_set(p, "r0_gb", thin / 1e9);
    plot_block(p, "r  cache_GB_of_keys");
    for (uint64_t r = 1; r <= LEDGER.width; r++) {
        k.width = r;
        uint64_t bytes;
        if (kvcache_bytes(&k, &bytes) == INVENT_OK)
            PLOT_ROW(p, (double)r, bytes / 1e9);
    }
    plot_render(p, "ch06_cache_rank.gp");
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 32, .rank = 8, .tokens = 16};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 2, 256, "size d of a token (four SVDs of d x d matrices)"},
        {"rank", CLI_SIZE, &s.rank, 1, 256, "rows r of W_q and W_k (at most --dim)"},
        {"tokens", CLI_SIZE, &s.tokens, 2, 512, "tokens T in the examples"},
    };
    const cli_spec spec = {"ch06", "Chapter 6: factoring A into queries and keys, A = W_q^T W_k.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.rank > s.dim)
        return cli_fail(&o, "--rank (%zu) must not exceed --dim (%zu)", s.rank, s.dim);
    rc = chapter_start(&o, "Chapter 6: queries and keys by factoring");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *r = rng_new(o.seed);
    example m;
    if (!r || example_new(&s, r, &m) != INVENT_OK) {
        gsl_rng_free(r);
        return chapter_fail(&o, "creating the example", INVENT_ENOMEM);
    }
    if (dump_matrix(&o, "X", m.X) || dump_matrix(&o, "W_q", m.Wq) || dump_matrix(&o, "W_k", m.Wk))
        rc = CHAPTER_EXIT_RUNTIME;
    else
        rc = factored_section(&o, &m);
    if (rc == 0)
        rc = rank_section(&o, &m, r);
    if (rc == 0) {
        cost_section(&o, &s);
        plot_cache_rank(&o);
        rc = order_section(&o, &m, r);
    }
    if (rc == 0)
        rc = quadratic_section(&o, &m);
    example_free(&m);
    gsl_rng_free(r);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "The scores are in place, but nothing yet turns them into weights. The next "
                    "chapter normalises them over the positions with a softmax, and adds the "
                    "mask that keeps each token from looking ahead.");
    return chapter_end();
}
