/* Chapter 2: weights made on the fly.
 *
 * Chapter 1 ended with a memory that keeps every past state. A layer that
 * reads it cannot have one stored weight per position, because the number
 * of positions keeps growing; so the weights must be computed from the
 * tokens themselves, by a small function, each time the layer runs. This
 * chapter asks what that function has to see. Seeing only the source token
 * (and its position) gives every receiving unit the same weights, so no
 * layer of that kind can send different tokens to different units (claim
 * D1). Adding the receiving unit's own residual input as a second argument
 * makes every weight different (D2). Keeping only each unit's weight on its
 * own input also breaks the symmetry, but the layer then ignores the rest of
 * the sequence: no unit can fetch another token (D3). Skip
 * connections are part of the layer throughout: y_j = x_j + sum_i w_ji x_i.
 */
#include <math.h>
#include <stdlib.h>

#include "invent.h"

typedef struct {
    size_t seq;    /* T: tokens in the sequence, one receiving unit per token */
    size_t dim;    /* d: size of one token */
    size_t hidden; /* h: hidden units of the weight generator */
} sizes;

enum { N_KINDS = 3 };
static const dw_kind KINDS[N_KINDS] = {DW_SOURCE_ONLY, DW_SOURCE_AND_RECEIVER, DW_SELF_ONLY};
static const char *const KIND_NAMES[N_KINDS] = {"source only", "source and receiver",
                                                "self only"};

/* Two values differ when they are further apart than this fraction of the
 * largest |value|: double rounding leaves about 1e-16, random values of one
 * run are apart by far more than 1e-12. */
#define DISTINCT 1e-12

/* Sequences over which the routing errors (D1, D3) are pooled. */
enum { ROUTE_SEQUENCES = 64 };

/* Shared weights can send every unit only the mean of the tokens, which misses
 * x_(j-1) by sqrt(1 - 1/T) >= 0.71 in expectation; over 64 sequences chance moves
 * that by a few hundredths, so a miss of 0.5 or more means "cannot route". */
#define ROUTE_MISS 0.5

/* No function of x_j predicts an independent x_(j-1): a stateless layer misses it
 * by 1 or more in expectation, and the test on at least 1024 numbers moves that
 * by a few hundredths. */
#define STATELESS_MISS 0.9

/* Sequences a self-only generator's read-out is refitted on (D3): one sequence
 * fixes at most T of its numbers (one weight per unit), and we want 16 of them
 * per parameter of v; and enough fresh sequences to test it on 1024 numbers. */
static size_t refit_sequences(size_t T, size_t h)
{
    size_t n = (16 * h + T - 1) / T;
    return n < 8 ? 8 : n;
}

static size_t test_sequences(size_t T, size_t d)
{
    return (1024 + T * d - 1) / (T * d);
}

/* The sequence and what the layer makes of it, for one kind of generator. */
typedef struct {
    gsl_matrix *W;    /* (T, T) W[j][i]: weight from token i into unit j */
    gsl_matrix *sums; /* (T, d) row j: sum_i w_ji x_i, the weighted sum into unit j */
    gsl_matrix *Y;    /* (T, d) row j: x_j + the weighted sum */
} layer_run;

/* X: (T, d) tokens, P: (T, d) position codes -> W, sums and Y for one kind */
static void run_layer(const attn_additive *gen, dw_kind kind, const gsl_matrix *X,
                      const gsl_matrix *P, scope *sc, layer_run *r)
{
    size_t T = X->size1, d = X->size2;
    gsl_matrix *S = scope_keep_matrix(sc, mat_clone(X));
    gsl_matrix_add(S, P);
    r->W = scope_matrix(sc, T, T), r->sums = scope_matrix(sc, T, d), r->Y = scope_matrix(sc, T, d);
    dw_work *w = SCOPE_KEEP(sc, dw_work_new(T, d, gen->W1->size1), dw_work_free);
    chapter_must(dw_weights(gen, kind, S, X, w, r->W), "generating the weights");
    chapter_must(mat_mul(r->W, CblasNoTrans, X, CblasNoTrans, r->sums), "summing the tokens");
    chapter_must(dw_layer(r->W, X, r->Y), "running the layer");
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* m: (rows, cols) -> how many values differ from each other by more than
 * DISTINCT times the largest |value| */
static size_t count_distinct(const gsl_matrix *m, scope *sc)
{
    gsl_matrix *sorted = scope_keep_matrix(sc, mat_clone(m)); /* contiguous: tda = cols */
    size_t n = m->size1 * m->size2, distinct = 0;
    double tol = DISTINCT * fmax(gsl_matrix_max(m), -gsl_matrix_min(m));
    qsort(sorted->data, n, sizeof(double), compare_doubles);
    for (size_t k = 0; k < n; k++)
        distinct += k == 0 || sorted->data[k] - sorted->data[k - 1] > tol;
    return distinct;
}

/* m: (T, n) -> largest difference between rows, / largest |value| */
static double relative_row_spread(const gsl_matrix *m)
{
    return dw_row_spread(m) / fmax(gsl_matrix_max(m), -gsl_matrix_min(m));
}

static void print_matrix(const invent_opts *o, const char *row_name, const gsl_matrix *m)
{
    for (size_t j = 0; j < m->size1; j++) {
        char line[1024];
        int used = snprintf(line, sizeof line, "    %s %zu:", row_name, j + 1);
        for (size_t i = 0; i < m->size2 && used < (int)sizeof line; i++)
            used += snprintf(line + used, sizeof line - (size_t)used, " %7.3f",
                             gsl_matrix_get(m, j, i));
        report_line(o, "%s", line);
    }
}

static void print_run(const invent_opts *o, const layer_run *r, const char *name)
{
    report_line(o, "  weights, %s (row j = receiving unit, column i = source token):", name);
    print_matrix(o, "unit", r->W);
    report_line(o, "  weighted sums into the units (row j, one column per coordinate):");
    print_matrix(o, "unit", r->sums);
    report_line(o, "%s", "");
}

/* A: (m, n), B: (m, c) -> ||A X - B||^2 for the least-squares X, and ||B||^2 */
static void least_squares_miss(const gsl_matrix *A, const gsl_matrix *B, scope *sc, double *miss,
                               double *norm)
{
    gsl_matrix *X = scope_matrix(sc, A->size2, B->size2);
    chapter_must(linalg_ridge(A, B, 1e-12, 3, X), "solving least squares");
    gsl_matrix *fit = scope_keep_matrix(sc, mat_product(A, CblasNoTrans, X, CblasNoTrans));
    gsl_matrix_sub(fit, B);
    *miss += pow(mat_frobenius(fit), 2);
    *norm += pow(mat_frobenius(B), 2);
}

/* D1's task: unit j must receive the token before it, x_{j-1} (cyclically).
 * Per random sequence, the least-squares weights of two kinds:
 * [0] one weight per source token, shared by every unit (any source-only
 *     generator makes such weights, whatever it computes);
 * [1] one weight per (unit, source) pair.
 * -> err: relative errors, pooled over ROUTE_SEQUENCES sequences */
static void routing_errors(const sizes *s, gsl_rng *rng, scope *sc, double err[2])
{
    size_t T = s->seq, d = s->dim;
    gsl_matrix *X = scope_matrix(sc, T, d);
    gsl_matrix *shared = scope_matrix(sc, T * d, T), *wanted = scope_matrix(sc, T * d, 1);
    gsl_matrix *per_unit = scope_matrix(sc, d, T), *wanted_t = scope_matrix(sc, d, T);
    double miss[2] = {0.0, 0.0}, norm[2] = {0.0, 0.0};
    for (int q = 0; q < ROUTE_SEQUENCES; q++) {
        rng_fill_gaussian(X, rng, 1.0);
        for (size_t j = 0; j < T; j++)
            for (size_t c = 0; c < d; c++) {
                double before = gsl_matrix_get(X, (j + T - 1) % T, c);
                for (size_t i = 0; i < T; i++) /* unit j's sum: sum_i w_i x_i[c] */
                    gsl_matrix_set(shared, j * d + c, i, gsl_matrix_get(X, i, c));
                gsl_matrix_set(wanted, j * d + c, 0, before);
                gsl_matrix_set(wanted_t, c, j, before);
            }
        gsl_matrix_transpose_memcpy(per_unit, X); /* X^T w_j = x_{j-1}, one column per unit */
        least_squares_miss(shared, wanted, sc, &miss[0], &norm[0]);
        least_squares_miss(per_unit, wanted_t, sc, &miss[1], &norm[1]);
    }
    err[0] = sqrt(miss[0] / norm[0]);
    err[1] = sqrt(miss[1] / norm[1]);
}

/* D1: a generator that sees only the source gives every unit the same weights. */
static void check_source_only(const invent_opts *o, const sizes *s, const layer_run *runs,
                              const double err[2], scope *sc)
{
    report_section(o, "Weights from the source alone");
    report_text(o, "First the generator sees only the source token plus its position code: "
                   "w_ji = a(x_i + p_i). Nothing in that formula names the receiving unit j, "
                   "so every row of the weight table below is the same row, and every unit "
                   "receives the same weighted sum: the outputs differ only through their skip "
                   "inputs.");
    print_run(o, &runs[0], KIND_NAMES[0]);
    size_t T = s->seq;
    report_text(o, "What that costs holds for every generator of this kind, not only for this "
                   "one. Ask the layer to send each unit the token before it, x_(j-1). The best "
                   "weights one per source token can give, fitted by least squares for each of "
                   "%d random sequences, miss by %.3f (relative; the mean of the tokens is all "
                   "they can send, and it misses by about sqrt(1 - 1/T) = %.3f). Weights that "
                   "may differ from unit to unit, which a generator that also sees the receiver "
                   "and its position is allowed to make, miss by %.2g.",
                ROUTE_SEQUENCES, err[0], sqrt(1.0 - 1.0 / (double)T), err[1]);
    check_equal("D1", "of the T^2 weights only T are distinct, one per source token",
                count_distinct(runs[0].W, sc), T);
    check_control("D1", "the weights of a generator that also sees the receiver");
    check_equal("D1", NULL, count_distinct(runs[1].W, sc), T);
    check_at_least("D1", "no source-only weights can send different tokens to different units: "
                         "unit j asking for x_(j-1), the best shared weights miss by (relative "
                         "error)",
                   err[0], ROUTE_MISS);
    check_control("D1", "weights that may differ from unit to unit");
    check_at_least("D1", NULL, err[1], ROUTE_MISS);
}

/* D2: the receiver's own input as a second argument makes every weight distinct. */
static void check_source_and_receiver(const invent_opts *o, const sizes *s,
                                      const layer_run *runs, scope *sc)
{
    report_section(o, "Weights from the source and the receiver");
    report_text(o, "Now the generator also sees the receiving unit's own residual input: "
                   "w_ji = a(x_i + p_i, x_j). Each unit asks its own question of every token.");
    print_run(o, &runs[1], KIND_NAMES[1]);
    uint64_t all = (uint64_t)s->seq * s->seq;
    check_equal("D2", "with the receiver's input as a second argument all T^2 weights are "
                      "distinct",
                count_distinct(runs[1].W, sc), all);
    check_control("D2", "the source-only generator");
    check_equal("D2", NULL, count_distinct(runs[0].W, sc), all);
    check_at_least("D2", "and the weighted sums into the units differ (largest difference "
                         "between units, / largest |sum|)",
                   relative_row_spread(runs[1].sums), DISTINCT);
    check_control("D2", "the source-only generator");
    check_at_least("D2", NULL, relative_row_spread(runs[0].sums), DISTINCT);
}

/* One random sequence, D1's task for a layer of the given kind: F (T d, h + 1)
 * the features of its generator with a bias, w_ji = v . phi_ji + b (the last
 * column: the sums K X of the weights the kind keeps), t (T d, 1) the tokens
 * wanted, x_{j-1} for unit j. */
static void routing_rows(const attn_additive *gen, dw_kind kind, const gsl_matrix *P,
                         gsl_rng *rng, scope *sc, gsl_matrix *F, gsl_matrix *t)
{
    size_t T = P->size1, d = P->size2, h = F->size2 - 1;
    gsl_matrix *X = scope_matrix(sc, T, d), *K = scope_matrix(sc, T, T);
    gsl_matrix *kept_sums = scope_matrix(sc, T, d);
    rng_fill_gaussian(X, rng, 1.0);
    gsl_matrix *S = scope_keep_matrix(sc, mat_clone(X));
    gsl_matrix_add(S, P);
    gsl_matrix_view phi = gsl_matrix_submatrix(F, 0, 0, F->size1, h);
    dw_work *w = SCOPE_KEEP(sc, dw_work_new(T, d, h), dw_work_free);
    chapter_must(dw_features(gen, kind, S, X, X, w, &phi.matrix),
                 "computing the generator's features");
    chapter_must(dw_pattern(kind, K), "marking the weights the kind keeps");
    chapter_must(mat_mul(K, CblasNoTrans, X, CblasNoTrans, kept_sums), "summing the kept tokens");
    for (size_t j = 0; j < T; j++)
        for (size_t c = 0; c < d; c++) {
            gsl_matrix_set(F, j * d + c, h, gsl_matrix_get(kept_sums, j, c));
            gsl_matrix_set(t, j * d + c, 0, gsl_matrix_get(X, (j + T - 1) % T, c));
        }
}

/* D3: the read-out (v, b) of the chapter's generator refitted by least squares,
 * on many sequences, for a layer of the given kind asked for x_{j-1} -> relative
 * error on fresh ones */
static double refit_routing_error(const attn_additive *gen, dw_kind kind, const gsl_matrix *P,
                                  gsl_rng *rng)
{
    scope *sc = scope_open();
    size_t T = P->size1, rows = T * P->size2, f = gen->v->size + 1, n = refit_sequences(T, f);
    gsl_matrix *F = scope_matrix(sc, n * rows, f), *t = scope_matrix(sc, n * rows, 1);
    for (size_t q = 0; q < n; q++) {
        gsl_matrix_view Fq = gsl_matrix_submatrix(F, q * rows, 0, rows, f);
        gsl_matrix_view tq = gsl_matrix_submatrix(t, q * rows, 0, rows, 1);
        routing_rows(gen, kind, P, rng, sc, &Fq.matrix, &tq.matrix);
    }
    gsl_matrix *v = scope_matrix(sc, f, 1), *guess = scope_matrix(sc, rows, 1);
    chapter_must(linalg_ridge(F, t, 1e-12, 3, v), "refitting the read-out");
    double miss = 0.0, norm = 0.0;
    for (size_t q = 0; q < test_sequences(T, P->size2); q++) {
        gsl_matrix_view Fq = gsl_matrix_submatrix(F, 0, 0, rows, f);
        gsl_matrix_view tq = gsl_matrix_submatrix(t, 0, 0, rows, 1);
        routing_rows(gen, kind, P, rng, sc, &Fq.matrix, &tq.matrix);
        chapter_must(mat_mul(&Fq.matrix, CblasNoTrans, v, CblasNoTrans, guess), "testing the read-out");
        norm += pow(mat_frobenius(&tq.matrix), 2);
        gsl_matrix_sub(guess, &tq.matrix);
        miss += pow(mat_frobenius(guess), 2);
    }
    scope_close(sc);
    return sqrt(miss / norm);
}

/* D3: keeping only the self-weight breaks the symmetry and forgets the sequence. */
static void check_self_only(const invent_opts *o, const attn_additive *gen, const gsl_matrix *P,
                            const layer_run *runs, gsl_rng *rng)
{
    report_section(o, "Keeping only each unit's own weight");
    report_text(o, "A cheaper way to make the units differ: zero every weight except w_jj, "
                   "the one from the unit's own token. Then y_j = x_j + a(x_j + p_j, x_j) x_j.");
    print_run(o, &runs[2], KIND_NAMES[2]);
    double stateless = refit_routing_error(gen, DW_SELF_ONLY, P, rng);
    double with_previous = refit_routing_error(gen, DW_SELF_AND_PREVIOUS, P, rng);
    report_text(o, "But y_j now depends on x_j alone: the layer is stateless. Ask it again for "
                   "the token before each unit. Since x_(j-1) is independent of x_j, no function "
                   "of x_j and p_j can predict it, so on fresh sequences every self-only "
                   "generator misses by 1 or more, on average. Measured with this one: its "
                   "read-out v, with a bias b added (w = v . phi + b), refitted by least squares "
                   "on %zu random sequences misses by %.3f on %zu fresh ones. The same refit "
                   "of a layer that keeps one weight more, the one from the token before, "
                   "misses by %.3f: it can at least send half of x_j + x_(j-1) (a miss of "
                   "sqrt(1/2) = 0.71), and that is the control.",
                refit_sequences(P->size1, gen->v->size + 1), stateless,
                test_sequences(P->size1, P->size2), with_previous);
    check_at_least("D3", "self-only weights break the symmetry: the weighted sums into the "
                         "units differ (largest difference between units, / largest |sum|)",
                   relative_row_spread(runs[2].sums), DISTINCT);
    check_control("D3", "the source-only generator");
    check_at_least("D3", NULL, relative_row_spread(runs[0].sums), DISTINCT);
    check_at_least("D3", "but the layer is stateless: unit j asking for x_(j-1), a self-only "
                         "layer refitted to it recovers none of it (relative error on fresh "
                         "sequences)",
                   stateless, STATELESS_MISS);
    check_control("D3", "the same refit, the weight from the token before kept as well");
    check_at_least("D3", NULL, with_previous, STATELESS_MISS);
}

static void plot_weights(const invent_opts *o, const layer_run *runs)
{
    plot *p = plot_begin(o, "ch02_weights");
    double largest = 0.0;
    for (int k = 0; k < N_KINDS; k++) {
        largest = fmax(largest, fmax(gsl_matrix_max(runs[k].W), -gsl_matrix_min(runs[k].W)));
        plot_block(p, "source_i-1  receiver_j-1  weight");
        plot_matrix(p, runs[k].W);
    }
    plot_set(p, "wmax", largest);
    plot_set(p, "tokens", (double)runs[0].W->size1);
    plot_render(p, "ch02_weights.gp");
}

/* -> nonzero when a dump failed (it said why) */
static int dump_runs(const invent_opts *o, const attn_additive *gen, const gsl_matrix *X,
                     const gsl_matrix *P, const layer_run *runs)
{
    static const char *const W_NAMES[N_KINDS] = {"W_source_only", "W_source_and_receiver",
                                                 "W_self_only"};
    static const char *const Y_NAMES[N_KINDS] = {"Y_source_only", "Y_source_and_receiver",
                                                 "Y_self_only"};
    int failed = dump_matrix(o, "X", X) || dump_matrix(o, "P", P) ||
                 dump_matrix(o, "gen_W1", gen->W1) || dump_matrix(o, "gen_W2", gen->W2);
    for (int k = 0; k < N_KINDS && !failed; k++)
        failed = dump_matrix(o, W_NAMES[k], runs[k].W) || dump_matrix(o, Y_NAMES[k], runs[k].Y);
    return failed;
}

static int derive(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    scope *sc = scope_open();
    /* variance 1/d: the generator's tanh units stay out of saturation at any d */
    double sigma = 1.0 / sqrt((double)s->dim);
    attn_additive *gen = SCOPE_KEEP(sc, attn_additive_new(s->dim, s->hidden, sigma, rng), attn_additive_free);
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(s->seq, s->dim, 1.0, rng));
    gsl_matrix *P = scope_keep_matrix(sc, mat_gaussian(s->seq, s->dim, 0.5, rng));
    layer_run runs[N_KINDS];
    for (int k = 0; k < N_KINDS; k++)
        run_layer(gen, KINDS[k], X, P, sc, &runs[k]);
    report_line(o, "  tokens x_j (row j, one column per coordinate):");
    print_matrix(o, "token", X);
    report_line(o, "%s", "");
    double routing[2];
    routing_errors(s, rng, sc, routing);
    check_source_only(o, s, runs, routing, sc);
    check_source_and_receiver(o, s, runs, sc);
    check_self_only(o, gen, P, runs, rng);
    int dump_failed = dump_runs(o, gen, X, P, runs);
    if (!dump_failed)
        plot_weights(o, runs);
    scope_close(sc);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

int main(int argc, char **argv)
{
    sizes s = {.seq = 5, .dim = 2, .hidden = 4};
    const cli_option options[] = {
        {"seq", CLI_SIZE, &s.seq, 2, 64, "tokens T in the sequence (one receiving unit each)"},
        {"dim", CLI_SIZE, &s.dim, 1, 64, "size d of one token"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 64, "hidden units h of the weight generator"},
    };
    const cli_spec spec = {"ch02", "Chapter 2: what a generator of dynamic weights must see.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_begin(argc, argv, &spec, &o, "Chapter 2: dynamic weights");
    if (rc != CLI_RUN)
        return rc;
    report_text(&o,
                "A layer reads a sequence of T = %zu tokens of size d = %zu; token j is also "
                "the residual input of receiving unit j, and the layer computes "
                "y_j = x_j + sum_i w_ji x_i. No weight w_ji is stored. Each is made on the "
                "fly by one small generator a, an additive tanh score with h = %zu hidden "
                "units (Bahdanau et al., 2015), whose second argument is the receiving unit's "
                "input, or zero when the generator is not allowed to see it. Its random "
                "weights have variance 1/d, so that its units are not saturated.",
                s.seq, s.dim, s.hidden);
    scope *sc = scope_open();
    rc = derive(&o, &s, scope_keep_rng(sc, rng_new(o.seed)));
    scope_close(sc);
    return chapter_close(&o, rc,
                         "The weight into a unit must depend on the source token and on the unit "
                         "itself, and every unit must read every token. Chapter 3 asks how many "
                         "such functions a layer of width d needs.");
}
