/* Chapter 4: which interaction function.
 *
 * Chapter 3 left each dynamic weight with a handful of scalar functions
 * c(x_i, x_L) of two arguments: the token x_i and the receiving unit's own
 * input x_L. This chapter asks what shape such a function should have. Any
 * function of two arguments splits into a part of x_i alone, a part of x_L
 * alone, and an interaction; the one-argument parts bring back the symmetry
 * of chapter 2, so only the interaction matters (claim I1). The additive
 * tanh score of Bahdanau et al. (2015) is barely interacting: its level sets
 * are those of a plain sum (I2). The product is all interaction: it has two
 * separate regions of large output (I3), and so one and the same function
 * can serve two units that need opposite signs of the same input (I4).
 */
#include <math.h>
#include <stdlib.h>

#include "invent.h"

typedef struct {
    size_t seq;    /* T tokens in the I1 example */
    size_t dim;    /* d: width of one token in the I1 example */
    size_t hidden; /* h: hidden units of its additive score */
    size_t grid;   /* n: points per axis of the [-3, 3]^2 grid */
    double large;  /* q: "large" means at least q times the function's largest value */
} sizes;

#define GRID_HALF_WIDTH 3.0

/* ------------------------------------------------------------------ I1 */

/* The plain sum u . x_i + w . x_L, a score with no interaction at all. */
typedef struct {
    gsl_vector *u, *w;
} linear_sum;

static int score_linear_sum(const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                            double *score)
{
    const linear_sum *p = params;
    double a, b;
    if (gsl_blas_ddot(p->u, x_i, &a) || gsl_blas_ddot(p->w, x_L, &b))
        return INVENT_ESHAPE;
    *score = a + b;
    return INVENT_OK;
}

enum { SC_ADDITIVE, SC_SUM, SC_PRODUCT, N_SCORES };
static const char *const SCORE_NAMES[N_SCORES] = {"additive tanh", "plain sum", "product"};

/* A score and its three parts over every (receiver j, token i) of a sequence. */
typedef struct {
    gsl_matrix *S, *F, *G, *V; /* (T, T), row j = receiver, column i = token */
} split_table;

static void table_free(split_table *t)
{
    gsl_matrix_free(t->S);
    gsl_matrix_free(t->F);
    gsl_matrix_free(t->G);
    gsl_matrix_free(t->V);
}

static int split_over_sequence(score_fn s, const void *params, const gsl_matrix *X,
                               split_table *t)
{
    size_t T = X->size1;
    t->S = gsl_matrix_alloc(T, T);
    t->F = gsl_matrix_alloc(T, T);
    t->G = gsl_matrix_alloc(T, T);
    t->V = gsl_matrix_alloc(T, T);
    if (!t->S || !t->F || !t->G || !t->V)
        return INVENT_ENOMEM;
    int status = INVENT_OK;
    for (size_t j = 0; j < T && status == INVENT_OK; j++)
        for (size_t i = 0; i < T && status == INVENT_OK; i++) {
            gsl_vector_const_view x_i = gsl_matrix_const_row(X, i);
            gsl_vector_const_view x_L = gsl_matrix_const_row(X, j);
            score_parts p;
            status = s(params, &x_i.vector, &x_L.vector, gsl_matrix_ptr(t->S, j, i));
            if (status == INVENT_OK)
                status = score_split(s, params, &x_i.vector, &x_L.vector, &p);
            gsl_matrix_set(t->F, j, i, p.f);
            gsl_matrix_set(t->G, j, i, p.g);
            gsl_matrix_set(t->V, j, i, p.v);
        }
    return status;
}

/* m: (T, T) -> largest max - min within a row */
static double spread_within_rows(const gsl_matrix *m)
{
    double worst = 0.0;
    for (size_t j = 0; j < m->size1; j++) {
        gsl_vector_const_view row = gsl_matrix_const_row(m, j);
        worst = fmax(worst, gsl_vector_max(&row.vector) - gsl_vector_min(&row.vector));
    }
    return worst;
}

/* m: (T, T) -> over every two rows j, k, the spread of row j - row k: how far two
 * receivers' preferences differ beyond a constant; the smallest such value */
static double least_pairwise_difference(const gsl_matrix *m)
{
    double least = INFINITY;
    for (size_t j = 0; j < m->size1; j++)
        for (size_t k = j + 1; k < m->size1; k++) {
            double lo = INFINITY, hi = -INFINITY;
            for (size_t i = 0; i < m->size2; i++) {
                double d = gsl_matrix_get(m, j, i) - gsl_matrix_get(m, k, i);
                lo = fmin(lo, d);
                hi = fmax(hi, d);
            }
            least = fmin(least, hi - lo);
        }
    return least;
}

static void check_split(const invent_opts *o, split_table t[N_SCORES])
{
    double rebuild = 0.0, f_rows = 0.0, g_within = 0.0;
    for (int k = 0; k < N_SCORES; k++) {
        gsl_matrix *sum = mat_clone(t[k].F);
        if (!sum) {
            rebuild = NAN;
            continue;
        }
        gsl_matrix_add(sum, t[k].G);
        gsl_matrix_add(sum, t[k].V);
        rebuild = fmax(rebuild, mat_max_abs_diff(sum, t[k].S));
        gsl_matrix_free(sum);
        f_rows = fmax(f_rows, dw_row_spread(t[k].F));
        g_within = fmax(g_within, spread_within_rows(t[k].G));
        report_line(o, "  %-14s  |f| %7.3f   |g| %7.3f   |v| %7.3f   |v| / |s| %6.3f",
                    SCORE_NAMES[k], mat_frobenius(t[k].F), mat_frobenius(t[k].G),
                    mat_frobenius(t[k].V), mat_frobenius(t[k].V) / mat_frobenius(t[k].S));
    }
    report_line(o, "%s", "");
    check_at_most("I1", "f + g + v rebuilds every score of the sequence (tanh, sum and product; "
                        "largest error)",
                  rebuild, 1e-12);
    check_at_most("I1", "the f part alone gives every receiver the same weights: the symmetry of "
                        "D1 is back (largest difference between rows)",
                  f_rows, 1e-12);
    check_at_most("I1", "the g part weighs every token alike for a given receiver: it cannot "
                        "choose (largest spread within a row)",
                  g_within, 1e-12);
    check_at_most("I1", "a plain sum u.x_i + w.x_L has no interaction part at all (largest |v|)",
                  gsl_matrix_max(t[SC_SUM].V) - fmin(0.0, gsl_matrix_min(t[SC_SUM].V)), 1e-12);
    check_at_least("I1", "the interaction part v of the tanh and product scores lets every two "
                         "receivers rank the tokens differently (smallest, over receiver pairs, "
                         "of the spread of v[j][i] - v[k][i] over the tokens i)",
                   fmin(least_pairwise_difference(t[SC_ADDITIVE].V),
                        least_pairwise_difference(t[SC_PRODUCT].V)),
                   1e-3);
}

static int split_section(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    report_section(o, "Splitting a score of two arguments");
    report_text(o, "Any score s(x_i, x_L) can be written as f(x_i) + g(x_L) + v(x_i, x_L) with "
                   "f(x_i) = s(x_i, 0), g(x_L) = s(0, x_L) - s(0, 0), and v, the interaction, "
                   "whatever is left; v vanishes when either argument is zero. Used as the "
                   "weight from token i into receiver L, f depends on the token alone, which is "
                   "the source-only generator of chapter 2 again, and g is the same for every "
                   "token, so it cannot prefer one token over another. Only v can let each "
                   "receiver choose. Below, T = %zu random tokens of width d = %zu, scored three "
                   "ways: the additive tanh score (h = %zu), a plain sum, and the product.",
                s->seq, s->dim, s->hidden);
    gsl_matrix *X = mat_gaussian(s->seq, s->dim, 1.0, r);
    attn_additive *a = attn_additive_new(s->dim, s->hidden, 1.0, r);
    linear_sum sum = {gsl_vector_alloc(s->dim), gsl_vector_alloc(s->dim)};
    split_table t[N_SCORES] = {{0}};
    int status = X && a && sum.u && sum.w ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix_view u = gsl_matrix_view_vector(sum.u, 1, s->dim);
        gsl_matrix_view w = gsl_matrix_view_vector(sum.w, 1, s->dim);
        rng_fill_gaussian(&u.matrix, r, 1.0);
        rng_fill_gaussian(&w.matrix, r, 1.0);
        status = split_over_sequence(score_additive, a, X, &t[SC_ADDITIVE]);
    }
    if (status == INVENT_OK)
        status = split_over_sequence(score_linear_sum, &sum, X, &t[SC_SUM]);
    if (status == INVENT_OK)
        status = split_over_sequence(score_product, NULL, X, &t[SC_PRODUCT]);
    if (status == INVENT_OK)
        check_split(o, t);
    /* dump_matrix reports its own failure: no second message for it */
    int dump_failed = status == INVENT_OK &&
                      (dump_matrix(o, "X", X) || dump_matrix(o, "S_additive", t[SC_ADDITIVE].S) ||
                       dump_matrix(o, "V_additive", t[SC_ADDITIVE].V));
    for (int k = 0; k < N_SCORES; k++)
        table_free(&t[k]);
    gsl_matrix_free(X);
    attn_additive_free(a);
    gsl_vector_free(sum.u);
    gsl_vector_free(sum.w);
    if (status != INVENT_OK)
        return chapter_fail(o, "splitting the scores", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

/* ------------------------------------------------------------- I2 - I4 */

enum { FN_TANH, FN_SUM, FN_PRODUCT, N_FNS };
static const char *const FN_NAMES[N_FNS] = {"tanh(x1 + x3)", "x1 + x3", "x1 * x3"};

static double fn_tanh(double x1, double x3, const void *params)
{
    (void)params;
    return attn_additive_score_1d(1.0, 1.0, 1.0, x1, x3);
}

static double fn_sum(double x1, double x3, const void *params)
{
    (void)params;
    return x1 + x3;
}

static double fn_product(double x1, double x3, const void *params)
{
    (void)params;
    return x1 * x3;
}

static const grid_fn FNS[N_FNS] = {fn_tanh, fn_sum, fn_product};

/* Two units share the token x1; A wants x1 > 0, B wants x1 < 0. */
enum { WANTS_POSITIVE, WANTS_NEGATIVE };

/* The three functions on the grid, and what I3 and I4 measure on them. */
typedef struct {
    gsl_matrix *G[N_FNS];     /* (n, n) G[r][c] = s(x1 = coord c, x3 = coord r) */
    gsl_matrix *state[N_FNS]; /* (n, n) I4: 1 A satisfied, 2 B, 3 both, 0 neither */
    double threshold[N_FNS];  /* "large": q times the largest value on the grid */
    size_t regions[N_FNS];    /* separate regions with G >= threshold */
    double satisfied[N_FNS][3]; /* fraction of the (x3_A, x3_B) grid: A, B, both */
} landscape;

static void landscape_free(landscape *l)
{
    for (int k = 0; k < N_FNS; k++) {
        gsl_matrix_free(l->G[k]);
        gsl_matrix_free(l->state[k]);
    }
}

/* Row r of G (a unit whose own input is x3 = coord r): is it large somewhere, and
 * only where x1 has the wanted sign? */
static int unit_satisfied(const gsl_matrix *G, size_t r, double threshold, int wants)
{
    size_t n = G->size2, large = 0, wrong = 0;
    for (size_t c = 0; c < n; c++) {
        if (!(gsl_matrix_get(G, r, c) >= threshold))
            continue;
        double x1 = grid_coord(GRID_HALF_WIDTH, n, c);
        large++;
        wrong += wants == WANTS_POSITIVE ? !(x1 > 0.0) : !(x1 < 0.0);
    }
    return large > 0 && wrong == 0;
}

/* I4 for function k: state[b][a] over the grid of (x3 of A = coord a, x3 of B = coord b). */
static int measure_two_units(landscape *l, int k)
{
    const gsl_matrix *G = l->G[k];
    size_t n = G->size1, a_ok = 0, b_ok = 0;
    unsigned char *sat_a = malloc(n), *sat_b = malloc(n);
    if (!sat_a || !sat_b) {
        free(sat_a);
        free(sat_b);
        return INVENT_ENOMEM;
    }
    for (size_t r = 0; r < n; r++) {
        a_ok += sat_a[r] = (unsigned char)unit_satisfied(G, r, l->threshold[k], WANTS_POSITIVE);
        b_ok += sat_b[r] = (unsigned char)unit_satisfied(G, r, l->threshold[k], WANTS_NEGATIVE);
    }
    for (size_t b = 0; b < n; b++)
        for (size_t a = 0; a < n; a++)
            gsl_matrix_set(l->state[k], b, a, sat_a[a] + 2 * sat_b[b]);
    free(sat_a);
    free(sat_b);
    double cells = (double)(n * n);
    l->satisfied[k][0] = (double)(a_ok * n) / cells;
    l->satisfied[k][1] = (double)(b_ok * n) / cells;
    l->satisfied[k][2] = (double)(a_ok * b_ok) / cells;
    return INVENT_OK;
}

static int landscape_build(landscape *l, const sizes *s)
{
    int status = INVENT_OK;
    for (int k = 0; k < N_FNS && status == INVENT_OK; k++) {
        l->G[k] = gsl_matrix_alloc(s->grid, s->grid);
        l->state[k] = gsl_matrix_alloc(s->grid, s->grid);
        if (!l->G[k] || !l->state[k])
            return INVENT_ENOMEM;
        status = grid_fill(l->G[k], GRID_HALF_WIDTH, FNS[k], NULL);
        if (status == INVENT_OK) {
            l->threshold[k] = s->large * gsl_matrix_max(l->G[k]);
            status = grid_regions(l->G[k], l->threshold[k], &l->regions[k]);
        }
        if (status == INVENT_OK)
            status = measure_two_units(l, k);
    }
    return status;
}

typedef struct {
    double sum, value;
} sum_value;

static int by_sum(const void *a, const void *b)
{
    double x = ((const sum_value *)a)->sum, y = ((const sum_value *)b)->sum;
    return (x > y) - (x < y);
}

/* G: (n, n) -> walking the grid in order of x1 + x3, the largest drop of G: 0 when G
 * is a non-decreasing function of the sum alone; -1 when out of memory */
static double largest_drop_along_sum(const gsl_matrix *G)
{
    size_t n = G->size1, cells = n * n;
    sum_value *p = malloc(cells * sizeof *p);
    if (!p)
        return -1.0;
    for (size_t k = 0; k < cells; k++) {
        size_t r = k / n, c = k % n;
        p[k].sum = grid_coord(GRID_HALF_WIDTH, n, c) + grid_coord(GRID_HALF_WIDTH, n, r);
        p[k].value = gsl_matrix_get(G, r, c);
    }
    qsort(p, cells, sizeof *p, by_sum);
    double drop = 0.0;
    for (size_t k = 1; k < cells; k++)
        drop = fmax(drop, p[k - 1].value - p[k].value);
    free(p);
    return drop;
}

static void check_level_sets(const invent_opts *o, const landscape *l)
{
    report_section(o, "The additive score is a sum in disguise");
    report_text(o, "Take the one-dimensional case of the additive score, v tanh(w1 x1 + w2 x3) "
                   "with v = w1 = w2 = 1, and compare it on the grid with the plain sum x1 + x3 "
                   "and the product x1 x3. Since tanh only bends the sum without reordering it, "
                   "every level set of tanh(x1 + x3) is a line x1 + x3 = const, exactly as for "
                   "the sum. Walking the grid in order of x1 + x3, a function of the sum alone "
                   "never goes down.");
    double drop_tanh = largest_drop_along_sum(l->G[FN_TANH]);
    double drop_product = largest_drop_along_sum(l->G[FN_PRODUCT]);
    check_at_most("I2", "on the grid, tanh(x1 + x3) never decreases as x1 + x3 grows: its level "
                        "sets are those of the sum (largest drop)",
                  drop_tanh < 0.0 ? NAN : drop_tanh, 1e-12);
    check_at_least("I2", "the product is no function of the sum: along x1 + x3 it drops by "
                         "(largest drop)",
                   drop_product, 1.0);
}

static void check_regions(const invent_opts *o, const sizes *s, const landscape *l)
{
    report_section(o, "Regions of large output");
    report_text(o, "Call an output large when it reaches %.2g times the function's largest "
                   "value on the grid, and count the separate regions (cells joined through "
                   "their four neighbours) where it is:",
                s->large);
    for (int k = 0; k < N_FNS; k++) {
        size_t large = 0;
        for (size_t c = 0; c < s->grid * s->grid; c++)
            large += gsl_matrix_get(l->G[k], c / s->grid, c % s->grid) >= l->threshold[k];
        report_line(o, "  %-14s  large when >= %6.3f   regions: %zu   share of the grid: %5.1f%%",
                    FN_NAMES[k], l->threshold[k], l->regions[k],
                    100.0 * (double)large / (double)(s->grid * s->grid));
    }
    report_line(o, "%s", "");
    check_equal("I3", "the product x1*x3 has two separate regions of large output (both "
                      "positive, both negative)",
                l->regions[FN_PRODUCT], 2);
    check_equal("I3", "the sum x1 + x3 has one", l->regions[FN_SUM], 1);
    check_equal("I3", "and so does tanh(x1 + x3)", l->regions[FN_TANH], 1);
}

static void check_two_units(const invent_opts *o, const landscape *l)
{
    report_section(o, "Two units, one function, opposite needs");
    report_text(o, "Two receiving units read the same token x1 through one and the same score "
                   "function; all that differs between them is their own input x3. Unit A is "
                   "satisfied when its output is large for some x1 and only for x1 > 0; unit B "
                   "when its output is large for some x1 and only for x1 < 0. Every pair of "
                   "inputs (x3 of A, x3 of B) on the grid is tried; the share of pairs where A is "
                   "satisfied, where B is, and where both are (the first two columns include "
                   "the pairs of the third):");
    report_line(o, "  %-14s  %11s  %11s  %8s", "", "A satisfied", "B satisfied", "both");
    for (int k = 0; k < N_FNS; k++)
        report_line(o, "  %-14s  %10.1f%%  %10.1f%%  %7.1f%%", FN_NAMES[k],
                    100.0 * l->satisfied[k][0], 100.0 * l->satisfied[k][1],
                    100.0 * l->satisfied[k][2]);
    report_line(o, "%s", "");
    size_t n = l->G[FN_PRODUCT]->size1;
    check_at_least("I4", "with the product both units can be satisfied at once (share of the "
                         "grid; one point is enough)",
                   l->satisfied[FN_PRODUCT][2], 1.0 / (double)(n * n));
    check_at_most("I4", "with the sum never: it prefers large x1 whatever the unit (share of the "
                        "grid)",
                  l->satisfied[FN_SUM][2], 0.0);
    check_at_most("I4", "nor with tanh(x1 + x3) (share of the grid)", l->satisfied[FN_TANH][2],
                  0.0);
    report_line(o, "%s", "");
    report_text(o, "With a sum, the unit's own input only shifts the output up or down; larger "
                   "x1 always helps. With a product, the sign of the unit's own input decides "
                   "which sign of x1 it wants.");
}

/* G: (n, n) -> a copy divided by its largest |value|, for one colour scale */
static gsl_matrix *normalised(const gsl_matrix *G)
{
    gsl_matrix *N = mat_clone(G);
    if (N)
        gsl_matrix_scale(N, 1.0 / fmax(gsl_matrix_max(G), -gsl_matrix_min(G)));
    return N;
}

/* The figures draw the functions on at most this many points per axis: gnuplot's
 * contours and images cost far more than the measurements on a fine grid. */
enum { FIGURE_GRID = 121 };

/* measured: the grid of the claims (region counts); drawn: the grid of the images */
static void plot_contours(const invent_opts *o, double large, const landscape *measured,
                          const landscape *drawn)
{
    static const char *const REGION_VARS[N_FNS] = {"regions_tanh", "regions_sum",
                                                   "regions_product"};
    plot *p = plot_begin(o, "ch04_contours");
    plot_set(p, "half", GRID_HALF_WIDTH);
    plot_set(p, "n", (double)drawn->G[0]->size1);
    plot_set(p, "large", large);
    for (int k = 0; k < N_FNS; k++) {
        gsl_matrix *N = normalised(drawn->G[k]);
        plot_set(p, REGION_VARS[k], (double)measured->regions[k]);
        plot_block(p, "column  row  value / largest |value|");
        if (N)
            plot_matrix(p, N);
        gsl_matrix_free(N);
    }
    plot_render(p, "ch04_contours.gp");
}

/* measured: the grid of the claims (shares); drawn: the grid of the images */
static void plot_two_units(const invent_opts *o, double large, const landscape *measured,
                           const landscape *drawn)
{
    const gsl_matrix *sum = drawn->state[FN_SUM];
    size_t n = sum->size2;
    /* A's band for the sum can stop one column short of the edge x3 = 3: there
     * x1 = 0 is already large, and 0 is not > 0. The figure says so. */
    int edge_gap = ((int)gsl_matrix_get(sum, 0, n - 2) & 1) &&
                   !((int)gsl_matrix_get(sum, 0, n - 1) & 1);
    plot *p = plot_begin(o, "ch04_two_units");
    plot_set(p, "half", GRID_HALF_WIDTH);
    plot_set(p, "n", (double)n);
    plot_set(p, "large", large);
    plot_set(p, "edge_gap", edge_gap);
    plot_set(p, "both_sum", measured->satisfied[FN_SUM][2]);
    plot_set(p, "both_product", measured->satisfied[FN_PRODUCT][2]);
    plot_block(p, "column (x3 of A)  row (x3 of B)  state: 1 A, 2 B, 3 both");
    plot_matrix(p, sum);
    plot_block(p, "column (x3 of A)  row (x3 of B)  state: 1 A, 2 B, 3 both");
    plot_matrix(p, drawn->state[FN_PRODUCT]);
    plot_render(p, "ch04_two_units.gp");
}

/* The figures, from the measured landscape or, on a fine grid, a coarser copy. */
static int plot_landscape(const invent_opts *o, const sizes *s, const landscape *l)
{
    if (o->no_plot)
        return INVENT_OK;
    if (s->grid <= FIGURE_GRID) {
        plot_contours(o, s->large, l, l);
        plot_two_units(o, s->large, l, l);
        return INVENT_OK;
    }
    report_text(o, "(The figures draw the same functions on %d points per axis; every number "
                   "above comes from the full grid of %zu.)",
                FIGURE_GRID, s->grid);
    sizes coarse = *s;
    coarse.grid = FIGURE_GRID;
    landscape fig = {.G = {NULL}};
    int status = landscape_build(&fig, &coarse);
    if (status == INVENT_OK) {
        plot_contours(o, s->large, l, &fig);
        plot_two_units(o, s->large, l, &fig);
    }
    landscape_free(&fig);
    return status;
}

static int grid_section(const invent_opts *o, const sizes *s)
{
    landscape l = {.G = {NULL}};
    int status = landscape_build(&l, s), dump_failed = 0;
    if (status == INVENT_OK) {
        check_level_sets(o, &l);
        check_regions(o, s, &l);
        check_two_units(o, &l);
        /* dump_matrix reports its own failure: no second message for it */
        dump_failed = dump_matrix(o, "grid_tanh", l.G[FN_TANH]) ||
                      dump_matrix(o, "grid_sum", l.G[FN_SUM]) ||
                      dump_matrix(o, "grid_product", l.G[FN_PRODUCT]);
    }
    if (status == INVENT_OK && !dump_failed)
        status = plot_landscape(o, s, &l);
    landscape_free(&l);
    if (status != INVENT_OK)
        return chapter_fail(o, "measuring on the grid", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

int main(int argc, char **argv)
{
    sizes s = {.seq = 5, .dim = 3, .hidden = 4, .grid = 121, .large = 0.5};
    const cli_option options[] = {
        {"seq", CLI_SIZE, &s.seq, 2, 64, "tokens T in the splitting example"},
        {"dim", CLI_SIZE, &s.dim, 1, 64, "width d of one token in the splitting example"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 64, "hidden units h of its additive score"},
        {"grid", CLI_SIZE, &s.grid, 11, 1001, "points per axis of the grid over [-3, 3]^2"},
        {"large", CLI_DOUBLE, &s.large, 0.05, 0.95,
         "an output is large from this fraction of the function's largest value"},
    };
    const cli_spec spec = {"ch04", "Chapter 4: which function of two tokens lets a unit choose.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    rc = chapter_start(&o, "Chapter 4: which interaction function");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *r = rng_new(o.seed);
    if (!r)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    rc = split_section(&o, &s, r);
    gsl_rng_free(r);
    if (rc == 0)
        rc = grid_section(&o, &s);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "The score that lets each unit choose is a product of the two tokens. "
                    "Chapter 5 writes the most general such product, x_L^T A x_i, and counts "
                    "what it costs to keep its pieces for every past token.");
    return chapter_end();
}
