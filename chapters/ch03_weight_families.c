/* Chapter 3: from a dynamic matrix to a few static ones.
 *
 * Chapter 2 showed that the weight into a unit must be a function of two
 * arguments, the source token x_i and the receiver's own input x_L. With
 * tokens of width d, the weight that carries x_i into the receiver is a
 * d x d matrix W(x_i, x_L). This chapter counts what three ways of making
 * that matrix cost. Generating every entry needs d^2 scalar functions (claim
 * F1). Generating only the diagonal needs d, and the diagonal is a sum of d
 * fixed one-hot matrices with dynamic coefficients (F2). Replacing those
 * one-hot matrices by H learned matrices keeps the dynamic part at H scalar
 * functions, whatever d is (F3). Every scalar function here is an additive
 * tanh score with h hidden units, so that functions and parameters can be
 * counted on the same footing.
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

/* n scalar functions c_k(x_i, x_L), each an additive score on d-vectors. */
typedef struct {
    attn_additive **f;
    size_t n;
} function_bank;

static void bank_free(function_bank *b)
{
    for (size_t k = 0; b->f && k < b->n; k++)
        attn_additive_free(b->f[k]);
    free(b->f);
}

static int bank_new(function_bank *b, size_t n, size_t d, size_t h, gsl_rng *r)
{
    b->n = n;
    b->f = calloc(n, sizeof *b->f);
    if (!b->f)
        return INVENT_ENOMEM;
    for (size_t k = 0; k < n; k++)
        if (!(b->f[k] = attn_additive_new(d, h, 1.0 / sqrt((double)d), r)))
            return INVENT_ENOMEM;
    return INVENT_OK;
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

/* F1: one function per entry; the count from the allocated bank and at d = 512. */
static int full_family(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    report_section(o, "Every entry its own function");
    function_bank full = {0};
    uint64_t formula = 0, functions = 0, at_table = 0;
    int status = bank_new(&full, s->dim * s->dim, s->dim, s->hidden, r);
    if (status == INVENT_OK)
        status = family_params(FAMILY_FULL, s->dim, s->matrices, s->hidden, &formula);
    if (status == INVENT_OK)
        status = family_functions(FAMILY_FULL, LEDGER_D, LEDGER_H, &functions);
    if (status == INVENT_OK)
        status = family_params(FAMILY_FULL, LEDGER_D, LEDGER_H, s->hidden, &at_table);
    if (status == INVENT_OK) {
        report_text(o, "The most general choice generates all d^2 entries of W(x_i, x_L), each "
                       "by its own scalar function of the two tokens. For the worked example, "
                       "d = %zu, that is %zu function%s holding %llu parameters. At d = %zu it is "
                       "%llu functions and %llu parameters, for one weight of one layer.",
                    s->dim, full.n, full.n == 1 ? "" : "s",
                    (unsigned long long)bank_parameters(&full), (size_t)LEDGER_D,
                    (unsigned long long)functions, (unsigned long long)at_table);
        check_equal("F1", "a fully dynamic weight of width d = 512 needs 262,144 scalar "
                          "functions",
                    functions, 262144);
        check_equal("F1", "the parameters held by an allocated fully dynamic bank match the "
                          "count d^2 h (2d + 1)",
                    bank_parameters(&full), formula);
    }
    bank_free(&full);
    return status == INVENT_OK ? 0 : chapter_fail(o, "counting the fully dynamic family", status);
}

/* F2: diag(c) and sum_k c_k E_k from the same coefficients. */
static int diagonal_family(const invent_opts *o, const sizes *s, const gsl_vector *x_i,
                           const gsl_vector *x_L, gsl_rng *r)
{
    report_section(o, "Only the diagonal");
    function_bank diag = {0};
    gsl_vector *c = gsl_vector_alloc(s->dim);
    gsl_matrix *direct = gsl_matrix_alloc(s->dim, s->dim);
    gsl_matrix *onehots = gsl_matrix_alloc(s->dim, s->dim);
    int status = c && direct && onehots ? bank_new(&diag, s->dim, s->dim, s->hidden, r)
                                        : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = dw_coefficients(diag.f, x_i, x_L, c);
    if (status == INVENT_OK)
        status = dw_diagonal(c, direct);
    if (status == INVENT_OK)
        status = dw_onehot_sum(c, onehots);
    if (status == INVENT_OK) {
        report_text(o, "A cheaper weight scales each coordinate of x_i by its own dynamic "
                       "coefficient c_k(x_i, x_L): W = diag(c), d functions instead of d^2. "
                       "The same matrix is a sum over k of c_k E_k, where E_k is the fixed "
                       "matrix with a single 1 at (k, k). Written directly:");
        print_matrix(o, direct);
        check_matrix_close("F2", "diag(c) and the sum of d one-hot matrices with dynamic "
                                 "coefficients agree",
                           onehots, direct, 1e-12);
        report_text(o, "The one-hot matrices are fixed, and nothing says they must be. That "
                       "is the next step.");
    }
    /* dump_matrix reports its own failure: no second message for it */
    int dump_failed = status == INVENT_OK && (dump_matrix(o, "W_diagonal", direct) ||
                                              dump_matrix(o, "W_onehot_sum", onehots));
    bank_free(&diag);
    gsl_vector_free(c);
    gsl_matrix_free(direct);
    gsl_matrix_free(onehots);
    if (status != INVENT_OK)
        return chapter_fail(o, "building the diagonal weight", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

/* The H learned matrices of the mixture, (d, d) each. */
static gsl_matrix **learned_matrices(size_t H, size_t d, gsl_rng *r)
{
    gsl_matrix **V = calloc(H, sizeof *V);
    for (size_t j = 0; V && j < H; j++)
        if (!(V[j] = mat_gaussian(d, d, 1.0 / sqrt((double)d), r))) {
            for (size_t k = 0; k < j; k++)
                gsl_matrix_free(V[k]);
            free(V);
            return NULL;
        }
    return V;
}

/* F3 at the ledger's size: functions and parameters of the mixture against F1. */
static int compare_at_ledger_size(const invent_opts *o, const sizes *s)
{
    uint64_t full_f, mix_f, full_p, mix_p;
    int status = family_functions(FAMILY_FULL, LEDGER_D, LEDGER_H, &full_f);
    if (status == INVENT_OK)
        status = family_functions(FAMILY_MIXTURE, LEDGER_D, LEDGER_H, &mix_f);
    if (status == INVENT_OK)
        status = family_params(FAMILY_FULL, LEDGER_D, LEDGER_H, s->hidden, &full_p);
    if (status == INVENT_OK)
        status = family_params(FAMILY_MIXTURE, LEDGER_D, LEDGER_H, s->hidden, &mix_p);
    if (status != INVENT_OK)
        return chapter_fail(o, "counting at d = 512, H = 8", status);
    double ratio = (double)full_p / (double)mix_p;
    double static_share = (double)LEDGER_H * LEDGER_D * LEDGER_D / (double)mix_p;
    report_text(o, "At d = %d with H = %d: %llu scalar functions instead of %llu, and %llu "
                   "parameters instead of %llu, %.0f times fewer. Of what remains, %.0f%% are "
                   "the entries of the H static matrices, which are learned once and shared by "
                   "every pair of tokens.",
                LEDGER_D, LEDGER_H, (unsigned long long)mix_f, (unsigned long long)full_f,
                (unsigned long long)mix_p, (unsigned long long)full_p, ratio,
                100.0 * static_share);
    check_at_least("F3", "at d = 512, H = 8 the mixture needs far fewer parameters than the "
                         "fully dynamic weight of F1 (full / mixture)",
                   ratio, 100.0);
    check_equal("F3", "and 8 scalar functions instead of 262,144", mix_f, LEDGER_H);
    return 0;
}

/* F3: sum_j c_j V_j with H learned matrices. */
static int mixture_family(const invent_opts *o, const sizes *s, const gsl_vector *x_i,
                          const gsl_vector *x_L, gsl_rng *r)
{
    report_section(o, "A few learned matrices");
    function_bank bank = {0};
    gsl_matrix **V = learned_matrices(s->matrices, s->dim, r);
    gsl_vector *c = gsl_vector_alloc(s->matrices);
    gsl_matrix *W = gsl_matrix_alloc(s->dim, s->dim);
    uint64_t formula = 0;
    int status = V && c && W ? bank_new(&bank, s->matrices, s->dim, s->hidden, r)
                             : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = dw_coefficients(bank.f, x_i, x_L, c);
    if (status == INVENT_OK)
        status = dw_mixture(c, V, W);
    if (status == INVENT_OK)
        status = family_params(FAMILY_MIXTURE, s->dim, s->matrices, s->hidden, &formula);
    int rc = status == INVENT_OK ? 0 : chapter_fail(o, "building the mixture", status);
    if (rc == 0) {
        report_text(o, "Replace the d one-hot matrices by H = %zu learned d x d matri%s V_j: "
                       "W(x_i, x_L) = sum_j c_j(x_i, x_L) V_j. Only the H coefficients are "
                       "dynamic. For the worked example the coefficients are:",
                    s->matrices, s->matrices == 1 ? "x" : "ces");
        for (size_t j = 0; j < s->matrices; j++)
            report_line(o, "    c_%zu(x_i, x_L) = %7.3f", j + 1, gsl_vector_get(c, j));
        report_line(o, "%s", "");
        rc = compare_at_ledger_size(o, s);
    }
    if (rc == 0) {
        uint64_t held = bank_parameters(&bank) + (uint64_t)s->matrices * s->dim * s->dim;
        check_equal("F3", "the parameters held by an allocated mixture (H functions and H "
                          "matrices) match the count H h (2d + 1) + H d^2",
                    held, formula);
    }
    if (rc == 0 && dump_matrix(o, "W_mixture", W) != INVENT_OK)
        rc = CHAPTER_EXIT_RUNTIME;
    for (size_t j = 0; V && j < s->matrices; j++)
        gsl_matrix_free(V[j]);
    free(V);
    bank_free(&bank);
    gsl_vector_free(c);
    gsl_matrix_free(W);
    return rc;
}

static const weight_family FAMILIES[3] = {FAMILY_FULL, FAMILY_DIAGONAL, FAMILY_MIXTURE};

/* Parameters of the three families for d, H (and h); INVENT_OK or the first error. */
static int family_counts(uint64_t d, uint64_t H, uint64_t h, uint64_t counts[3])
{
    int status = INVENT_OK;
    for (int k = 0; k < 3 && status == INVENT_OK; k++)
        status = family_params(FAMILIES[k], d, H, h, &counts[k]);
    return status;
}

static int print_table(const invent_opts *o, const sizes *s)
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
            int status = family_counts(DS[a], HS[b], s->hidden, n);
            if (status != INVENT_OK)
                return chapter_fail(o, "counting parameters for the table", status);
            report_line(o, "  %6llu %4llu %18llu %14llu %14llu  %14.0f", (unsigned long long)DS[a],
                        (unsigned long long)HS[b], (unsigned long long)n[0],
                        (unsigned long long)n[1], (unsigned long long)n[2],
                        (double)n[0] / (double)n[2]);
        }
    report_line(o, "%s", "");
    report_text(o, "The diagonal is about as cheap as the mixture, but it can only rescale "
                   "each coordinate of x_i; the mixture moves x_i in any direction the V_j "
                   "span, and its dynamic part does not grow with d.");
    return 0;
}

enum { PLOT_POINTS = 12 }; /* d = 4, 8, ..., 8192 */

static int plot_counts(const invent_opts *o, const sizes *s)
{
    uint64_t n[PLOT_POINTS][3];
    for (int k = 0; k < PLOT_POINTS; k++) {
        int status = family_counts(4ULL << k, LEDGER_H, s->hidden, n[k]);
        if (status != INVENT_OK)
            return chapter_fail(o, "counting parameters for the figure", status);
    }
    plot *p = plot_begin(o, "ch03_params");
    plot_set(p, "H", LEDGER_H);
    plot_set(p, "h", (double)s->hidden);
    plot_set(p, "mark_d", LEDGER_D);
    plot_block(p, "d  fully_dynamic  diagonal  mixture");
    for (int k = 0; k < PLOT_POINTS; k++)
        PLOT_ROW(p, (double)(4ULL << k), (double)n[k][0], (double)n[k][1], (double)n[k][2]);
    plot_render(p, "ch03_params.gp");
    return 0;
}

static int derive(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    gsl_vector *x_i = gsl_vector_alloc(s->dim), *x_L = gsl_vector_alloc(s->dim);
    if (!x_i || !x_L) {
        gsl_vector_free(x_i);
        gsl_vector_free(x_L);
        return chapter_fail(o, "allocating the tokens", INVENT_ENOMEM);
    }
    gsl_matrix_view xi = gsl_matrix_view_vector(x_i, 1, s->dim);
    gsl_matrix_view xL = gsl_matrix_view_vector(x_L, 1, s->dim);
    rng_fill_gaussian(&xi.matrix, r, 1.0);
    rng_fill_gaussian(&xL.matrix, r, 1.0);
    int rc = full_family(o, s, r);
    if (rc == 0)
        rc = diagonal_family(o, s, x_i, x_L, r);
    if (rc == 0)
        rc = mixture_family(o, s, x_i, x_L, r);
    if (rc == 0)
        rc = print_table(o, s);
    if (rc == 0)
        rc = plot_counts(o, s);
    gsl_vector_free(x_i);
    gsl_vector_free(x_L);
    return rc;
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 6, .matrices = 3, .hidden = 8};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 1, 32,
         "width d of the worked example (its fully dynamic bank holds about 2 h d^3 numbers)"},
        {"matrices", CLI_SIZE, &s.matrices, 1, 256, "learned matrices H of the mixture"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 256, "hidden units h of each scalar function"},
    };
    const cli_spec spec = {"ch03", "Chapter 3: what a dynamic d x d weight costs, three ways.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    rc = chapter_start(&o, "Chapter 3: from a dynamic matrix to a few static ones");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *r = rng_new(o.seed);
    if (!r)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    report_text(&o, "A token x_i of width d reaches a receiving unit whose own input is x_L "
                    "through a d x d weight W(x_i, x_L) that is generated, not stored. The "
                    "worked example uses d = %zu; the counts are also given at d = %d, the "
                    "width of the claims ledger.",
                s.dim, LEDGER_D);
    rc = derive(&o, &s, r);
    gsl_rng_free(r);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "The dynamic part has shrunk to H scalar functions c_j(x_i, x_L) of two "
                    "tokens. Chapter 4 asks what shape such a function must have to let a "
                    "unit choose among tokens.");
    return chapter_end();
}
