/* Chapter 9: the MLP as a key-value memory.
 *
 * Attention moves information between tokens. What it lacks is a way to
 * look something up that is stored in the weights themselves, whatever the
 * context. The position-wise MLP y = W2 f(W1 x) does exactly that: each
 * hidden unit compares the token with a key (a row of W1) and, if it
 * matches, writes a value (a column of W2) into the output (Geva et al.,
 * 2021). This chapter writes the MLP as that sum (claim M1), builds a memory
 * by hand from chosen pairs (M2), shows why W2 is needed: without it the
 * best memory misses every value that is not a coordinate direction (M3),
 * and asks whether W1 could be merged into attention's W_o (M4): with one
 * skip around both sublayers it can; a second skip means W1 x must still be
 * computed, so W1 cannot be dropped; a norm between them, with or without
 * the second skip, stops even the product W1 W_o from merging.
 */
#include <math.h>

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

/* Random unit vectors that play the unrelated input (the claim is about their mean). */
#define UNRELATED 64

/* Set when a --dump file could not be written (dump_matrix has said which). */
static int dump_failed;

/* M1: f(X W1^T + b1) W2^T + b2 equals sum_i f(k_i . x + b1_i) v_i + b2 for every token. */
static void sum_form_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "An MLP is a sum over its hidden units");
    report_text(o, "Write the MLP's first matrix W1 (m x d) as m rows k_i and its second matrix "
                   "W2 (d x m) as m columns v_i. Then W2 f(W1 x + b1) is the sum over hidden "
                   "units of f(k_i . x + b1_i) v_i: unit i measures how well the token matches "
                   "its key, and adds its value in proportion. Geva et al. (2021) read the "
                   "MLPs of trained Transformers this way, as key-value memories whose keys "
                   "match patterns in the input. Here d = %zu, m = %zu, ReLU, random weights "
                   "and biases, %zu tokens.",
                s->dim, s->hidden, s->seq);
    scope *sc = scope_open();
    mlp_weights *w = SCOPE_KEEP(sc, mlp_new(s->dim, s->hidden, MLP_RELU, rng), mlp_free);
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(s->seq, s->dim, 1.0, rng));
    gsl_matrix *Y = scope_matrix(sc, s->seq, s->dim), *Ysum = scope_matrix(sc, s->seq, s->dim);
    gsl_matrix *Ylin = scope_matrix(sc, s->seq, s->dim);
    mlp_trace *tr = SCOPE_KEEP(sc, mlp_trace_new(s->seq, w), mlp_trace_free);
    gsl_matrix_view b1 = gsl_matrix_view_vector(w->b1, 1, s->hidden);
    gsl_matrix_view b2 = gsl_matrix_view_vector(w->b2, 1, s->dim);
    rng_fill_gaussian(&b1.matrix, rng, 0.5);
    rng_fill_gaussian(&b2.matrix, rng, 0.5);
    chapter_must(mlp_forward(w, X, tr, Y), "the MLP");
    mlp_weights linear = *w; /* the same keys and values, f left out */
    linear.f = MLP_IDENTITY;
    for (size_t t = 0; t < s->seq; t++) {
        gsl_vector_view x = gsl_matrix_row(X, t), y = gsl_matrix_row(Ysum, t);
        gsl_vector_view ylin = gsl_matrix_row(Ylin, t);
        chapter_must(mlp_memory_read(w, &x.vector, NULL, &y.vector), "the sum over units");
        chapter_must(mlp_memory_read(&linear, &x.vector, NULL, &ylin.vector), "the sum over units");
    }
    check_matrix_close("M1", "W2 f(W1 x + b1) + b2 equals the sum over hidden units of "
                       "f(k_i . x + b1_i) v_i, plus b2", Ysum, Y, 1e-12);
    check_control("M1", "the sum over units with f left out: (k_i . x + b1_i) v_i");
    check_matrix_close("M1", NULL, Ylin, Y, 1e-12);
    dump_failed = dump_matrix(o, "m1_X", X) || dump_matrix(o, "m1_W1", w->W1) ||
                  dump_matrix(o, "m1_W2", w->W2) || dump_matrix(o, "m1_Y", Y);
    scope_close(sc);
}

/* keys: (n, d) unit rows, values: (n, d) -> an MLP whose unit i has key k_i, bias
 * -THRESHOLD and value v_i / (1 - THRESHOLD), so that a perfect match writes v_i */
static mlp_weights *memory_build(scope *sc, const gsl_matrix *keys, const gsl_matrix *values,
                                 gsl_rng *rng)
{
    mlp_weights *w = SCOPE_KEEP(sc, mlp_new(keys->size2, keys->size1, MLP_RELU, rng), mlp_free);
    gsl_matrix_memcpy(w->W1, keys);
    gsl_vector_set_all(w->b1, -THRESHOLD);
    gsl_matrix_transpose_memcpy(w->W2, values);
    gsl_matrix_scale(w->W2, 1.0 / (1.0 - THRESHOLD));
    return w;
}

/* probe: (P, d) -> recall: (P, d), what the memory returns for each row */
static void memory_ask(const mlp_weights *w, const gsl_matrix *probe, gsl_matrix *recall)
{
    for (size_t t = 0; t < probe->size1; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(probe, t);
        gsl_vector_view y = gsl_matrix_row(recall, t);
        chapter_must(mlp_memory_read(w, &x.vector, NULL, &y.vector), "reading the memory");
    }
}

/* -> ||row t of A|| */
static double row_norm(const gsl_matrix *A, size_t t)
{
    gsl_vector_const_view row = gsl_matrix_const_row(A, t);
    return gsl_blas_dnrm2(&row.vector);
}

/* -> the mean norm of the rows of A */
static double mean_row_norm(const gsl_matrix *A)
{
    double total = 0.0;
    for (size_t t = 0; t < A->size1; t++)
        total += row_norm(A, t) / (double)A->size1;
    return total;
}

static void plot_memory(const invent_opts *o, const gsl_matrix *keys, const gsl_matrix *probe,
                        const gsl_matrix *values, const gsl_matrix *recall, double quiet)
{
    size_t n = keys->size1, d = keys->size2;
    scope *sc = scope_open();
    gsl_matrix *match = scope_keep_matrix(sc, mat_product(probe, CblasNoTrans, keys, CblasTrans));
    plot *p = plot_begin(o, "ch09_memory");
    plot_set(p, "pairs", (double)n);
    plot_set(p, "threshold", THRESHOLD);
    plot_set(p, "quiet_norm", quiet);
    plot_block(p, "probe  match_k_1.x .. match_k_pairs.x  (activation = max(0, match - threshold))");
    double row[65];
    for (size_t t = 0; t < probe->size1; t++) {
        row[0] = (double)(t + 1);
        for (size_t i = 0; i < n; i++)
            row[i + 1] = gsl_matrix_get(match, t, i);
        plot_row(p, row, n + 1);
    }
    plot_block(p, "stored_value_coordinate  recalled_coordinate");
    for (size_t t = 0; t < n; t++)
        for (size_t i = 0; i < d; i++)
            PLOT_ROW(p, gsl_matrix_get(values, t, i), gsl_matrix_get(recall, t, i));
    plot_render(p, "ch09_memory.gp");
    scope_close(sc);
}

/* R: (d, d) orthogonal -> keys: (n, d) rows (k_i + 2 u) / sqrt(5), k_i = row i of R and
 * u = row n: unit length, cosine 0.8 with each other (the control of M2) */
static void overlapping_keys(const gsl_matrix *R, gsl_matrix *keys)
{
    gsl_vector_const_view u = gsl_matrix_const_row(R, keys->size1);
    for (size_t i = 0; i < keys->size1; i++) {
        gsl_vector_view row = gsl_matrix_row(keys, i);
        gsl_vector_const_view k = gsl_matrix_const_row(R, i);
        gsl_vector_memcpy(&row.vector, &u.vector);
        gsl_vector_scale(&row.vector, 2.0);
        gsl_vector_add(&row.vector, &k.vector);
        gsl_vector_scale(&row.vector, 1.0 / sqrt(5.0));
    }
}

/* M2: a memory built from chosen (key, value) pairs. */
static void memory_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    size_t d = s->dim, n = s->pairs;
    report_section(o, "A memory built by hand");
    report_text(o, "Read that way, an MLP can be written down directly. Choose %zu keys of length "
                   "1 that are orthogonal to each other, and a value for each. Unit i gets key "
                   "k_i as its row of W1 and the bias -%.2g, so it switches on only when the "
                   "input matches k_i better than %.2g; its column of W2 is v_i / (1 - %.2g), "
                   "so that a perfect match writes exactly v_i. Random unit vectors play the "
                   "unrelated inputs: in d = %zu dimensions they rarely match any key well.",
                n, THRESHOLD, THRESHOLD, THRESHOLD, d);
    scope *sc = scope_open();
    gsl_matrix *R = scope_matrix(sc, d, d);
    chapter_must(mat_random_orthogonal(R, rng), "a random rotation");
    gsl_matrix_view keys = gsl_matrix_submatrix(R, 0, 0, n, d);
    gsl_matrix *values = scope_keep_matrix(sc, mat_gaussian(n, d, 1.0 / sqrt((double)d), rng));
    gsl_matrix *probe = scope_keep_matrix(sc, mat_gaussian(n + UNRELATED, d, 1.0, rng));
    gsl_matrix *recall = scope_matrix(sc, n + UNRELATED, d), *mixed = scope_matrix(sc, n, d);
    gsl_matrix_view stored = gsl_matrix_submatrix(probe, 0, 0, n, d);
    gsl_matrix_memcpy(&stored.matrix, &keys.matrix); /* the stored keys, then unrelated inputs */
    for (size_t t = n; t < n + UNRELATED; t++) {
        gsl_vector_view x = gsl_matrix_row(probe, t);
        gsl_vector_scale(&x.vector, 1.0 / gsl_blas_dnrm2(&x.vector));
    }
    memory_ask(memory_build(sc, &keys.matrix, values, rng), probe, recall);
    gsl_matrix *overlap = scope_matrix(sc, n, d);
    overlapping_keys(R, overlap);
    memory_ask(memory_build(sc, overlap, values, rng), overlap, mixed);
    gsl_matrix_const_view answers = gsl_matrix_const_submatrix(recall, 0, 0, n, d);
    gsl_matrix_const_view others = gsl_matrix_const_submatrix(recall, n, 0, UNRELATED, d);
    double worst = mat_rel_error(&answers.matrix, values), typical = mean_row_norm(values);
    double quiet = mean_row_norm(&others.matrix) / typical;
    report_line(o, "  relative recall error over the %zu stored keys: %.3g", n, worst);
    report_line(o, "  %d unrelated inputs: mean |output| / typical |value| = %.3g", UNRELATED,
                quiet);
    check_at_most("M2", "each stored key recalls its own value (relative error over all pairs)",
                  worst, 1e-12);
    check_control("M2", "keys that overlap, cosine 0.8, instead of orthogonal keys");
    check_at_most("M2", NULL, mat_rel_error(mixed, values), 1e-12);
    check_at_most("M2", "an unrelated input gets little back (mean |output| / typical |value| "
                  "over random unit vectors)", quiet, 0.1);
    check_control("M2", "the probes are the stored keys, not unrelated inputs");
    check_at_most("M2", NULL, mean_row_norm(&answers.matrix) / typical, 0.1);
    gsl_matrix_const_view shown = gsl_matrix_const_submatrix(probe, 0, 0, n + 1, d);
    plot_memory(o, &keys.matrix, &shown.matrix, values, recall, row_norm(recall, n));
    dump_failed = dump_failed || dump_matrix(o, "memory_keys", &keys.matrix) ||
                  dump_matrix(o, "memory_values", values) ||
                  dump_matrix(o, "memory_recall", recall);
    scope_close(sc);
}

/* values: (n, d) -> coordinate: (n, d), row i the best multiple of one coordinate
 * direction for v_i, its largest entry kept and the others zeroed: what a unit
 * without W2, wired to one coordinate, can write best */
static void best_coordinates(const gsl_matrix *values, gsl_matrix *coordinate)
{
    gsl_matrix_set_zero(coordinate);
    for (size_t i = 0; i < values->size1; i++) {
        gsl_vector_const_view v = gsl_matrix_const_row(values, i);
        size_t top = gsl_blas_idamax(&v.vector);
        gsl_matrix_set(coordinate, i, top, gsl_vector_get(&v.vector, top));
    }
}

/* keys: (n, d), values: (n, d) the pairs, written: (n, d) what each unit writes
 * on a perfect match -> the relative error over all pairs of what the memory
 * built with those columns of W2 recalls for the stored keys */
static double stored_recall_error(const gsl_matrix *keys, const gsl_matrix *values,
                           const gsl_matrix *written, gsl_rng *rng)
{
    scope *sc = scope_open();
    gsl_matrix *recall = scope_matrix(sc, keys->size1, keys->size2);
    memory_ask(memory_build(sc, keys, written, rng), keys, recall);
    double err = mat_rel_error(recall, values);
    scope_close(sc);
    return err;
}

/* M3: without W2, unit i can only write one coordinate. */
static void counting_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    size_t d = s->dim, m = s->hidden, n = s->pairs;
    report_section(o, "Why the memory needs W2");
    report_text(o, "Drop W2 and let each hidden unit write straight into the residual stream: "
                   "unit i can then only add to one coordinate of the d = %zu. With m = %zu "
                   "units, at least m - d = %zu write a coordinate that another unit writes "
                   "too (the pigeonhole principle; a count, not a measurement). What it costs "
                   "is measured: build a memory as in the previous section, with %zu random "
                   "values, and give each unit the best it can write without W2, the multiple "
                   "of one coordinate direction nearest its value (its largest entry, the rest "
                   "zero). With W2 its column is the value itself.", d, m, m - d, n);
    scope *sc = scope_open();
    gsl_matrix *R = scope_matrix(sc, d, d);
    chapter_must(mat_random_orthogonal(R, rng), "a random rotation");
    gsl_matrix_view keys = gsl_matrix_submatrix(R, 0, 0, n, d);
    gsl_matrix *values = scope_keep_matrix(sc, mat_gaussian(n, d, 1.0 / sqrt((double)d), rng));
    gsl_matrix *coordinate = scope_matrix(sc, n, d);
    best_coordinates(values, coordinate);
    double without = stored_recall_error(&keys.matrix, values, coordinate, rng);
    double with = stored_recall_error(&keys.matrix, values, values, rng);
    report_line(o, "  relative recall error over the %zu stored keys: %.3g without W2, %.3g "
                   "with it", n, without, with);
    check_at_least("M3", "without W2, the best memory misses values that are not coordinate "
                   "directions (relative recall error)", without, 0.5);
    check_control("M3", "the same memory with W2, each unit's column its value");
    check_at_least("M3", NULL, with, 0.5);
    check_at_most("M3", "with W2 the same memory writes every value (relative recall error)",
                  with, 1e-12);
    check_control("M3", "the same memory without W2, each unit writing one coordinate");
    check_at_most("M3", NULL, without, 1e-12);
    report_text(o, "Without W2, a value with d non-zero entries would take d units, one per "
                   "entry, all matching the same key; W2, with its d * m entries, lets one "
                   "unit write any direction.");
    scope_close(sc);
}

/* The attention part of M4: weights, an MLP, and two contexts. */
typedef struct {
    mha_weights *attn;
    mlp_weights *mlp;
    gsl_matrix *X;      /* (T, d): the tokens */
    gsl_matrix *C1, *C2; /* (T, d): concatenated head outputs of X and of a second context */
} absorb_setup;

static void absorb_build(scope *sc, const sizes *s, gsl_rng *rng, absorb_setup *a)
{
    size_t d = s->dim, r = d / s->heads, T = s->seq;
    a->attn = SCOPE_KEEP(sc, mha_new(d, s->heads, r, r, rng), mha_free);
    a->mlp = SCOPE_KEEP(sc, mlp_new(d, s->hidden, MLP_RELU, rng), mlp_free);
    a->X = scope_keep_matrix(sc, mat_gaussian(T, d, 1.0, rng));
    gsl_matrix *X2 = scope_keep_matrix(sc, mat_gaussian(T, d, 1.0, rng));
    gsl_matrix *out = scope_matrix(sc, T, d);
    mha_trace *tr = SCOPE_KEEP(sc, mha_trace_new(T, a->attn), mha_trace_free);
    mha_trace *tr2 = SCOPE_KEEP(sc, mha_trace_new(T, a->attn), mha_trace_free);
    chapter_must(mha_forward(a->attn, a->X, ATTN_CAUSAL, tr, out), "multi-head attention");
    chapter_must(mha_forward(a->attn, X2, ATTN_CAUSAL, tr2, out), "multi-head attention");
    a->C1 = tr->C;
    a->C2 = tr2->C;
}

/* The MLP part after attention, MLP(W_o c) with one skip around both sublayers, or
 * MLP(x + W_o c) with a second skip (second != 0), against the merged MLP'(c) with
 * W1' = W1 W_o and no W1 of its own -> ||difference||_F / ||MLP part||_F. (The skip
 * around both adds x to both sides and cancels.) */
static double merged_difference(const absorb_setup *a, int second)
{
    scope *sc = scope_open();
    size_t T = a->X->size1, d = a->X->size2;
    mlp_weights merged = *a->mlp;
    merged.W1 = scope_keep_matrix(sc, mat_product(a->mlp->W1, CblasNoTrans, a->attn->Wo,
                                                  CblasNoTrans));
    gsl_matrix *in = scope_keep_matrix(sc, mat_product(a->C1, CblasNoTrans, a->attn->Wo,
                                                       CblasTrans));
    gsl_matrix *y = scope_matrix(sc, T, d), *y2 = scope_matrix(sc, T, d);
    mlp_trace *tr = SCOPE_KEEP(sc, mlp_trace_new(T, a->mlp), mlp_trace_free);
    if (second)
        gsl_matrix_add(in, a->X);
    chapter_must(mlp_forward(a->mlp, in, tr, y), "the MLP");
    chapter_must(mlp_forward(&merged, a->C1, tr, y2), "the merged MLP");
    double diff = mat_rel_error(y2, y);
    scope_close(sc);
    return diff;
}

/* X: (T, d), C: (T, d) concatenated head outputs -> out: (T, m), what W1 computes
 * from W_o c, after a second skip (skip != 0: x + W_o c) or not, with a norm
 * between (norm != 0) or without */
static void first_layer_input(const absorb_setup *a, const gsl_matrix *C, int skip, int norm,
                              gsl_matrix *out)
{
    scope *sc = scope_open();
    size_t d = a->X->size2;
    gsl_matrix *R = scope_keep_matrix(sc, mat_product(C, CblasNoTrans, a->attn->Wo, CblasTrans));
    gsl_vector *gamma = scope_vector(sc, d), *beta = scope_vector(sc, d);
    gsl_vector_set_all(gamma, 1.0);
    if (skip)
        gsl_matrix_add(R, a->X);
    if (norm)
        chapter_must(layernorm_forward(R, gamma, beta, 1e-5, R, NULL, NULL), "layer norm");
    chapter_must(mat_mul(R, CblasNoTrans, a->mlp->W1, CblasTrans, out), "W1");
    scope_close(sc);
}

/* g(c) = first_layer_input: -> max |g(C1 + C2) - g(C1) - g(C2) + g(0)| / (range of
 * g(C1)), the second difference along C1, C2; zero for any g that is a function of x
 * plus a matrix times c */
static double second_difference(const absorb_setup *a, int skip, int norm)
{
    scope *sc = scope_open();
    size_t T = a->X->size1, m = a->mlp->W1->size1;
    gsl_matrix *sum = scope_keep_matrix(sc, mat_clone(a->C1));
    gsl_matrix *zero = scope_matrix(sc, T, a->C1->size2);
    gsl_matrix *g12 = scope_matrix(sc, T, m), *g1 = scope_matrix(sc, T, m);
    gsl_matrix *g2 = scope_matrix(sc, T, m), *g0 = scope_matrix(sc, T, m);
    gsl_matrix_add(sum, a->C2);
    first_layer_input(a, sum, skip, norm, g12);
    first_layer_input(a, a->C1, skip, norm, g1);
    first_layer_input(a, a->C2, skip, norm, g2);
    first_layer_input(a, zero, skip, norm, g0);
    double scale = gsl_matrix_max(g1) - gsl_matrix_min(g1);
    gsl_matrix_sub(g12, g1);
    gsl_matrix_sub(g12, g2);
    gsl_matrix_add(g12, g0);
    double gap = fmax(gsl_matrix_max(g12), -gsl_matrix_min(g12)) / scale;
    scope_close(sc);
    return gap;
}

/* M4: two obstacles keep W1 from merging into W_o, each checked on its own. */
static void absorption_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "Could W1 be merged into attention's W_o?");
    report_text(o, "Attention ends with W_o and the MLP starts with W1: two matrices in a row. "
                   "If the only skip connection runs around attention and MLP together, "
                   "x + W2 f(W1 W_o c), where c holds the concatenated head outputs, then "
                   "W1 W_o is one matrix and W1 can be dropped as a step of its own.");
    scope *sc = scope_open();
    absorb_setup a;
    absorb_build(sc, s, rng, &a);
    double one_skip = merged_difference(&a, 0), two_skips = merged_difference(&a, 1);
    double skip_gap = second_difference(&a, 1, 0), norm_gap = second_difference(&a, 1, 1);
    double norm_alone = second_difference(&a, 0, 1), neither = second_difference(&a, 0, 0);
    check_at_most("M4", "with one skip around both sublayers, W1 W_o merged into one matrix "
                  "gives the same outputs (relative difference)", one_skip, 1e-12);
    check_control("M4", "a second skip: the MLP sees x + W_o c");
    check_at_most("M4", NULL, two_skips, 1e-12);
    report_text(o, "The Transformer adds the attention output to the stream first, so the "
                   "MLP sees x + W_o c. Then W1 (x + W_o c) = W1 x + (W1 W_o) c: the product "
                   "W1 W_o still merges, but W1 x must be computed all the same, so W1 "
                   "cannot be dropped. Anything of the form 'a function of x plus a matrix "
                   "times c' has zero second difference in c, g(c1 + c2) - g(c1) - g(c2) + "
                   "g(0) = 0; a clearly non-zero one rules out every merged matrix at once.");
    check_at_least("M4", "with a second skip, the merged MLP'(c) without W1 misses W1 x "
                   "(relative difference)", two_skips, 0.1);
    check_control("M4", "one skip around both sublayers");
    check_at_least("M4", NULL, one_skip, 0.1);
    check_at_most("M4", "with the second skip alone, W1 (x + W_o c) still has zero second "
                  "difference in c: the product W1 W_o merges", skip_gap, 1e-12);
    check_control("M4", "a norm between the skip and W1");
    check_at_most("M4", NULL, norm_gap, 1e-12);
    report_text(o, "The norm is the second obstacle: it divides by the spread of the whole "
                   "sum x + W_o c, so W1 LN(x + W_o c) is no longer linear in c.");
    report_line(o, "  second difference, relative: %.3g with the norm, %.3g without it",
                norm_gap, skip_gap);
    check_at_least("M4", "with a norm between, W1 LN(x + W_o c) has a non-zero second "
                   "difference in c: no merged matrix can match it", norm_gap, 1e-2);
    check_control("M4", "the second skip without the norm");
    check_at_least("M4", NULL, skip_gap, 1e-2);
    report_text(o, "The norm stops the merge on its own, without the second skip: with one "
                   "skip around both sublayers and a norm before the MLP, W1 sees LN(W_o c). "
                   "Second difference, relative: %.3g with the norm, %.3g without it.",
                norm_alone, neither);
    check_at_least("M4", "with one skip around both sublayers and a norm between, W1 LN(W_o c) "
                   "has a non-zero second difference in c: the norm alone keeps W1 W_o from "
                   "merging", norm_alone, 1e-2);
    check_control("M4", "one skip around both sublayers, no norm: W1 W_o c");
    check_at_least("M4", NULL, neither, 1e-2);
    scope_close(sc);
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 32, .hidden = 128, .pairs = 6, .seq = 6, .heads = 4};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 32, 512, "width d of the residual stream"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 4096,
         "hidden units m of the random MLP (m > d; --hidden * --dim^2 at most 2^28)"},
        {"pairs", CLI_SIZE, &s.pairs, 2, 64,
         "(key, value) pairs in the hand-built memory (from 2: one pair has nothing to mix up)"},
        {"seq", CLI_SIZE, &s.seq, 1, 512, "tokens T (--seq * --hidden * --dim at most 2^26)"},
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
    if ((double)s.seq * (double)s.hidden * (double)s.dim > (double)(1u << 26))
        return cli_fail(&o, "--seq * --hidden * --dim must be at most 2^26 (keeps the run to a "
                            "few seconds), got %.0f", (double)s.seq * (double)s.hidden * (double)s.dim);
    if ((double)s.hidden * (double)s.dim * (double)s.dim > (double)(1u << 28))
        return cli_fail(&o, "--hidden * --dim^2 must be at most 2^28 (the product W1 W_o; keeps "
                            "the run to a few seconds), got %.0f",
                        (double)s.hidden * (double)s.dim * (double)s.dim);
    if (s.pairs > s.dim / 4)
        return cli_fail(&o, "--pairs (%zu) must be at most --dim / 4 (%zu), so that a random "
                            "input stays unrelated to every key", s.pairs, s.dim / 4);
    rc = chapter_start(&o, "Chapter 9: the MLP as a key-value memory");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(o.seed));
    sum_form_section(&o, &s, rng);
    memory_section(&o, &s, rng);
    counting_section(&o, &s, rng);
    absorption_section(&o, &s, rng);
    scope_close(sc);
    return chapter_close(&o, dump_failed ? CHAPTER_EXIT_RUNTIME : 0,
                         "Attention reads from other tokens, the MLP reads from its own weights, "
                         "skips keep the stream, and the norm keeps it in range. Chapter 10 puts "
                         "these pieces together into one block and checks it against the "
                         "standard formulation.");
}
