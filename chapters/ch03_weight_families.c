/* Chapter 3: from a dynamic matrix to a few static ones.
 *
 * Chapter 2 showed that the weight into a unit must be a function of two
 * arguments, the source token x_i and the receiver's own input x_L. With
 * tokens of width d, the weight that carries x_i into the receiver is a
 * d x d matrix W(x_i, x_L). This chapter measures what three ways of making
 * that matrix cost. Generating every entry needs d^2 scalar functions, and
 * the weights they make really fill d^2 dimensions (claim F1). Generating
 * only the diagonal needs d: the diagonal is a sum of d fixed one-hot
 * matrices with dynamic coefficients, and a least-squares fit finds exactly
 * those matrices (F2). Replacing the one-hot matrices by H learned ones keeps
 * the dynamic part at H scalar functions, whatever d is (F3), and it reaches a
 * weight that feeds one output from one input, which the diagonal cannot, and
 * holds the zeros elsewhere in its static entries, not in its dynamic
 * coefficients (F4). The parameter counts are narration. Every scalar
 * function here is an additive tanh score with h hidden units, so that
 * functions and parameters can be counted on the same footing.
 */
#include <math.h>
#include <stdlib.h>

#include "invent.h"

typedef struct {
    size_t dim;      /* d of the worked example */
    size_t matrices; /* H learned matrices of the mixture */
    size_t hidden;   /* h hidden units of each scalar function */
} sizes;

/* The headline comparison of the claims ledger (F1, F3). */
enum { LEDGER_D = 512, LEDGER_H = 8 };

/* A singular value counts towards the rank above this fraction of the largest:
 * double rounding leaves about 1e-16 of it, the generated weights' smallest
 * true directions are far above 1e-9. */
#define RANK_RCOND 1e-9

/* How close least squares must come to weights that are exactly a sum of fixed
 * matrices. The fit (linalg_ridge) adds a ridge of 1e-12 of the mean eigenvalue
 * and removes its bias in 3 refinement steps; along a direction of singular
 * value s that leaves (l / (s^2 + l))^4 of it, l the ridge, at most about 2e-7
 * of the weights' size for any s. Many nearly dependent coefficient functions
 * (H one-unit tanh of few inputs) come close to that. */
#define RECOVERED 1e-6

/* n scalar functions c_k(x_i, x_L), each an additive score on d-vectors. */
typedef struct {
    attn_additive **f;
    size_t n;
} function_bank;

/* -> n functions on d-vectors with h hidden units, owned by sc */
static function_bank bank_new(size_t n, size_t d, size_t h, gsl_rng *r, scope *sc)
{
    function_bank b = {scope_keep_object(sc, calloc(n, sizeof(attn_additive *)), free), n};
    for (size_t k = 0; k < n; k++)
        b.f[k] = SCOPE_KEEP(sc, attn_additive_new(d, h, 1.0 / sqrt((double)d), r), attn_additive_free);
    return b;
}

/* The parameters a bank holds, counted from the matrices it allocated. */
static uint64_t bank_parameters(const function_bank *b)
{
    uint64_t total = 0;
    for (size_t k = 0; k < b->n; k++) {
        const attn_additive *a = b->f[k];
        total += a->W1->size1 * a->W1->size2 + a->W2->size1 * a->W2->size2 + a->v->size;
    }
    return total;
}

/* Weights of the three families at N random token pairs, one row per pair:
 * a weight is flattened to its d^2 entries, row by row. */
typedef struct {
    gsl_matrix *full;      /* (N, d^2) W(x) = [c_ab(x)], every entry its own function */
    gsl_matrix *diag_c;    /* (N, d) the full bank's diagonal functions c_kk */
    gsl_matrix *diagonal;  /* (N, d^2) diag(c(x)) */
    gsl_matrix *mix_c;     /* (N, H) the mixture's coefficients c_j */
    gsl_matrix *mixture;   /* (N, d^2) sum_j c_j(x) V_j */
    gsl_matrix *onehots;   /* (d, d^2) row k: E_k, the one-hot matrix with a 1 at (k, k) */
    gsl_matrix *learned;   /* (H, d^2) row j: V_j */
} samples;

/* Row q of every family from one random pair (x_i, x_L). */
static void sample_pair(const sizes *s, const function_bank *full, const function_bank *mix,
                        gsl_matrix *const *V, gsl_rng *r, scope *sc, samples *S, size_t q)
{
    size_t d = s->dim;
    gsl_vector *x_i = scope_vector(sc, d), *x_L = scope_vector(sc, d);
    gsl_matrix_view xi = gsl_matrix_view_vector(x_i, 1, d), xL = gsl_matrix_view_vector(x_L, 1, d);
    rng_fill_gaussian(&xi.matrix, r, 1.0);
    rng_fill_gaussian(&xL.matrix, r, 1.0);
    gsl_vector_view full_row = gsl_matrix_row(S->full, q), c = gsl_matrix_row(S->diag_c, q);
    gsl_vector_view mix_c = gsl_matrix_row(S->mix_c, q);
    gsl_vector_view diagonal_row = gsl_matrix_row(S->diagonal, q);
    gsl_vector_view mixture_row = gsl_matrix_row(S->mixture, q);
    gsl_matrix_view diagonal = gsl_matrix_view_vector(&diagonal_row.vector, d, d);
    gsl_matrix_view mixture = gsl_matrix_view_vector(&mixture_row.vector, d, d);
    chapter_must(dw_coefficients(full->f, x_i, x_L, &full_row.vector), "scoring the full bank");
    for (size_t k = 0; k < d; k++)
        gsl_vector_set(&c.vector, k, gsl_vector_get(&full_row.vector, k * d + k));
    chapter_must(dw_diagonal(&c.vector, &diagonal.matrix), "building the diagonal weight");
    chapter_must(dw_coefficients(mix->f, x_i, x_L, &mix_c.vector), "scoring the mixture's bank");
    chapter_must(dw_mixture(&mix_c.vector, V, &mixture.matrix), "building the mixture");
}

/* The three families at N random pairs, with the fixed matrices they are made of. */
static samples sample_families(const sizes *s, const function_bank *full,
                               const function_bank *mix, gsl_matrix *const *V, size_t N,
                               gsl_rng *r, scope *sc)
{
    size_t d = s->dim, H = s->matrices;
    samples S = {scope_matrix(sc, N, d * d), scope_matrix(sc, N, d),     scope_matrix(sc, N, d * d),
                 scope_matrix(sc, N, H),     scope_matrix(sc, N, d * d), scope_matrix(sc, d, d * d),
                 scope_matrix(sc, H, d * d)};
    for (size_t q = 0; q < N; q++)
        sample_pair(s, full, mix, V, r, sc, &S, q);
    for (size_t k = 0; k < d; k++)
        gsl_matrix_set(S.onehots, k, k * d + k, 1.0);
    for (size_t j = 0; j < H; j++) {
        gsl_vector_const_view flat = gsl_vector_const_view_array(V[j]->data, d * d);
        gsl_matrix_set_row(S.learned, j, &flat.vector);
    }
    return S;
}

/* W: (N, d^2), N >= d^2 -> how many dimensions the sampled weights span. The
 * singular values come from one-sided Jacobi (jacobi_svd.h), which keeps
 * exact zeros exact, as the diagonal family's many zero columns need. */
static size_t span(const gsl_matrix *W, scope *sc)
{
    gsl_vector *sv = scope_vector(sc, W->size2);
    chapter_must(jacobi_singular_values(W, sv), "measuring the span of the weights");
    return linalg_rank(sv, RANK_RCOND);
}

/* C: (N, k) coefficients, W: (N, d^2) weights -> M: (k, d^2), the k fixed matrices
 * that fit W = C M best (least squares), taken from sc */
static gsl_matrix *fixed_matrices(const gsl_matrix *C, const gsl_matrix *W, scope *sc)
{
    gsl_matrix *M = scope_matrix(sc, C->size2, W->size2);
    chapter_must(linalg_ridge(C, W, 1e-12, 3, M), "fitting fixed matrices");
    return M;
}

/* -> largest |M - want| for the fixed matrices of C, W */
static double recovered_off(const gsl_matrix *C, const gsl_matrix *W, const gsl_matrix *want,
                            scope *sc)
{
    return mat_max_abs_diff(fixed_matrices(C, W, sc), want);
}

/* -> ||C M - W|| / ||W|| for the fixed matrices M of C, W: 0 when the weights are a
 * sum of fixed matrices with these coefficients */
static double rebuild_error(const gsl_matrix *C, const gsl_matrix *W, scope *sc)
{
    gsl_matrix *M = fixed_matrices(C, W, sc);
    return mat_rel_error(scope_keep_matrix(sc, mat_product(C, CblasNoTrans, M, CblasNoTrans)), W);
}

/* F1: d^2 functions, and the weights they make fill d^2 dimensions. */
static void full_family(const invent_opts *o, const sizes *s, const function_bank *full,
                        const samples *S, scope *sc)
{
    report_section(o, "Every entry its own function");
    uint64_t formula, at_table, d2 = (uint64_t)s->dim * s->dim;
    size_t full_span = span(S->full, sc), diagonal_span = span(S->diagonal, sc);
    chapter_must(family_params(FAMILY_FULL, s->dim, s->matrices, s->hidden, &formula),
                 "counting the fully dynamic family");
    chapter_must(family_params(FAMILY_FULL, LEDGER_D, LEDGER_H, s->hidden, &at_table),
                 "counting at d = 512");
    report_text(o, "The most general choice generates all d^2 entries of W(x_i, x_L), each "
                   "by its own scalar function of the two tokens: for the worked example, "
                   "d = %zu, %zu functions holding %llu parameters. Are they all needed? The "
                   "weights they make at %zu random pairs of tokens span %zu dimensions (the "
                   "rank of the pairs' flattened weights), so no fewer fixed matrices with "
                   "dynamic coefficients could make them. At d = %d the same count gives %d x "
                   "%d = 262,144 functions and %llu parameters, for one weight of one layer.",
                s->dim, full->n, (unsigned long long)bank_parameters(full), S->full->size1,
                full_span, LEDGER_D, LEDGER_D, LEDGER_D, (unsigned long long)at_table);
    check_equal("F1", "the weights of d^2 independent functions span all d^2 dimensions "
                      "(rank over random pairs of tokens)",
                full_span, d2);
    check_control("F1", "the diagonal family, from d of the same functions");
    check_equal("F1", NULL, diagonal_span, d2);
}

static void print_matrix(const invent_opts *o, const gsl_matrix *m)
{
    for (size_t r = 0; r < m->size1; r++) {
        char line[1024];
        int used = snprintf(line, sizeof line, "   ");
        for (size_t c = 0; c < m->size2 && used < (int)sizeof line; c++)
            used += snprintf(line + used, sizeof line - (size_t)used, " %7.3f",
                             gsl_matrix_get(m, r, c));
        report_line(o, "%s", line);
    }
}

/* F2: diag(c) is a sum of the d one-hot matrices, found by least squares. */
static void diagonal_family(const invent_opts *o, const sizes *s, const samples *S, scope *sc)
{
    report_section(o, "Only the diagonal");
    size_t d = s->dim;
    gsl_vector_const_view first_row = gsl_matrix_const_row(S->diagonal, 0);
    gsl_matrix_const_view first = gsl_matrix_const_view_vector(&first_row.vector, d, d);
    report_text(o, "A cheaper weight scales each coordinate of x_i by its own dynamic "
                   "coefficient c_k(x_i, x_L): W = diag(c), d functions instead of d^2 (here "
                   "the full bank's diagonal functions). For the first random pair:");
    print_matrix(o, &first.matrix);
    report_line(o, "%s", "");
    report_text(o, "Such a weight should be a sum over k of c_k E_k, where E_k is the fixed "
                   "matrix with a single 1 at (k, k). Given only the coefficients and the "
                   "weights at %zu random pairs, least squares finds the d fixed matrices M_k "
                   "with W = sum_k c_k M_k, if there are any:",
                S->full->size1);
    check_at_most("F2", "the fixed matrices found for the diagonal weight are the one-hot E_k "
                        "(largest |M_k - E_k|)",
                  recovered_off(S->diag_c, S->diagonal, S->onehots, sc), RECOVERED);
    check_control("F2", "the fully dynamic weight, whose diagonal has the same coefficients");
    check_at_most("F2", NULL, recovered_off(S->diag_c, S->full, S->onehots, sc), RECOVERED);
    report_line(o, "%s", "");
    report_text(o, "The one-hot matrices are fixed, and nothing says they must be one-hot. "
                   "That is the next step.");
}

/* The H learned matrices of the mixture, (d, d) each, owned by sc. */
static gsl_matrix **learned_matrices(size_t H, size_t d, gsl_rng *r, scope *sc)
{
    gsl_matrix **V = scope_keep_object(sc, calloc(H, sizeof *V), free);
    for (size_t j = 0; j < H; j++)
        V[j] = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / sqrt((double)d), r));
    return V;
}

/* At the ledger's size: parameters of the mixture against F1 (a product of
 * given numbers: narration, not a claim). */
static void compare_at_ledger_size(const invent_opts *o, const sizes *s)
{
    uint64_t full_p, mix_p;
    chapter_must(family_params(FAMILY_FULL, LEDGER_D, LEDGER_H, s->hidden, &full_p),
                 "counting at d = 512");
    chapter_must(family_params(FAMILY_MIXTURE, LEDGER_D, LEDGER_H, s->hidden, &mix_p),
                 "counting at d = 512");
    double static_share = (double)LEDGER_H * LEDGER_D * LEDGER_D / (double)mix_p;
    report_line(o, "%s", "");
    report_text(o, "At d = %d with H = %d: %d scalar functions instead of 262,144, and %llu "
                   "parameters instead of %llu, %.0f times fewer. Of what remains, %.0f%% are "
                   "the entries of the H static matrices, which are learned once and shared by "
                   "every pair of tokens.",
                LEDGER_D, LEDGER_H, LEDGER_H, (unsigned long long)mix_p,
                (unsigned long long)full_p, (double)full_p / (double)mix_p, 100.0 * static_share);
}

/* F3: sum_j c_j V_j with H learned matrices, found again by least squares. */
static void mixture_family(const invent_opts *o, const sizes *s, const function_bank *mix,
                           const samples *S, scope *sc)
{
    report_section(o, "A few learned matrices");
    uint64_t held = bank_parameters(mix) + (uint64_t)s->matrices * s->dim * s->dim;
    report_text(o, "Replace the d one-hot matrices by H = %zu learned d x d matri%s V_j: "
                   "W(x_i, x_L) = sum_j c_j(x_i, x_L) V_j. Only the H coefficients are dynamic, "
                   "and the same least-squares fit, given the coefficients and the weights, "
                   "finds H fixed matrices that rebuild every weight. Here they are the V_j "
                   "themselves (largest difference %.2g); when many coefficient functions are "
                   "nearly dependent, other matrices rebuild the weights as well. The "
                   "generated weights span %zu dimensions. The mixture holds %llu parameters: "
                   "H h (2d + 1) in its functions, H d^2 in its matrices.",
                s->matrices, s->matrices == 1 ? "x" : "ces",
                recovered_off(S->mix_c, S->mixture, S->learned, sc), span(S->mixture, sc),
                (unsigned long long)held);
    check_at_most("F3", "the mixture's weights are rebuilt from H fixed matrices with its H "
                        "dynamic coefficients (relative error of the least-squares fit)",
                  rebuild_error(S->mix_c, S->mixture, sc), RECOVERED);
    check_control("F3", "the fully dynamic weight, against the same coefficients");
    check_at_most("F3", NULL, rebuild_error(S->mix_c, S->full, sc), RECOVERED);
    compare_at_ledger_size(o, s);
}

/* F4's target at the sampled pairs: (N, d^2), row q = g_q e_a e_b^T flattened, a
 * weight that feeds output a from input b alone, with a dynamic gain g: the
 * mixture's first coefficient function */
static gsl_matrix *sparse_target(const samples *S, size_t d, size_t a, size_t b, scope *sc)
{
    gsl_matrix *W = scope_matrix(sc, S->mix_c->size1, d * d);
    for (size_t q = 0; q < W->size1; q++)
        gsl_matrix_set(W, q, a * d + b, gsl_matrix_get(S->mix_c, q, 0));
    return W;
}

/* M: (k, d^2) fixed matrices, W: (N, d^2) weights -> (k, N) the best coefficients
 * of each weight in the span of M, free at every pair (least squares), from sc */
static gsl_matrix *best_coefficients(const gsl_matrix *M, const gsl_matrix *W, scope *sc)
{
    gsl_matrix *Mt = scope_matrix(sc, M->size2, M->size1), *Wt = scope_matrix(sc, W->size2, W->size1);
    gsl_matrix_transpose_memcpy(Mt, M);
    gsl_matrix_transpose_memcpy(Wt, W);
    return fixed_matrices(Mt, Wt, sc);
}

/* -> ||C M - W|| / ||W|| for the best coefficients C of W in the span of M */
static double off_the_span(const gsl_matrix *M, const gsl_matrix *W, scope *sc)
{
    gsl_matrix *C = best_coefficients(M, W, sc);
    gsl_matrix *got = scope_keep_matrix(sc, mat_product(C, CblasTrans, M, CblasNoTrans));
    return mat_rel_error(got, W);
}

/* m: (rows, cols) -> how many rows (by_row) or entries hold a value above 1e-9
 * of the largest |entry| */
static size_t count_alive(const gsl_matrix *m, int by_row)
{
    double tol = 1e-9 * fmax(gsl_matrix_max(m), -gsl_matrix_min(m));
    size_t alive = 0;
    for (size_t r = 0; r < m->size1; r++) {
        size_t in_row = 0;
        for (size_t c = 0; c < m->size2; c++)
            in_row += fabs(gsl_matrix_get(m, r, c)) > tol;
        alive += by_row ? in_row > 0 : in_row;
    }
    return alive;
}

/* F4: a sparse weight, one output from one input, against the diagonal family. */
static void sparse_outputs(const invent_opts *o, const sizes *s, const samples *S, scope *sc)
{
    report_section(o, "A weight that feeds one output from one input");
    size_t d = s->dim, H = s->matrices;
    gsl_matrix *across = sparse_target(S, d, 0, 1, sc), *along = sparse_target(S, d, 0, 0, sc);
    gsl_matrix *diag_c = best_coefficients(S->onehots, along, sc);
    gsl_matrix *V = fixed_matrices(S->mix_c, across, sc);
    report_text(o, "Suppose a weight should do one thing: feed output 1 from input 2, scaled by "
                   "a dynamic gain g(x_i, x_L), and leave every other output alone, W = g e_1 "
                   "e_2^T. The diagonal family cannot: each of its d coefficients rescales one "
                   "coordinate in place, so even with any coefficients at every pair its best "
                   "weights miss this one entirely. Moved onto the diagonal, W = g e_1 e_1^T, it "
                   "is within reach, but only by holding the other coefficients at zero at "
                   "every pair of tokens: the best fit keeps %zu of the d = %zu dynamic "
                   "coefficients alive, so %zu dynamic functions do nothing but cancel. H = %zu "
                   "learned matrices, fitted from the mixture's H coefficients as in F3, put "
                   "the target into the matrices themselves: %zu nonzero of their H d^2 = %zu "
                   "static entries, and the zeros elsewhere cost no dynamic function.",
                count_alive(diag_c, 1), d, d - count_alive(diag_c, 1), H, count_alive(V, 0),
                H * d * d);
    check_at_least("F4", "the diagonal family misses a weight that feeds output 1 from input 2 "
                         "(relative error of its best weights, any coefficients at each pair)",
                   off_the_span(S->onehots, across, sc), 0.99);
    check_control("F4", "the same weight moved onto the diagonal, output 1 from input 1");
    check_at_least("F4", NULL, off_the_span(S->onehots, along, sc), 0.99);
    check_at_most("F4", "H learned matrices rebuild it from the mixture's H dynamic "
                        "coefficients (relative error of the least-squares fit)",
                  rebuild_error(S->mix_c, across, sc), RECOVERED);
    check_control("F4", "the H matrices as drawn, not learned, any coefficients at each pair");
    check_at_most("F4", NULL, off_the_span(S->learned, across, sc), RECOVERED);
}

static const weight_family FAMILIES[3] = {FAMILY_FULL, FAMILY_DIAGONAL, FAMILY_MIXTURE};

/* Parameters of the three families for d, H (and h). */
static void family_counts(uint64_t d, uint64_t H, uint64_t h, uint64_t counts[3])
{
    for (int k = 0; k < 3; k++)
        chapter_must(family_params(FAMILIES[k], d, H, h, &counts[k]), "counting parameters");
}

static void print_table(const invent_opts *o, const sizes *s)
{
    static const uint64_t DS[] = {64, 256, 512, 1024, 4096};
    static const uint64_t HS[] = {4, 8, 16};
    report_section(o, "Parameter counts");
    report_text(o, "Parameters of one dynamic d x d weight, each scalar function an additive "
                   "score with h = %zu hidden units (h (2d + 1) parameters each):", s->hidden);
    report_line(o, "  %6s %4s %18s %14s %14s  %s", "d", "H", "fully dynamic", "diagonal",
                "mixture of H", "full / mixture");
    for (size_t a = 0; a < sizeof DS / sizeof DS[0]; a++)
        for (size_t b = 0; b < sizeof HS / sizeof HS[0]; b++) {
            uint64_t n[3];
            family_counts(DS[a], HS[b], s->hidden, n);
            report_line(o, "  %6llu %4llu %18llu %14llu %14llu  %14.0f", (unsigned long long)DS[a],
                        (unsigned long long)HS[b], (unsigned long long)n[0],
                        (unsigned long long)n[1], (unsigned long long)n[2],
                        (double)n[0] / (double)n[2]);
        }
    report_line(o, "%s", "");
    report_text(o, "The diagonal is about as cheap as the mixture, but it can only rescale "
                   "each coordinate of x_i; the mixture moves x_i in any direction the V_j "
                   "span. The number of its dynamic functions, H, does not grow with d; the "
                   "parameters of each, h (2d + 1), do, as any function of two d-vectors must.");
}

enum { PLOT_POINTS = 12 }; /* d = 4, 8, ..., 8192 */

static void plot_counts(const invent_opts *o, const sizes *s)
{
    plot *p = plot_begin(o, "ch03_params");
    plot_set(p, "H", LEDGER_H);
    plot_set(p, "h", (double)s->hidden);
    plot_set(p, "mark_d", LEDGER_D);
    plot_block(p, "d  fully_dynamic  diagonal  mixture");
    for (int k = 0; k < PLOT_POINTS; k++) {
        uint64_t n[3];
        family_counts(4ULL << k, LEDGER_H, s->hidden, n);
        PLOT_ROW(p, (double)(4ULL << k), (double)n[0], (double)n[1], (double)n[2]);
    }
    plot_render(p, "ch03_params.gp");
}

/* Random token pairs sampled: twice the d^2 dimensions of F1, twice the H of F3. */
static size_t sampled_pairs(const sizes *s)
{
    size_t n = 2 * s->dim * s->dim, m = 2 * s->matrices;
    return (n > m ? n : m) + 16;
}

static int derive(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    scope *sc = scope_open();
    size_t d = s->dim;
    function_bank full = bank_new(d * d, d, s->hidden, r, sc);
    function_bank mix = bank_new(s->matrices, d, s->hidden, r, sc);
    gsl_matrix **V = learned_matrices(s->matrices, d, r, sc);
    samples S = sample_families(s, &full, &mix, V, sampled_pairs(s), r, sc);
    full_family(o, s, &full, &S, sc);
    diagonal_family(o, s, &S, sc);
    mixture_family(o, s, &mix, &S, sc);
    sparse_outputs(o, s, &S, sc);
    print_table(o, s);
    plot_counts(o, s);
    int dump_failed = dump_matrix(o, "W_full", S.full) || dump_matrix(o, "W_diagonal", S.diagonal) ||
                      dump_matrix(o, "W_mixture", S.mixture);
    scope_close(sc);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 6, .matrices = 3, .hidden = 8};
    const cli_option options[] = {
        /* at d = 1 the three families coincide; above 16 the span of the weights, a
         * singular value decomposition of (2 d^2 + 16) x d^2, takes too long */
        {"dim", CLI_SIZE, &s.dim, 2, 16, "width d of the worked example (2 or more)"},
        {"matrices", CLI_SIZE, &s.matrices, 1, 256,
         "learned matrices H of the mixture (below d^2: at H = d^2 the mixture is as general "
         "as the fully dynamic weight)"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 256, "hidden units h of each scalar function"},
    };
    const cli_spec spec = {"ch03", "Chapter 3: what a dynamic d x d weight costs, three ways.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.matrices >= s.dim * s.dim)
        return cli_fail(&o, "--matrices (%zu) must be below d^2 = %zu: H learned matrices as many "
                            "as the d^2 entries span every d x d weight, and the mixture is no "
                            "step from the fully dynamic weight",
                        s.matrices, s.dim * s.dim);
    rc = chapter_start(&o, "Chapter 3: from a dynamic matrix to a few static ones");
    if (rc != CLI_RUN)
        return rc;
    report_text(&o, "A token x_i of width d reaches a receiving unit whose own input is x_L "
                    "through a d x d weight W(x_i, x_L) that is generated, not stored. The "
                    "worked example uses d = %zu; the counts are also given at d = %d, the "
                    "width of the claims ledger.",
                s.dim, LEDGER_D);
    scope *sc = scope_open();
    rc = derive(&o, &s, scope_keep_rng(sc, rng_new(o.seed)));
    scope_close(sc);
    return chapter_close(&o, rc,
                         "The dynamic part has shrunk to H scalar functions c_j(x_i, x_L) of two "
                         "tokens. Chapter 4 asks what shape such a function must have to let a "
                         "unit choose among tokens.");
}
