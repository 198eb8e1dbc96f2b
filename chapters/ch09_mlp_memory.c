/* Chapter 9: the MLP as a key-value memory.
 *
 * Attention moves information between tokens. What it lacks is a way to
 * look something up that is stored in the weights themselves, whatever the
 * context. The position-wise MLP y = W2 f(W1 x) does exactly that: each
 * hidden unit compares the token with a key (a row of W1) and, if it
 * matches, writes a value (a column of W2) into the output (Geva et al.,
 * 2021). This chapter writes the MLP as that sum (claim M1), builds a memory
 * by hand from chosen pairs (M2), counts why W2 is needed (M3), and asks
 * whether W1 could be merged into attention's W_o: yes with a single skip
 * connection, no once a second skip and a normalisation sit between them
 * (M4).
 */
#include <math.h>
#include <stdlib.h>

#include "invent.h"

typedef struct {
    size_t dim;    /* d: width of the residual stream */
    size_t hidden; /* m: hidden units of the random MLP in M1, M3 and M4 */
    size_t pairs;  /* (key, value) pairs stored in the hand-built memory */
    size_t seq;    /* tokens in M1 and M4 */
    size_t heads;  /* attention heads in M4 */
} sizes;

/* A key must beat this dot product to switch its unit on (keys have length 1). */
static const double THRESHOLD = 0.5;

/* M1: f(X W1^T + b1) W2^T + b2 equals sum_i f(k_i . x + b1_i) v_i + b2 for every token. */
static int sum_form_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "An MLP is a sum over its hidden units");
    report_text(o, "Write the MLP's first matrix W1 (m x d) as m rows k_i and its second matrix "
                   "W2 (d x m) as m columns v_i. Then W2 f(W1 x + b1) is the sum over hidden "
                   "units of f(k_i . x + b1_i) v_i: unit i measures how well the token matches "
                   "its key, and adds its value in proportion. Here d = %zu, m = %zu, ReLU, "
                   "random weights and biases, %zu tokens.",
                s->dim, s->hidden, s->seq);
    mlp_weights *w = mlp_new(s->dim, s->hidden, MLP_RELU, rng);
    gsl_matrix *X = mat_gaussian(s->seq, s->dim, 1.0, rng);
    gsl_matrix *Y = gsl_matrix_alloc(s->seq, s->dim), *Ysum = gsl_matrix_alloc(s->seq, s->dim);
    int status = w && X && Y && Ysum ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix_view b1 = gsl_matrix_view_vector(w->b1, 1, s->hidden);
        gsl_matrix_view b2 = gsl_matrix_view_vector(w->b2, 1, s->dim);
        rng_fill_gaussian(&b1.matrix, rng, 0.5);
        rng_fill_gaussian(&b2.matrix, rng, 0.5);
        status = mlp_forward(w, X, NULL, Y);
    }
    for (size_t t = 0; t < s->seq && status == INVENT_OK; t++) {
        gsl_vector_view x = gsl_matrix_row(X, t), y = gsl_matrix_row(Ysum, t);
        status = mlp_memory_read(w, &x.vector, NULL, &y.vector);
    }
    if (status == INVENT_OK) {
        check_matrix_close("M1", "W2 f(W1 x + b1) + b2 equals the sum over hidden units of "
                           "f(k_i . x + b1_i) v_i, plus b2", Ysum, Y, 1e-12);
        const char *names[] = {"m1_X", "m1_W1", "m1_W2", "m1_Y"};
        const gsl_matrix *dumped[] = {X, w->W1, w->W2, Y};
        for (size_t i = 0; i < 4 && status == INVENT_OK; i++)
            status = dump_matrix(o, names[i], dumped[i]);
    }
    mlp_free(w);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    gsl_matrix_free(Ysum);
    return status;
}

/* The hand-built memory and what it answers. */
typedef struct {
    mlp_weights *w;  /* W1 rows: keys, b1 = -THRESHOLD, W2 columns: values / (1 - THRESHOLD) */
    gsl_matrix *keys;   /* (pairs, d): unit-length, orthogonal */
    gsl_matrix *values; /* (pairs, d) */
    gsl_matrix *probe;  /* (pairs + 1, d): the stored keys, then one unrelated input */
    gsl_matrix *acts;   /* (pairs + 1, pairs): hidden activations for each probe */
    gsl_matrix *recall; /* (pairs + 1, d): what the memory returns */
} memory;

static void memory_free(memory *mem)
{
    mlp_free(mem->w);
    gsl_matrix_free(mem->keys);
    gsl_matrix_free(mem->values);
    gsl_matrix_free(mem->probe);
    gsl_matrix_free(mem->acts);
    gsl_matrix_free(mem->recall);
}

/* keys from a random rotation, Gaussian values, a random unit vector as the unrelated probe */
static int memory_build(const sizes *s, gsl_rng *rng, memory *mem)
{
    size_t d = s->dim, n = s->pairs;
    gsl_matrix *R = gsl_matrix_alloc(d, d);
    *mem = (memory){mlp_new(d, n, MLP_RELU, rng), gsl_matrix_alloc(n, d),
                    mat_gaussian(n, d, 1.0 / sqrt((double)d), rng), mat_gaussian(n + 1, d, 1.0, rng),
                    gsl_matrix_alloc(n + 1, n), gsl_matrix_alloc(n + 1, d)};
    int status = R && mem->w && mem->keys && mem->values && mem->probe && mem->acts && mem->recall
                     ? mat_random_orthogonal(R, rng)
                     : INVENT_ENOMEM;
    if (status != INVENT_OK) {
        gsl_matrix_free(R);
        return status;
    }
    gsl_matrix_const_view rows = gsl_matrix_const_submatrix(R, 0, 0, n, d);
    gsl_matrix_memcpy(mem->keys, &rows.matrix);
    gsl_matrix_memcpy(mem->w->W1, mem->keys);
    gsl_vector_set_all(mem->w->b1, -THRESHOLD);
    gsl_matrix_transpose_memcpy(mem->w->W2, mem->values);
    gsl_matrix_scale(mem->w->W2, 1.0 / (1.0 - THRESHOLD));
    gsl_matrix_view stored = gsl_matrix_submatrix(mem->probe, 0, 0, n, d);
    gsl_matrix_memcpy(&stored.matrix, mem->keys);
    gsl_vector_view unrelated = gsl_matrix_row(mem->probe, n);
    gsl_vector_scale(&unrelated.vector, 1.0 / gsl_blas_dnrm2(&unrelated.vector));
    gsl_matrix_free(R);
    return INVENT_OK;
}

static int memory_ask(memory *mem)
{
    int status = INVENT_OK;
    for (size_t t = 0; t < mem->probe->size1 && status == INVENT_OK; t++) {
        gsl_vector_view x = gsl_matrix_row(mem->probe, t), h = gsl_matrix_row(mem->acts, t);
        gsl_vector_view y = gsl_matrix_row(mem->recall, t);
        status = mlp_memory_read(mem->w, &x.vector, &h.vector, &y.vector);
    }
    return status;
}

/* -> ||row t of A|| */
static double row_norm(const gsl_matrix *A, size_t t)
{
    gsl_vector_const_view row = gsl_matrix_const_row(A, t);
    return gsl_blas_dnrm2(&row.vector);
}

static void check_memory(const invent_opts *o, const memory *mem)
{
    size_t n = mem->keys->size1;
    gsl_matrix_const_view answers = gsl_matrix_const_submatrix(mem->recall, 0, 0, n,
                                                               mem->recall->size2);
    double worst = mat_rel_error(&answers.matrix, mem->values), typical = 0.0;
    for (size_t t = 0; t < n; t++)
        typical += row_norm(mem->values, t) / (double)n;
    double quiet = row_norm(mem->recall, n) / typical;
    report_line(o, "  relative recall error over the %zu stored keys: %.3g", n, worst);
    report_line(o, "  unrelated input: |output| / typical |value| = %.3g", quiet);
    check_at_most("M2", "each stored key recalls its own value (relative error over all pairs)",
                  worst, 1e-12);
    check_at_most("M2", "an unrelated input gets little back (|output| / typical |value|)", quiet,
                  0.1);
}

static void plot_memory(const invent_opts *o, const memory *mem)
{
    size_t n = mem->keys->size1, d = mem->keys->size2;
    gsl_matrix *match = mat_product(mem->probe, CblasNoTrans, mem->keys, CblasTrans);
    plot *p = match ? plot_begin(o, "ch09_memory") : NULL;
    plot_set(p, "pairs", (double)n);
    plot_set(p, "threshold", THRESHOLD);
    plot_set(p, "quiet_norm", row_norm(mem->recall, n));
    plot_block(p, "probe  match_k_1.x .. match_k_pairs.x  (activation = max(0, match - threshold))");
    double row[65];
    for (size_t t = 0; p && t <= n; t++) {
        row[0] = (double)(t + 1);
        for (size_t i = 0; i < n; i++)
            row[i + 1] = gsl_matrix_get(match, t, i);
        plot_row(p, row, n + 1);
    }
    plot_block(p, "stored_value_coordinate  recalled_coordinate");
    for (size_t t = 0; p && t < n; t++)
        for (size_t i = 0; i < d; i++)
            PLOT_ROW(p, gsl_matrix_get(mem->values, t, i), gsl_matrix_get(mem->recall, t, i));
    plot_render(p, "ch09_memory.gp");
    gsl_matrix_free(match);
}

/* M2: a memory built from chosen (key, value) pairs. */
static int memory_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "A memory built by hand");
    report_text(o, "Read that way, an MLP can be written down directly. Choose %zu keys of length "
                   "1 that are orthogonal to each other, and a value for each. Unit i gets key "
                   "k_i as its row of W1 and the bias -%.2g, so it switches on only when the "
                   "input matches k_i better than %.2g; its column of W2 is v_i / (1 - %.2g), "
                   "so that a perfect match writes exactly v_i. A random unit vector plays the "
                   "unrelated input: in d = %zu dimensions it matches no key well.",
                s->pairs, THRESHOLD, THRESHOLD, THRESHOLD, s->dim);
    memory mem;
    int status = memory_build(s, rng, &mem);
    if (status == INVENT_OK)
        status = memory_ask(&mem);
    if (status == INVENT_OK) {
        check_memory(o, &mem);
        plot_memory(o, &mem);
        status = dump_matrix(o, "memory_keys", mem.keys);
        if (status == INVENT_OK)
            status = dump_matrix(o, "memory_values", mem.values);
        if (status == INVENT_OK)
            status = dump_matrix(o, "memory_recall", mem.recall);
    }
    memory_free(&mem);
    return status;
}

/* m units, each writing one of d coordinates: hand out free coordinates one unit at a
 * time -> *own (units that got a coordinate of their own), *shared (units left over) */
static int assign_coordinates(size_t m, size_t d, size_t *own, size_t *shared)
{
    unsigned char *taken = calloc(d, 1);
    if (!taken)
        return INVENT_ENOMEM;
    *own = *shared = 0;
    for (size_t unit = 0; unit < m; unit++) {
        size_t c = 0;
        while (c < d && taken[c])
            c++;
        if (c < d) {
            taken[c] = 1;
            (*own)++;
        } else {
            (*shared)++;
        }
    }
    free(taken);
    return INVENT_OK;
}

/* v: (d) -> the relative error of the best multiple of one coordinate direction */
static double best_single_coordinate(const gsl_vector *v)
{
    double norm = gsl_blas_dnrm2(v), top = 0.0;
    for (size_t i = 0; i < v->size; i++)
        top = fmax(top, fabs(gsl_vector_get(v, i)));
    return sqrt(fmax(0.0, 1.0 - (top / norm) * (top / norm)));
}

/* M3: without W2, unit i can only write one coordinate. */
static int counting_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "Why the memory needs W2");
    size_t own = 0, shared = 0;
    uint64_t params = 0;
    int status = assign_coordinates(s->hidden, s->dim, &own, &shared);
    if (status == INVENT_OK)
        status = count_mul(s->dim, s->hidden, &params);
    if (status != INVENT_OK)
        return status;
    report_text(o, "Drop W2 and let each hidden unit write straight into the residual stream: "
                   "unit i can then only add to one coordinate of the d = %zu. Handing out the "
                   "coordinates one unit at a time, %zu of the m = %zu units get one of their "
                   "own and %zu are left to share: with more units than coordinates no "
                   "one-to-one map exists. W2, with its d * m = %llu entries, lets each unit "
                   "write a direction of its own.",
                s->dim, own, s->hidden, shared, (unsigned long long)params);
    check_equal("M3", "with m > d units, m - d of them cannot have a coordinate of their own "
                "(counted)", shared, s->hidden - s->dim);
    gsl_matrix *v = mat_gaussian(1, s->dim, 1.0, rng);
    if (!v)
        return INVENT_ENOMEM;
    gsl_vector_view value = gsl_matrix_row(v, 0);
    double err = best_single_coordinate(&value.vector);
    report_line(o, "  a random value, written by one unit without W2: relative error %.3g", err);
    check_at_least("M3", "a value that is not a coordinate direction cannot be written by one "
                   "unit (best relative error)", err, 0.5);
    gsl_matrix_free(v);
    return INVENT_OK;
}

/* X: (T, d), C: (T, d) concatenated head outputs -> out: (T, m), what W1 computes */
typedef int (*stream_fn)(const mlp_weights *w, const gsl_matrix *Wo, const gsl_matrix *X,
                         const gsl_matrix *C, gsl_matrix *out);

/* W1 LN(X + C W_o^T): what the MLP's first matrix sees after a skip and a norm */
static int through_norm(const mlp_weights *w, const gsl_matrix *Wo, const gsl_matrix *X,
                        const gsl_matrix *C, gsl_matrix *out)
{
    gsl_matrix *R = mat_product(C, CblasNoTrans, Wo, CblasTrans);
    gsl_vector *gamma = gsl_vector_alloc(X->size2), *beta = gsl_vector_calloc(X->size2);
    int status = R && gamma && beta ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_vector_set_all(gamma, 1.0);
        gsl_matrix_add(R, X);
        status = layernorm_forward(R, gamma, beta, 1e-5, R, NULL, NULL);
    }
    if (status == INVENT_OK)
        status = mat_mul(R, CblasNoTrans, w->W1, CblasTrans, out);
    gsl_matrix_free(R);
    gsl_vector_free(gamma);
    gsl_vector_free(beta);
    return status;
}

/* W1 (X + C W_o^T): a second skip, but no norm */
static int skip_only(const mlp_weights *w, const gsl_matrix *Wo, const gsl_matrix *X,
                     const gsl_matrix *C, gsl_matrix *out)
{
    gsl_matrix *R = mat_product(C, CblasNoTrans, Wo, CblasTrans);
    if (!R)
        return INVENT_ENOMEM;
    gsl_matrix_add(R, X);
    int status = mat_mul(R, CblasNoTrans, w->W1, CblasTrans, out);
    gsl_matrix_free(R);
    return status;
}

/* the second difference of g along C1, C2, for every token and unit:
 * -> *gap = max |g(C1 + C2) - g(C1) - g(C2) + g(0)| / (range of g(C1)); zero for any g
 * that is a function of X plus a matrix times C */
static int second_difference(stream_fn g, const mlp_weights *w, const gsl_matrix *Wo,
                             const gsl_matrix *X, const gsl_matrix *C1, const gsl_matrix *C2,
                             double *gap)
{
    size_t T = X->size1, m = w->W1->size1;
    gsl_matrix *sum = mat_clone(C1), *zero = gsl_matrix_calloc(C1->size1, C1->size2);
    gsl_matrix *g12 = gsl_matrix_alloc(T, m), *g1 = gsl_matrix_alloc(T, m);
    gsl_matrix *g2 = gsl_matrix_alloc(T, m), *g0 = gsl_matrix_alloc(T, m);
    int status = sum && zero && g12 && g1 && g2 && g0 ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix_add(sum, C2);
        const gsl_matrix *in[] = {sum, C1, C2, zero};
        gsl_matrix *out[] = {g12, g1, g2, g0};
        for (size_t i = 0; i < 4 && status == INVENT_OK; i++)
            status = g(w, Wo, X, in[i], out[i]);
    }
    if (status == INVENT_OK) {
        double scale = gsl_matrix_max(g1) - gsl_matrix_min(g1);
        gsl_matrix_sub(g12, g1);
        gsl_matrix_sub(g12, g2);
        gsl_matrix_add(g12, g0);
        *gap = fmax(gsl_matrix_max(g12), -gsl_matrix_min(g12)) / scale;
    }
    gsl_matrix_free(sum);
    gsl_matrix_free(zero);
    gsl_matrix_free(g12);
    gsl_matrix_free(g1);
    gsl_matrix_free(g2);
    gsl_matrix_free(g0);
    return status;
}

/* the attention part of M4: X, two different concatenated head outputs C1, C2 */
typedef struct {
    mha_weights *attn;
    mlp_weights *mlp;
    gsl_matrix *X, *X2;  /* (T, d): the tokens, and a second context */
    mha_trace *tr, *tr2; /* C1 = tr->C, C2 = tr2->C: (T, d) */
} absorb_setup;

static void absorb_free(absorb_setup *a)
{
    mha_free(a->attn);
    mlp_free(a->mlp);
    gsl_matrix_free(a->X);
    gsl_matrix_free(a->X2);
    mha_trace_free(a->tr);
    mha_trace_free(a->tr2);
}

static int absorb_build(const sizes *s, gsl_rng *rng, absorb_setup *a)
{
    size_t d = s->dim, r = d / s->heads;
    *a = (absorb_setup){mha_new(d, s->heads, r, r, rng), mlp_new(d, s->hidden, MLP_RELU, rng),
                        mat_gaussian(s->seq, d, 1.0, rng), mat_gaussian(s->seq, d, 1.0, rng),
                        NULL, NULL};
    if (!a->attn || !a->mlp || !a->X || !a->X2)
        return INVENT_ENOMEM;
    a->tr = mha_trace_new(s->seq, a->attn);
    a->tr2 = mha_trace_new(s->seq, a->attn);
    gsl_matrix *out = gsl_matrix_alloc(s->seq, d);
    int status = a->tr && a->tr2 && out ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = mha_forward(a->attn, a->X, ATTN_CAUSAL, a->tr, out);
    if (status == INVENT_OK)
        status = mha_forward(a->attn, a->X2, ATTN_CAUSAL, a->tr2, out);
    gsl_matrix_free(out);
    return status;
}

/* single skip: X + MLP(C W_o^T) against X + MLP'(C) with W1' = W1 W_o -> max difference */
static int single_skip(const absorb_setup *a, double *diff)
{
    const gsl_matrix *C = a->tr->C;
    size_t T = C->size1, d = a->X->size2;
    mlp_weights merged = *a->mlp;
    merged.W1 = mat_product(a->mlp->W1, CblasNoTrans, a->attn->Wo, CblasNoTrans);
    gsl_matrix *attn = mat_product(C, CblasNoTrans, a->attn->Wo, CblasTrans);
    gsl_matrix *y = gsl_matrix_alloc(T, d), *y2 = gsl_matrix_alloc(T, d);
    int status = merged.W1 && attn && y && y2 ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = mlp_forward(a->mlp, attn, NULL, y);
    if (status == INVENT_OK)
        status = mlp_forward(&merged, C, NULL, y2);
    if (status == INVENT_OK) {
        gsl_matrix_add(y, a->X); /* the one skip: around attention and MLP together */
        gsl_matrix_add(y2, a->X);
        *diff = mat_max_abs_diff(y, y2);
    }
    gsl_matrix_free(merged.W1);
    gsl_matrix_free(attn);
    gsl_matrix_free(y);
    gsl_matrix_free(y2);
    return status;
}

/* M4: W1 merges into W_o with one skip, not with a second skip and a norm between. */
static int absorption_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "Could W1 be merged into attention's W_o?");
    report_text(o, "Attention ends with W_o and the MLP starts with W1: two matrices in a row. "
                   "If the only skip connection runs around attention and MLP together, "
                   "x + W2 f(W1 W_o c), where c holds the concatenated head outputs, then "
                   "W1 W_o is one matrix and W_o can go. The Transformer instead adds the "
                   "attention output to the stream and normalises before the MLP: W1 sees "
                   "LN(x + W_o c). Anything of the merged form, a function of x plus a matrix "
                   "times c, has zero second difference in c: g(c1 + c2) - g(c1) - g(c2) + "
                   "g(0) = 0. So one counterexample with a clearly non-zero second difference "
                   "rules out every merged matrix at once. The skip alone is not the obstacle: "
                   "W1 (x + W_o c) is still W1 x plus (W1 W_o) c. The norm is, because it "
                   "divides by the spread of the whole sum x + W_o c.");
    absorb_setup a;
    double merged = NAN, norm_gap = NAN, skip_gap = NAN;
    int status = absorb_build(s, rng, &a);
    if (status == INVENT_OK)
        status = single_skip(&a, &merged);
    if (status == INVENT_OK)
        status = second_difference(through_norm, a.mlp, a.attn->Wo, a.X, a.tr->C, a.tr2->C,
                                   &norm_gap);
    if (status == INVENT_OK)
        status = second_difference(skip_only, a.mlp, a.attn->Wo, a.X, a.tr->C, a.tr2->C,
                                   &skip_gap);
    if (status == INVENT_OK) {
        report_line(o, "  second difference, relative: %.3g with the norm, %.3g without it",
                    norm_gap, skip_gap);
        check_at_most("M4", "with a single skip, W1 W_o merged into one matrix gives the same "
                      "outputs (largest difference)", merged, 1e-12);
        check_at_least("M4", "with a second skip and a norm between, W1 LN(x + W_o c) has a "
                       "non-zero second difference in c: no merged matrix can match it",
                       norm_gap, 1e-2);
        check_at_most("M4", "the norm is what blocks it: with the second skip alone the second "
                      "difference vanishes", skip_gap, 1e-12);
    }
    absorb_free(&a);
    return status;
}

static int run(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    int status = sum_form_section(o, s, rng);
    if (status == INVENT_OK)
        status = memory_section(o, s, rng);
    if (status == INVENT_OK)
        status = counting_section(o, s, rng);
    if (status == INVENT_OK)
        status = absorption_section(o, s, rng);
    if (status == INVENT_EIO) /* only dump_matrix fails so, and it has said where */
        return CHAPTER_EXIT_RUNTIME;
    return status == INVENT_OK ? 0 : chapter_fail(o, "computing the MLP", status);
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 32, .hidden = 128, .pairs = 6, .seq = 6, .heads = 4};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 32, 512, "width d of the residual stream"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 4096, "hidden units m of the random MLP (m > d)"},
        {"pairs", CLI_SIZE, &s.pairs, 1, 64, "(key, value) pairs in the hand-built memory"},
        {"seq", CLI_SIZE, &s.seq, 1, 512, "tokens T (--seq * --hidden * --dim at most 2^28)"},
        {"heads", CLI_SIZE, &s.heads, 1, 64, "attention heads H in M4 (must divide d)"},
    };
    const cli_spec spec = {"ch09", "Chapter 9: the MLP as a key-value memory.", options,
                           (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.dim % s.heads != 0)
        return cli_fail(&o, "--heads (%zu) must divide --dim (%zu)", s.heads, s.dim);
    if (s.hidden <= s.dim)
        return cli_fail(&o, "--hidden (%zu) must exceed --dim (%zu): the counting argument is "
                            "about more units than coordinates", s.hidden, s.dim);
    if ((double)s.seq * (double)s.hidden * (double)s.dim > (double)(1u << 28))
        return cli_fail(&o, "--seq * --hidden * --dim must be at most 2^28 (keeps the run to a "
                            "few seconds), got %.0f", (double)s.seq * (double)s.hidden * (double)s.dim);
    if (s.pairs > s.dim / 4)
        return cli_fail(&o, "--pairs (%zu) must be at most --dim / 4 (%zu), so that a random "
                            "input stays unrelated to every key", s.pairs, s.dim / 4);
    rc = chapter_start(&o, "Chapter 9: the MLP as a key-value memory");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *rng = rng_new(o.seed);
    if (!rng)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    rc = run(&o, &s, rng);
    gsl_rng_free(rng);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "Attention reads from other tokens, the MLP reads from its own weights, "
                    "skips keep the stream, and the norm keeps it in range. Chapter 10 puts "
                    "these pieces together into one block and checks it against the standard "
                    "formulation.");
    return chapter_end();
}
