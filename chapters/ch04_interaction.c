/* Chapter 4: which interaction function.
 *
 * Chapter 3 left each dynamic weight with a handful of scalar functions
 * c(x_i, x_L) of two arguments: the token x_i and the receiving unit's own
 * input x_L. This chapter asks what shape such a function should have. Any
 * function of two arguments splits into a part of x_i alone, a part of x_L
 * alone, and an interaction; the one-argument parts cannot change a
 * receiver's order of preference, which brings back the symmetry of chapter
 * 2, so only the interaction matters (claim I1). One bias-free tanh unit, the
 * simplest additive score (Bahdanau et al., 2015), is barely interacting:
 * its level sets are those of a plain sum (I2). The product is all
 * interaction: it has two separate regions of large output (I3), and so one
 * and the same function can serve two units that need opposite signs of the
 * same input (I4). A few tanh units with biases can do that too; what the
 * product buys is economy, and chapter 12 trains both (I5).
 */
#include <math.h>

#include <gsl/gsl_sort_vector.h>

#include "invent.h"

typedef struct {
    size_t seq;    /* T tokens in the I1 example */
    size_t dim;    /* d: width of one token in the I1 example */
    size_t hidden; /* h: hidden units of its additive score */
    size_t grid;   /* n: points per axis of the [-3, 3]^2 grid */
    double large;  /* q: "large" means at least q times the function's largest value */
} sizes;

#define GRID_HALF_WIDTH 3.0

/* A part of a score that is zero in exact arithmetic comes out of double
 * precision at about 1e-16 times the score's size; anything above this
 * fraction of the largest |score| is really there. */
#define SPLIT_ROUNDING 1e-12

/* Receivers whose orders of preference over the T tokens are compared (I1). */
enum { RECEIVERS = 32 };

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
    return 0;
}

enum { SC_ADDITIVE, SC_SUM, SC_PRODUCT, N_SCORES };
static const char *const SCORE_NAMES[N_SCORES] = {"additive tanh", "plain sum", "product"};

/* A score, its three parts, and what the I1 checks read from them. */
typedef struct {
    gsl_matrix *S, *F, *G, *V; /* (T, T), row j = receiver x_j, column i = token x_i */
    double largest;            /* largest |s| over the sequence */
    double v_share;            /* largest |v| / largest |s| */
    double v_differs;          /* smallest over receiver pairs j, k of the spread over i of
                                * v[j][i] - v[k][i], / largest |s| */
    double disagree;           /* share of (receiver pair, token pair) ordered differently */
} split_table;

/* X: (T, d) -> S, F, G, V over every (receiver j, token i), taken from sc */
static void split_over_sequence(score_fn s, const void *params, const gsl_matrix *X, scope *sc,
                                split_table *t)
{
    size_t T = X->size1;
    const gsl_vector *zero = scope_vector(sc, X->size2); /* the point the split is taken about */
    t->S = scope_matrix(sc, T, T), t->F = scope_matrix(sc, T, T);
    t->G = scope_matrix(sc, T, T), t->V = scope_matrix(sc, T, T);
    for (size_t j = 0; j < T; j++)
        for (size_t i = 0; i < T; i++) {
            gsl_vector_const_view x_i = gsl_matrix_const_row(X, i);
            gsl_vector_const_view x_L = gsl_matrix_const_row(X, j);
            score_parts p;
            chapter_must(s(params, &x_i.vector, &x_L.vector, gsl_matrix_ptr(t->S, j, i)),
                         "scoring a pair of tokens");
            chapter_must(score_split(s, params, &x_i.vector, &x_L.vector, zero, &p), "splitting a score");
            gsl_matrix_set(t->F, j, i, p.f);
            gsl_matrix_set(t->G, j, i, p.g);
            gsl_matrix_set(t->V, j, i, p.v);
        }
}

/* m: (T, T) -> over every two rows j, k, the spread of row j - row k: how far two
 * receivers' scores differ beyond a constant; the smallest such value */
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

/* S: (R, T), row = receiver -> share of (receiver pair, token pair) that the two
 * receivers put in opposite orders */
static double order_disagreement(const gsl_matrix *S)
{
    size_t R = S->size1, T = S->size2, opposite = 0, pairs = 0;
    for (size_t j = 0; j < R; j++)
        for (size_t k = j + 1; k < R; k++)
            for (size_t a = 0; a < T; a++)
                for (size_t b = a + 1; b < T; b++, pairs++) {
                    double dj = gsl_matrix_get(S, j, a) - gsl_matrix_get(S, j, b);
                    double dk = gsl_matrix_get(S, k, a) - gsl_matrix_get(S, k, b);
                    opposite += dj * dk < 0.0;
                }
    return (double)opposite / (double)pairs;
}

/* tokens: (T, d), receivers: (R, d) -> share of orders in which receivers disagree */
static double receivers_disagree(score_fn s, const void *params, const gsl_matrix *tokens,
                                 const gsl_matrix *receivers, scope *sc)
{
    gsl_matrix *S = scope_matrix(sc, receivers->size1, tokens->size1);
    for (size_t j = 0; j < S->size1; j++)
        for (size_t i = 0; i < S->size2; i++) {
            gsl_vector_const_view x_i = gsl_matrix_const_row(tokens, i);
            gsl_vector_const_view x_L = gsl_matrix_const_row(receivers, j);
            chapter_must(s(params, &x_i.vector, &x_L.vector, gsl_matrix_ptr(S, j, i)),
                         "scoring a pair of tokens");
        }
    return order_disagreement(S);
}

/* The split of one score over the sequence, and the numbers I1 reads from it. */
static void measure_split(score_fn s, const void *params, const gsl_matrix *X,
                          const gsl_matrix *receivers, scope *sc, split_table *t)
{
    split_over_sequence(s, params, X, sc, t);
    t->largest = fmax(gsl_matrix_max(t->S), -gsl_matrix_min(t->S));
    t->v_share = fmax(gsl_matrix_max(t->V), -gsl_matrix_min(t->V)) / t->largest;
    t->v_differs = least_pairwise_difference(t->V) / t->largest;
    t->disagree = receivers_disagree(s, params, X, receivers, sc);
}

static void check_split(const invent_opts *o, const split_table t[N_SCORES])
{
    report_line(o, "  %-14s %8s %8s %8s %10s   %s", "", "|f|", "|g|", "|v|", "|v| / |s|",
                "receivers disagree");
    for (int k = 0; k < N_SCORES; k++)
        report_line(o, "  %-14s %8.3f %8.3f %8.3f %10.3f   %17.1f%%", SCORE_NAMES[k],
                    mat_frobenius(t[k].F), mat_frobenius(t[k].G), mat_frobenius(t[k].V),
                    mat_frobenius(t[k].V) / mat_frobenius(t[k].S), 100.0 * t[k].disagree);
    report_line(o, "%s", "");
    check_at_most("I1", "the plain sum u.x_i + w.x_L has no interaction part (largest |v| / "
                        "largest |s|)",
                  t[SC_SUM].v_share, SPLIT_ROUNDING);
    check_control("I1", "the product x_i . x_L");
    check_at_most("I1", NULL, t[SC_PRODUCT].v_share, SPLIT_ROUNDING);
    check_at_most("I1", "without an interaction, no two receivers order any two tokens "
                        "differently: the D1 symmetry is back (share of orders that differ, "
                        "plain sum)",
                  t[SC_SUM].disagree, 0.0);
    check_control("I1", "the product, whose whole score is interaction");
    check_at_most("I1", NULL, t[SC_PRODUCT].disagree, 0.0);
    check_at_least("I1", "the interaction part of the tanh and product scores sets every two "
                         "receivers apart (smallest, over receiver pairs, of the spread of "
                         "v[j][i] - v[k][i] over the tokens i, / largest |s|)",
                   fmin(t[SC_ADDITIVE].v_differs, t[SC_PRODUCT].v_differs), SPLIT_ROUNDING);
    check_control("I1", "the plain sum");
    check_at_least("I1", NULL, t[SC_SUM].v_differs, SPLIT_ROUNDING);
}

static int split_section(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    report_section(o, "Splitting a score of two arguments");
    report_text(o, "Any score s(x_i, x_L) can be written as f(x_i) + g(x_L) + v(x_i, x_L) with "
                   "f(x_i) = s(x_i, 0), g(x_L) = s(0, x_L) - s(0, 0), and v, the interaction, "
                   "whatever is left; v vanishes when either argument is zero. Used as the "
                   "weight from token i into receiver L, f depends on the token alone, which is "
                   "the source-only generator of chapter 2 again, and g adds the same amount to "
                   "every token. f does set an order of preference among the tokens, but the "
                   "same order for every receiver, and g changes no receiver's order: neither "
                   "can make two receivers prefer the tokens in different orders. Only v can. "
                   "Below, T = %zu random tokens of width d = %zu, "
                   "scored three ways: the additive tanh score (h = %zu), a plain sum, and the "
                   "product; the last column compares the orders of preference of %d random "
                   "receivers over the same tokens.",
                s->seq, s->dim, s->hidden, RECEIVERS);
    scope *sc = scope_open();
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(s->seq, s->dim, 1.0, r));
    attn_additive *a = SCOPE_KEEP(sc, attn_additive_new(s->dim, s->hidden, 1.0, r), attn_additive_free);
    linear_sum sum = {scope_vector(sc, s->dim), scope_vector(sc, s->dim)};
    gsl_matrix_view u = gsl_matrix_view_vector(sum.u, 1, s->dim);
    gsl_matrix_view w = gsl_matrix_view_vector(sum.w, 1, s->dim);
    rng_fill_gaussian(&u.matrix, r, 1.0);
    rng_fill_gaussian(&w.matrix, r, 1.0);
    gsl_matrix *receivers = scope_keep_matrix(sc, mat_gaussian(RECEIVERS, s->dim, 1.0, r));
    split_table t[N_SCORES];
    measure_split(score_additive, a, X, receivers, sc, &t[SC_ADDITIVE]);
    measure_split(score_linear_sum, &sum, X, receivers, sc, &t[SC_SUM]);
    measure_split(score_product, NULL, X, receivers, sc, &t[SC_PRODUCT]);
    check_split(o, t);
    int dump_failed = dump_matrix(o, "X", X) || dump_matrix(o, "S_additive", t[SC_ADDITIVE].S) ||
                      dump_matrix(o, "V_additive", t[SC_ADDITIVE].V);
    scope_close(sc);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

/* ------------------------------------------------------------- I2 - I4 */

enum { FN_TANH, FN_SUM, FN_PRODUCT, FN_BIASED, N_FNS };
static const char *const FN_NAMES[N_FNS] = {"tanh(x1 + x3)", "x1 + x3", "x1 * x3",
                                            "4 biased units"};

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

/* Two tanh units with biases +-BIAS and opposite read-outs: a bump, largest
 * at z = 0 and falling with |z| on both sides (width about BIAS / SLOPE). */
#define SLOPE 2.0
#define BIAS 2.0
static double bump(double z)
{
    return tanh(SLOPE * z + BIAS) - tanh(SLOPE * z - BIAS);
}

/* An additive score v . tanh(W1 x1 + W2 x3 + b) with four hidden units, built by
 * hand: bump(x1 - x3) - bump(x1 + x3), positive exactly where x1 x3 > 0. */
static double fn_biased(double x1, double x3, const void *params)
{
    (void)params;
    return bump(x1 - x3) - bump(x1 + x3);
}

static const grid_fn FNS[N_FNS] = {fn_tanh, fn_sum, fn_product, fn_biased};

/* Two units share the token x1; A wants x1 > 0, B wants x1 < 0. */
enum { WANTS_POSITIVE, WANTS_NEGATIVE };

/* The functions on the grid, and what I2 - I4 measure on them. */
typedef struct {
    gsl_matrix *G[N_FNS];       /* (n, n) G[r][c] = s(x1 = coord c, x3 = coord r) */
    gsl_matrix *state[N_FNS];   /* (n, n) I4: 1 A satisfied, 2 B, 3 both, 0 neither */
    double threshold[N_FNS];    /* "large": q times the largest value on the grid */
    size_t regions[N_FNS];      /* separate regions with G >= threshold */
    double satisfied[N_FNS][3]; /* fraction of the (x3_A, x3_B) grid: A, B, both */
    double sign_agrees[N_FNS];  /* share of the grid off the axes where s x1 x3 > 0 */
} landscape;

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
static void measure_two_units(landscape *l, int k, scope *sc)
{
    const gsl_matrix *G = l->G[k];
    size_t n = G->size1, a_ok = 0, b_ok = 0;
    gsl_vector *sat_a = scope_vector(sc, n), *sat_b = scope_vector(sc, n);
    for (size_t r = 0; r < n; r++) {
        gsl_vector_set(sat_a, r, unit_satisfied(G, r, l->threshold[k], WANTS_POSITIVE));
        gsl_vector_set(sat_b, r, unit_satisfied(G, r, l->threshold[k], WANTS_NEGATIVE));
        a_ok += (size_t)gsl_vector_get(sat_a, r);
        b_ok += (size_t)gsl_vector_get(sat_b, r);
    }
    for (size_t b = 0; b < n; b++)
        for (size_t a = 0; a < n; a++)
            gsl_matrix_set(l->state[k], b, a, gsl_vector_get(sat_a, a) + 2 * gsl_vector_get(sat_b, b));
    double cells = (double)(n * n);
    l->satisfied[k][0] = (double)(a_ok * n) / cells;
    l->satisfied[k][1] = (double)(b_ok * n) / cells;
    l->satisfied[k][2] = (double)(a_ok * b_ok) / cells;
}

/* G: (n, n) -> share of the grid points off the axes where G has the sign of x1 x3 */
static double sign_agreement(const gsl_matrix *G)
{
    size_t n = G->size1, agree = 0, off_axes = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++) {
            double x1x3 = grid_coord(GRID_HALF_WIDTH, n, c) * grid_coord(GRID_HALF_WIDTH, n, r);
            off_axes += x1x3 != 0.0;
            agree += gsl_matrix_get(G, r, c) * x1x3 > 0.0;
        }
    return (double)agree / (double)off_axes;
}

/* The functions on an n-point grid, with their matrices taken from sc. */
static void landscape_build(landscape *l, size_t n, double large, scope *sc)
{
    for (int k = 0; k < N_FNS; k++) {
        l->G[k] = scope_matrix(sc, n, n);
        l->state[k] = scope_matrix(sc, n, n);
        chapter_must(grid_fill(l->G[k], GRID_HALF_WIDTH, FNS[k], NULL), "filling the grid");
        l->threshold[k] = large * gsl_matrix_max(l->G[k]);
        chapter_must(grid_regions(l->G[k], l->threshold[k], &l->regions[k]),
                     "counting regions of large output");
        measure_two_units(l, k, sc);
        l->sign_agrees[k] = sign_agreement(l->G[k]);
    }
}

/* G: (n, n) -> walking the grid in order of x1 + x3, the largest drop of G: 0 when G
 * is a non-decreasing function of the sum alone */
static double largest_drop_along_sum(const gsl_matrix *G, scope *sc)
{
    size_t n = G->size1, cells = n * n;
    gsl_vector *sum = scope_vector(sc, cells), *value = scope_vector(sc, cells);
    for (size_t k = 0; k < cells; k++) {
        size_t r = k / n, c = k % n;
        gsl_vector_set(sum, k, grid_coord(GRID_HALF_WIDTH, n, c) + grid_coord(GRID_HALF_WIDTH, n, r));
        gsl_vector_set(value, k, gsl_matrix_get(G, r, c));
    }
    gsl_sort_vector2(sum, value);
    double drop = 0.0;
    for (size_t k = 1; k < cells; k++)
        drop = fmax(drop, gsl_vector_get(value, k - 1) - gsl_vector_get(value, k));
    return drop;
}

static void check_level_sets(const invent_opts *o, const landscape *l, scope *sc)
{
    report_section(o, "One tanh unit is a sum in disguise");
    report_text(o, "Take the one-dimensional case of the additive score with one hidden unit "
                   "and no bias, v tanh(w1 x1 + w2 x3) with v = w1 = w2 = 1, and compare it on "
                   "the grid with the plain sum x1 + x3 and the product x1 x3. Since tanh only "
                   "bends the sum without reordering it, every level set of tanh(x1 + x3) is a "
                   "line x1 + x3 = const, exactly as for the sum. Walking the grid in order of "
                   "x1 + x3, a function of the sum alone never goes down.");
    check_at_most("I2", "on the grid, tanh(x1 + x3) never decreases as x1 + x3 grows: its level "
                        "sets are those of the sum (largest drop)",
                  largest_drop_along_sum(l->G[FN_TANH], sc), 1e-12);
    check_control("I2", "the product x1 x3");
    check_at_most("I2", NULL, largest_drop_along_sum(l->G[FN_PRODUCT], sc), 1e-12);
}

static void check_regions(const invent_opts *o, const sizes *s, const landscape *l)
{
    report_section(o, "Regions of large output");
    report_text(o, "Call an output large when it reaches %.2g times the function's largest "
                   "value on the grid, and count the separate regions (cells joined through "
                   "their four neighbours) where it is. The last row is an additive score too, "
                   "with four tanh units and biases, built by hand: bump(x1 - x3) - bump(x1 + "
                   "x3), where bump(z) = tanh(%g z + %g) - tanh(%g z - %g) is two units with "
                   "opposite biases.",
                s->large, SLOPE, BIAS, SLOPE, BIAS);
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
    check_control("I3", "tanh(x1 + x3)");
    check_equal("I3", NULL, l->regions[FN_TANH], 2);
    check_equal("I3", "the sum x1 + x3 has one", l->regions[FN_SUM], 1);
    check_control("I3", "the product");
    check_equal("I3", NULL, l->regions[FN_PRODUCT], 1);
    check_equal("I3", "and so does one bias-free tanh unit, tanh(x1 + x3)", l->regions[FN_TANH], 1);
    check_control("I3", "four tanh units with biases");
    check_equal("I3", NULL, l->regions[FN_BIASED], 1);
}

static void print_two_units(const invent_opts *o, const landscape *l)
{
    report_line(o, "  %-14s  %11s  %11s  %8s  %12s", "", "A satisfied", "B satisfied", "both",
                "sign of x1x3");
    for (int k = 0; k < N_FNS; k++)
        report_line(o, "  %-14s  %10.1f%%  %10.1f%%  %7.1f%%  %11.1f%%", FN_NAMES[k],
                    100.0 * l->satisfied[k][0], 100.0 * l->satisfied[k][1],
                    100.0 * l->satisfied[k][2], 100.0 * l->sign_agrees[k]);
    report_line(o, "%s", "");
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
                   "the pairs of the third). The last column is the share of the grid, off the "
                   "axes, where the function has the sign of x1 x3 (sign agreement):");
    print_two_units(o, l);
    size_t n = l->G[FN_PRODUCT]->size1;
    check_at_least("I4", "with the product both units can be satisfied at once (share of the "
                         "grid; one point is enough)",
                   l->satisfied[FN_PRODUCT][2], 1.0 / (double)(n * n));
    check_control("I4", "the sum x1 + x3");
    check_at_least("I4", NULL, l->satisfied[FN_SUM][2], 1.0 / (double)(n * n));
    check_at_most("I4", "with the sum never: it prefers large x1 whatever the unit (share of the "
                        "grid)",
                  l->satisfied[FN_SUM][2], 0.0);
    check_control("I4", "the product");
    check_at_most("I4", NULL, l->satisfied[FN_PRODUCT][2], 0.0);
    check_at_most("I4", "nor with one bias-free tanh unit, tanh(x1 + x3) (share of the grid)",
                  l->satisfied[FN_TANH][2], 0.0);
    check_control("I4", "four tanh units with biases");
    check_at_most("I4", NULL, l->satisfied[FN_BIASED][2], 0.0);
}

static void narrate_what_the_product_buys(const invent_opts *o, const landscape *l)
{
    report_line(o, "%s", "");
    report_text(o, "With a sum, the unit's own input only shifts the output up or down; larger "
                   "x1 always helps. With a product, the sign of the unit's own input decides "
                   "which sign of x1 it wants.");
    report_text(o, "So the additive score fails here only in its simplest form. One tanh unit "
                   "without a bias is an odd function, s(-x1, -x3) = -s(x1, x3), while sign "
                   "agreement is even; an odd function has the sign of x1 x3 on at most half "
                   "of a symmetric grid (%.1f%% for tanh(x1 + x3)); the same bound holds for "
                   "any number of bias-free units, since a sum of odd functions is odd. With "
                   "biases and a few hidden units, "
                   "v . tanh(W1 x_i + W2 x_L + b) represents sign agreement: the four units "
                   "above have the sign of x1 x3 on %.1f%% of the grid and satisfy both units "
                   "on %.1f%% of it. Chapter 12 trains additive scores with and without a bias "
                   "on sign agreement and measures what each reaches (claim I5).",
                100.0 * l->sign_agrees[FN_TANH], 100.0 * l->sign_agrees[FN_BIASED],
                100.0 * l->satisfied[FN_BIASED][2]);
    report_text(o, "What the product buys is economy, not a power the additive score lacks. "
                   "One product term does what took four hand-built tanh units with biases "
                   "here: no hidden layer is needed. Per pair of tokens it costs one "
                   "multiply-add per coordinate, d in all, and has no parameters; the additive "
                   "score, even with W1 x_i and W2 x_L computed once per token, costs h "
                   "additions, h tanh and h multiply-adds per pair, with h large enough to "
                   "bend the sum into a product. And the products of all pairs at once are "
                   "one matrix product, the operation computers do fastest.");
}

/* G: (n, n) -> a copy divided by its largest |value|, for one colour scale */
static gsl_matrix *normalised(const gsl_matrix *G, scope *sc)
{
    gsl_matrix *N = scope_keep_matrix(sc, mat_clone(G));
    gsl_matrix_scale(N, 1.0 / fmax(gsl_matrix_max(G), -gsl_matrix_min(G)));
    return N;
}

/* The figures draw the functions on at most this many points per axis: gnuplot's
 * contours and images cost far more than the measurements on a fine grid. */
enum { FIGURE_GRID = 121 };

/* measured: the grid of the claims (region counts); drawn: the grid of the images */
static void plot_contours(const invent_opts *o, double large, const landscape *measured,
                          const landscape *drawn, scope *sc)
{
    static const char *const REGION_VARS[N_FNS] = {"regions_tanh", "regions_sum",
                                                   "regions_product", "regions_biased"};
    plot *p = plot_begin(o, "ch04_contours");
    plot_set(p, "half", GRID_HALF_WIDTH);
    plot_set(p, "n", (double)drawn->G[0]->size1);
    plot_set(p, "large", large);
    for (int k = 0; k < N_FNS; k++) {
        plot_set(p, REGION_VARS[k], (double)measured->regions[k]);
        plot_block(p, "column  row  value / largest |value|");
        plot_matrix(p, normalised(drawn->G[k], sc));
    }
    plot_render(p, "ch04_contours.gp");
}

/* measured: the grid of the claims (shares); drawn: the grid of the images */
static void plot_two_units(const invent_opts *o, double large, const landscape *measured,
                           const landscape *drawn)
{
    static const char *const BOTH_VARS[N_FNS] = {"both_tanh", "both_sum", "both_product",
                                                 "both_biased"};
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
    for (int k = 0; k < N_FNS; k++)
        plot_set(p, BOTH_VARS[k], measured->satisfied[k][2]);
    plot_block(p, "column (x3 of A)  row (x3 of B)  state: 1 A, 2 B, 3 both");
    plot_matrix(p, sum);
    plot_block(p, "column (x3 of A)  row (x3 of B)  state: 1 A, 2 B, 3 both");
    plot_matrix(p, drawn->state[FN_PRODUCT]);
    plot_block(p, "column (x3 of A)  row (x3 of B)  state: 1 A, 2 B, 3 both");
    plot_matrix(p, drawn->state[FN_BIASED]);
    plot_render(p, "ch04_two_units.gp");
}

/* The figures, from the measured landscape or, on a fine grid, a coarser copy. */
static void plot_landscape(const invent_opts *o, const sizes *s, const landscape *l, scope *sc)
{
    if (o->no_plot)
        return;
    const landscape *drawn = l;
    landscape coarse;
    if (s->grid > FIGURE_GRID) {
        report_text(o, "(The figures draw the same functions on %d points per axis; every "
                       "number above comes from the full grid of %zu.)",
                    FIGURE_GRID, s->grid);
        landscape_build(&coarse, FIGURE_GRID, s->large, sc);
        drawn = &coarse;
    }
    plot_contours(o, s->large, l, drawn, sc);
    plot_two_units(o, s->large, l, drawn);
}

static int grid_section(const invent_opts *o, const sizes *s)
{
    scope *sc = scope_open();
    landscape l;
    landscape_build(&l, s->grid, s->large, sc);
    check_level_sets(o, &l, sc);
    check_regions(o, s, &l);
    check_two_units(o, &l);
    narrate_what_the_product_buys(o, &l);
    int dump_failed = dump_matrix(o, "grid_tanh", l.G[FN_TANH]) ||
                      dump_matrix(o, "grid_sum", l.G[FN_SUM]) ||
                      dump_matrix(o, "grid_product", l.G[FN_PRODUCT]) ||
                      dump_matrix(o, "grid_biased", l.G[FN_BIASED]);
    if (!dump_failed)
        plot_landscape(o, s, &l, sc);
    scope_close(sc);
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
    int rc = chapter_begin(argc, argv, &spec, &o, "Chapter 4: which interaction function");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    rc = split_section(&o, &s, scope_keep_rng(sc, rng_new(o.seed)));
    scope_close(sc);
    if (rc == 0)
        rc = grid_section(&o, &s);
    return chapter_close(&o, rc,
                         "The score that lets each unit choose, at the least cost, is a product "
                         "of the two tokens. Chapter 5 writes the most general such product, "
                         "x_L^T A x_i, and counts what it costs to keep its pieces for every "
                         "past token.");
}
