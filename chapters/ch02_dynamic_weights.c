/* Chapter 2: weights made on the fly.
 *
 * Chapter 1 ended with a memory that keeps every past state. A layer that
 * reads it cannot have one stored weight per position, because the number
 * of positions keeps growing; so the weights must be computed from the
 * tokens themselves, by a small function, each time the layer runs. This
 * chapter asks what that function has to see. Seeing only the source token
 * (and its position) gives every receiving unit the same weights (claim
 * D1). Adding the receiving unit's own residual input as a second argument
 * makes every weight different (D2). Keeping only each unit's weight on its
 * own input also breaks the symmetry, but the layer then ignores the rest of
 * the sequence (D3). Skip connections are part of the layer throughout:
 * y_j = x_j + sum_i w_ji x_i.
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

/* The sequence and what the layer makes of it, for one kind of generator. */
typedef struct {
    gsl_matrix *X;    /* (T, d) tokens: each unit's residual input */
    gsl_matrix *P;    /* (T, d) position codes, added to the source argument */
    gsl_matrix *W;    /* (T, T) W[j][i]: weight from token i into unit j */
    gsl_matrix *sums; /* (T, d) row j: sum_i w_ji x_i, the weighted sum into unit j */
    gsl_matrix *Y;    /* (T, d) row j: x_j + the weighted sum */
} layer_run;

static void run_free(layer_run *r)
{
    gsl_matrix_free(r->X);
    gsl_matrix_free(r->P);
    gsl_matrix_free(r->W);
    gsl_matrix_free(r->sums);
    gsl_matrix_free(r->Y);
}

static int run_alloc(layer_run *r, size_t T, size_t d)
{
    r->X = gsl_matrix_alloc(T, d);
    r->P = gsl_matrix_alloc(T, d);
    r->W = gsl_matrix_alloc(T, T);
    r->sums = gsl_matrix_alloc(T, d);
    r->Y = gsl_matrix_alloc(T, d);
    return r->X && r->P && r->W && r->sums && r->Y ? INVENT_OK : INVENT_ENOMEM;
}

/* Generates the weights from X and P, then runs the layer. */
static int run_layer(const attn_additive *gen, dw_kind kind, layer_run *r)
{
    gsl_matrix *S = mat_clone(r->X);
    if (!S)
        return INVENT_ENOMEM;
    gsl_matrix_add(S, r->P);
    int status = dw_weights(gen, kind, S, r->X, r->W);
    gsl_matrix_free(S);
    if (status == INVENT_OK)
        status = mat_mul(r->W, CblasNoTrans, r->X, CblasNoTrans, r->sums);
    if (status == INVENT_OK)
        status = dw_layer(r->W, r->X, r->Y);
    return status;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* m: (rows, cols) -> how many values differ from each other by more than tol */
static size_t count_distinct(const gsl_matrix *m, double tol)
{
    size_t n = m->size1 * m->size2, distinct = 0;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return 0;
    for (size_t k = 0; k < n; k++)
        v[k] = gsl_matrix_get(m, k / m->size2, k % m->size2);
    qsort(v, n, sizeof *v, compare_doubles);
    for (size_t k = 0; k < n; k++)
        distinct += k == 0 || v[k] - v[k - 1] > tol;
    free(v);
    return distinct;
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

/* D1: a generator that sees only the source gives every unit the same weights. */
static void check_source_only(const invent_opts *o, const layer_run *r)
{
    report_section(o, "Weights from the source alone");
    report_text(o, "First the generator sees only the source token plus its position code: "
                   "w_ji = a(x_i + p_i). Nothing in that formula names the receiving unit j, "
                   "so every row of the weight table below must be the same row.");
    print_run(o, r, KIND_NAMES[0]);
    size_t T = r->W->size1;
    check_at_most("D1", "source-only weights: every unit gets the same weight from each token "
                        "(largest difference between rows)",
                  dw_row_spread(r->W), 1e-12);
    gsl_matrix *beyond_skip = mat_clone(r->Y);
    if (beyond_skip)
        gsl_matrix_sub(beyond_skip, r->X);
    check_at_most("D1", "so the outputs differ only through each unit's own skip input: "
                        "y_j - x_j is the same for every unit (largest difference)",
                  beyond_skip ? dw_row_spread(beyond_skip) : NAN, 1e-12);
    gsl_matrix_free(beyond_skip);
    check_equal("D1", "of the T^2 weights only T are distinct, one per source token",
                count_distinct(r->W, 1e-9), T);
    report_text(o, "Every unit receives the same weighted sum, so the layer adds one and the "
                   "same vector to every position; what tells the outputs apart is only the "
                   "skip connection.");
}

/* D2: the receiver's own input as a second argument makes every weight distinct. */
static void check_source_and_receiver(const invent_opts *o, const layer_run *r)
{
    report_section(o, "Weights from the source and the receiver");
    report_text(o, "Now the generator also sees the receiving unit's own residual input: "
                   "w_ji = a(x_i + p_i, x_j). Each unit asks its own question of every token.");
    print_run(o, r, KIND_NAMES[1]);
    size_t T = r->W->size1;
    check_equal("D2", "with the receiver's input as a second argument all T^2 weights are "
                      "distinct",
                count_distinct(r->W, 1e-9), (uint64_t)T * T);
    check_at_least("D2", "and the weighted sums into the units now differ (largest difference)",
                   dw_row_spread(r->sums), 1e-3);
}

/* Largest change of any unit's output other than unit k's when token k changes, over k. */
static int largest_change_elsewhere(const attn_additive *gen, dw_kind kind, layer_run *r,
                                    gsl_rng *rng, double *change)
{
    gsl_matrix *Y0 = mat_clone(r->Y), *X0 = mat_clone(r->X);
    int status = Y0 && X0 ? INVENT_OK : INVENT_ENOMEM;
    *change = 0.0;
    for (size_t k = 0; k < r->X->size1 && status == INVENT_OK; k++) {
        for (size_t c = 0; c < r->X->size2; c++)
            *gsl_matrix_ptr(r->X, k, c) += 1.0 + gsl_rng_uniform(rng);
        status = run_layer(gen, kind, r);
        for (size_t j = 0; j < r->Y->size1 && status == INVENT_OK; j++)
            for (size_t c = 0; c < r->Y->size2 && j != k; c++)
                *change = fmax(*change, fabs(gsl_matrix_get(r->Y, j, c) - gsl_matrix_get(Y0, j, c)));
        gsl_matrix_memcpy(r->X, X0);
    }
    if (status == INVENT_OK)
        status = run_layer(gen, kind, r);
    gsl_matrix_free(Y0);
    gsl_matrix_free(X0);
    return status;
}

/* D3: keeping only the self-weight breaks the symmetry and forgets the sequence. */
static int check_self_only(const invent_opts *o, const attn_additive *gen, layer_run *full,
                           layer_run *self, gsl_rng *rng)
{
    report_section(o, "Keeping only each unit's own weight");
    report_text(o, "A cheaper way to make the units differ: zero every weight except w_jj, "
                   "the one from the unit's own token. Then y_j = x_j + a(x_j + p_j, x_j) x_j.");
    print_run(o, self, KIND_NAMES[2]);
    double change_self, change_full;
    int status = largest_change_elsewhere(gen, DW_SELF_ONLY, self, rng, &change_self);
    if (status == INVENT_OK)
        status = largest_change_elsewhere(gen, DW_SOURCE_AND_RECEIVER, full, rng, &change_full);
    if (status != INVENT_OK)
        return chapter_fail(o, "changing one token at a time", status);
    gsl_matrix *own = gsl_matrix_alloc(1, self->W->size1);
    if (!own)
        return chapter_fail(o, "collecting the self-weights", INVENT_ENOMEM);
    gsl_vector_view diag = gsl_matrix_diagonal(self->W);
    gsl_matrix_set_row(own, 0, &diag.vector);
    check_at_most("D3", "self-only weights: changing any other token leaves a unit's output "
                        "unchanged (largest change, every token changed in turn)",
                  change_self, 1e-12);
    check_equal("D3", "yet the self-weights differ from unit to unit: the symmetry is broken "
                      "(distinct self-weights)",
                count_distinct(own, 1e-9), self->W->size1);
    gsl_matrix_free(own);
    check_at_least("D3", "whereas with all two-argument weights the same change moves the "
                         "other units (largest change)",
                   change_full, 1e-3);
    report_text(o, "Changing token k moved the other outputs by at most %.3g with self-only "
                   "weights and by up to %.3g with the full weights. A unit that reads only its "
                   "own token has no memory of the sequence at all: it is stateless.",
                change_self, change_full);
    return 0;
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

static int dump_runs(const invent_opts *o, const attn_additive *gen, const layer_run *runs)
{
    static const char *const W_NAMES[N_KINDS] = {"W_source_only", "W_source_and_receiver",
                                                 "W_self_only"};
    static const char *const Y_NAMES[N_KINDS] = {"Y_source_only", "Y_source_and_receiver",
                                                 "Y_self_only"};
    int status = dump_matrix(o, "X", runs[0].X) || dump_matrix(o, "P", runs[0].P) ||
                 dump_matrix(o, "gen_W1", gen->W1) || dump_matrix(o, "gen_W2", gen->W2);
    for (int k = 0; k < N_KINDS && status == INVENT_OK; k++)
        status = dump_matrix(o, W_NAMES[k], runs[k].W) || dump_matrix(o, Y_NAMES[k], runs[k].Y);
    return status;
}

static int derive(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    attn_additive *gen = attn_additive_new(s->dim, s->hidden, 1.0, rng);
    layer_run runs[N_KINDS] = {{0}};
    int status = gen ? INVENT_OK : INVENT_ENOMEM;
    for (int k = 0; k < N_KINDS && status == INVENT_OK; k++)
        status = run_alloc(&runs[k], s->seq, s->dim);
    if (status == INVENT_OK) {
        rng_fill_gaussian(runs[0].X, rng, 1.0);
        rng_fill_gaussian(runs[0].P, rng, 0.5);
    }
    for (int k = 0; k < N_KINDS && status == INVENT_OK; k++) {
        gsl_matrix_memcpy(runs[k].X, runs[0].X);
        gsl_matrix_memcpy(runs[k].P, runs[0].P);
        status = run_layer(gen, KINDS[k], &runs[k]);
    }
    int rc = status == INVENT_OK ? 0 : chapter_fail(o, "running the layer", status);
    if (rc == 0) {
        report_line(o, "  tokens x_j (row j, one column per coordinate):");
        print_matrix(o, "token", runs[0].X);
        report_line(o, "%s", "");
        check_source_only(o, &runs[0]);
        check_source_and_receiver(o, &runs[1]);
        rc = check_self_only(o, gen, &runs[1], &runs[2], rng);
    }
    if (rc == 0 && dump_runs(o, gen, runs) != INVENT_OK)
        rc = CHAPTER_EXIT_RUNTIME;
    if (rc == 0)
        plot_weights(o, runs);
    for (int k = 0; k < N_KINDS; k++)
        run_free(&runs[k]);
    attn_additive_free(gen);
    return rc;
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
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    rc = chapter_start(&o, "Chapter 2: dynamic weights");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *rng = rng_new(o.seed);
    if (!rng)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    report_text(&o,
                "A layer reads a sequence of T = %zu tokens of size d = %zu; token j is also "
                "the residual input of receiving unit j, and the layer computes "
                "y_j = x_j + sum_i w_ji x_i. No weight w_ji is stored. Each is made on the "
                "fly by one small generator a, an additive tanh score with h = %zu hidden "
                "units (Bahdanau et al., 2015), whose second argument is the receiving unit's "
                "input, or zero when the generator is not allowed to see it.",
                s.seq, s.dim, s.hidden);
    rc = derive(&o, &s, rng);
    gsl_rng_free(rng);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "The weight into a unit must depend on the source token and on the unit "
                    "itself, and every unit must read every token. Chapter 3 asks how many "
                    "such functions a layer of width d needs.");
    return chapter_end();
}
