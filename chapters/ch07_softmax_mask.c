/* Chapter 7: normalising over the sequence.
 *
 * Chapter 6 gave scores; a layer needs weights. Chapter 3 wrote the dynamic
 * weight as a sum over score functions ("heads") of c_j(x_i, x_L) V_j, and
 * the output as a sum of that over positions i. Swapping the two sums (an
 * identity) shows that each head takes a weighted sum over the positions.
 * Normalised over the positions, each head's weights sum to 1 and its sum
 * stays bounded as the sequence grows; normalised over the heads, they do
 * not, and it grows (claim S1), as any unnormalised weighted sum does (S6).
 * Normalising has a price, the dilution the article this derivation follows
 * points out: each irrelevant token takes some weight from the relevant one.
 * With near-uniform scores the softmax dilutes as plain normalisation does;
 * with peaked scores it keeps the relevant token's weight (S8). The
 * softmax with a temperature does that normalisation (S2), and the scores are
 * divided by sqrt(r) because the variance of q . k grows as r: without the
 * division the softmax saturates as r grows and its gradient vanishes (S7). A
 * causal mask keeps each token from reading later ones; written as one matrix
 * product, softmax(Q K^T + M) V, it gives the per-position sums exactly (S3)
 * at the price of computing scores that the mask throws away (S4). Computed
 * with the largest score subtracted, the softmax survives scores far outside
 * the range of exp (S5).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "flag_given.h"
#include "invent.h"

typedef struct {
    size_t tokens, dim, rank, heads;
} sizes;

typedef struct {
    gsl_matrix *X;            /* (T, d) tokens */
    gsl_matrix *Wq, *Wk, *Wv; /* (r, d) queries, keys; (d, d) values */
} example;

/* sizes -> tokens x_i ~ N(0, I) and projections; W_q and W_k have entries of
 * standard deviation 2 / sqrt(d), so that queries and keys have variance 4
 * and the scaled scores q . k / sqrt(r) a standard deviation of 4: spread
 * enough that the softmax at tau = 1 is neither uniform nor one-hot */
static example example_new(scope *sc, const sizes *s, gsl_rng *r)
{
    double sigma = 1.0 / sqrt((double)s->dim);
    example m;
    m.X = scope_keep_matrix(sc, mat_gaussian(s->tokens, s->dim, 1.0, r));
    m.Wq = scope_keep_matrix(sc, mat_gaussian(s->rank, s->dim, 2.0 * sigma, r));
    m.Wk = scope_keep_matrix(sc, mat_gaussian(s->rank, s->dim, 2.0 * sigma, r));
    m.Wv = scope_keep_matrix(sc, mat_gaussian(s->dim, s->dim, sigma, r));
    return m;
}

/* ---------------------------------------------------------------- S1 */

/* x_L: (d), H random A_j: (d, d) -> Q: (H, d), row j the query q_j = A_j^T x_L,
 * so that the score of head j at position i is c_ij = x_L^T A_j x_i = q_j . x_i;
 * entries of A_j of standard deviation 1/d give scores of unit variance */
static void head_queries(scope *sc, const gsl_vector *xL, gsl_rng *r, gsl_matrix *Q)
{
    size_t d = Q->size2;
    for (size_t j = 0; j < Q->size1; j++) {
        gsl_matrix *A = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / (double)d, r));
        gsl_vector_view q = gsl_matrix_row(Q, j);
        gsl_blas_dgemv(CblasTrans, 1.0, A, xL, 0.0, &q.vector);
    }
}

/* X: (T, d), Q: (H, d) -> W: (H, T), the scores c_ij with each head's row
 * normalised by a softmax over the positions, or each position's column over
 * the heads; Wt: (T, H) scratch */
static void head_weights(const gsl_matrix *X, const gsl_matrix *Q, int over_heads, gsl_matrix *W,
                         gsl_matrix *Wt)
{
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, Q, X, 0.0, W);
    if (!over_heads) {
        chapter_must(softmax_rows(W, 1.0), "normalising over the positions");
        return;
    }
    gsl_matrix_transpose_memcpy(Wt, W);
    chapter_must(softmax_rows(Wt, 1.0), "normalising over the heads");
    gsl_matrix_transpose_memcpy(W, Wt);
}

/* W: (H, T) -> the largest |sum_i w_ji - 1| over the heads j; sums[0], sums[1]
 * the smallest and the largest head's sum */
static double head_sum_error(const gsl_matrix *W, double sums[2])
{
    double worst = 0.0;
    sums[0] = INFINITY;
    sums[1] = -INFINITY;
    for (size_t j = 0; j < W->size1; j++) {
        double sum = 0.0;
        for (size_t i = 0; i < W->size2; i++)
            sum += gsl_matrix_get(W, j, i);
        worst = fmax(worst, fabs(sum - 1.0));
        sums[0] = fmin(sums[0], sum);
        sums[1] = fmax(sums[1], sum);
    }
    return worst;
}

enum { HEAD_POINTS = 8, HEAD_DRAWS = 4096 }; /* T = 4, 8, .. 512 */

/* T, Q: (H, d) -> root mean square norm of the heads' weighted sums u_j =
 * sum_i w_ji x_i over HEAD_DRAWS / T draws (at least 8) of T fresh tokens
 * x_i ~ N(0, I): norms[0] with the weights normalised over the positions,
 * norms[1] over the heads */
static void head_sum_norms(size_t T, const gsl_matrix *Q, gsl_rng *r, double norms[2])
{
    size_t H = Q->size1, d = Q->size2, draws = HEAD_DRAWS / T > 8 ? HEAD_DRAWS / T : 8;
    scope *sc = scope_open();
    gsl_matrix *X = scope_matrix(sc, T, d), *W = scope_matrix(sc, H, T);
    gsl_matrix *Wt = scope_matrix(sc, T, H), *U = scope_matrix(sc, H, d);
    double sq[2] = {0.0, 0.0};
    for (size_t k = 0; k < draws; k++) {
        rng_fill_gaussian(X, r, 1.0);
        for (int over_heads = 0; over_heads < 2; over_heads++) {
            head_weights(X, Q, over_heads, W, Wt);
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, W, X, 0.0, U); /* row j: u_j */
            sq[over_heads] += mat_frobenius(U) * mat_frobenius(U);
        }
    }
    for (int f = 0; f < 2; f++)
        norms[f] = sqrt(sq[f] / (double)(draws * H));
    scope_close(sc);
}

/* S1, first half: whose weights sum to 1, at the example's T tokens. */
static void head_sums(const invent_opts *o, const gsl_matrix *X, const gsl_matrix *Q)
{
    size_t T = X->size1, H = Q->size1;
    scope *sc = scope_open();
    gsl_matrix *W = scope_matrix(sc, H, T), *Wt = scope_matrix(sc, T, H);
    double positions[2], heads[2], err_positions, err_heads;
    head_weights(X, Q, 0, W, Wt);
    err_positions = head_sum_error(W, positions);
    double tol = rounding_tolerance(T, W);
    head_weights(X, Q, 1, W, Wt);
    err_heads = head_sum_error(W, heads);
    report_line(o, "  each head's weights, summed over the %zu positions:", T);
    report_line(o, "    normalised over the positions: from %.6f to %.6f", positions[0],
                positions[1]);
    report_line(o, "    normalised over the heads:     from %.6f to %.6f (together T = %zu)",
                heads[0], heads[1], T);
    report_line(o, "%s", "");
    check_at_most("S1", "normalised over the positions, each head's weights sum to 1 (largest "
                        "|sum - 1| over the heads)", err_positions, tol);
    check_control("S1", "weights normalised over the heads, each position's summing to 1");
    check_at_most("S1", NULL, err_heads, tol);
    scope_close(sc);
}

/* S1, second half: a head's weighted sum against T, both normalisations. */
static void head_growth(const invent_opts *o, const gsl_matrix *Q, gsl_rng *r, double *slope)
{
    report_line(o, "%s", "");
    report_text(o, "A head whose weights do not sum to 1 adds up more of its inputs the more "
                   "positions there are. Root mean square norm of u_j over the heads and over "
                   "%d/T draws (at least 8) of T fresh tokens, x_L kept, and the exponent p of "
                   "norm ~ T^p fitted on a log-log scale:", HEAD_DRAWS);
    double Ts[HEAD_POINTS], norms[2][HEAD_POINTS];
    report_line(o, "        T   over the positions   over the heads");
    for (int k = 0; k < HEAD_POINTS; k++) {
        double both[2];
        Ts[k] = 4.0 * pow(2.0, k);
        head_sum_norms((size_t)Ts[k], Q, r, both);
        norms[0][k] = both[0];
        norms[1][k] = both[1];
        report_line(o, "  %7.0f   %18.3f   %14.3f", Ts[k], both[0], both[1]);
    }
    for (int f = 0; f < 2; f++)
        chapter_must(growth_exponent(Ts, norms[f], HEAD_POINTS, &slope[f]), "fitting");
    report_line(o, "  fitted p   %18.3f   %14.3f", slope[0], slope[1]);
    report_line(o, "%s", "");
    check_at_most("S1", "normalised over the positions, a head's weighted sum stays bounded as "
                        "T grows: fitted exponent at most 1/4, half a random walk's",
                  slope[0], 0.25);
    check_control("S1", "normalised over the heads");
    check_at_most("S1", NULL, slope[1], 0.25);
    report_line(o, "%s", "");
}

/* At most 16 heads: the growth of S1 scores 16 x 4096 tokens of up to 256
 * numbers for each of its 8 lengths. */
#define MAX_HEADS 16

/* S1: a head's weights are normalised over the positions, not over the heads. */
static void heads_section(const invent_opts *o, const example *m, size_t H, gsl_rng *r)
{
    size_t T = m->X->size1, d = m->X->size2;
    report_section(o, "Over positions, not over heads");
    report_text(o, "Chapter 3 built the weight from input x_i as a sum over H score functions "
                   "(heads), sum_j c_ij V_j, and the output of the last token x_L as those "
                   "weights applied to every x_i and summed over the positions: sum_i sum_j "
                   "c_ij V_j x_i. A finite double sum does not depend on its order, so this is "
                   "also sum_j V_j u_j with u_j = sum_i c_ij x_i: each head first forms a "
                   "weighted sum of the positions, then maps it with its own V_j. That regrouping "
                   "is an identity, true of any coefficients; it shows what a head computes, "
                   "not how to normalise. Normalising is a choice: a softmax of c_ij over the "
                   "heads j, so that each position's weights sum to 1, or over the positions i, "
                   "so that each head's do. Here H = %zu, T = %zu tokens of size d = %zu, and "
                   "scores c_ij = x_L^T A_j x_i of unit variance (A_j random):", H, T, d);
    scope *sc = scope_open();
    gsl_matrix *Q = scope_matrix(sc, H, d);
    gsl_vector_const_view xL = gsl_matrix_const_row(m->X, T - 1);
    head_queries(sc, &xL.vector, r, Q);
    head_sums(o, m->X, Q);
    double slope[2];
    head_growth(o, Q, r, slope);
    report_text(o, "Normalised over the heads, a head's weights add up to T/H on average, and "
                   "its sum grows with T, %s the unnormalised sums of the next section (S6), "
                   "whose exponent is that of a random walk, 1/2: here T^%.2f.%s Normalised "
                   "over the positions, each head takes a weighted "
                   "average, which can exceed no token's norm: it falls while the average "
                   "smooths the noise, and where a few large scores dominate (small d) it creeps "
                   "up slowly, with the largest of T tokens, about sqrt(2 log T) per coordinate.",
                slope[1] > 0.6 ? "faster than" : slope[1] > 0.4 ? "about as fast as" : "slower than",
                slope[1], slope[1] > 0.6 ? " The weights over the heads depend on the tokens: a "
                                           "head takes more of the tokens that point along its "
                                           "own query, so part of its sum adds up in step, as "
                                           "T, not as sqrt(T)." : "");
    scope_close(sc);
}

/* ---------------------------------------------------------------- S6 */

enum { GROWTH_POINTS = 9, GROWTH_DIM = 16, GROWTH_DRAWS = 8192 }; /* T = 4, 8, .. 1024 */

/* T -> root mean square norms of sum_i w_i v_i over draws of T values
 * v_i ~ N(0, I) (noise) and scores s_i ~ N(0, 1): norms[0] with w_i =
 * exp(s_i), unnormalised; norms[1] with w = softmax(s) */
static void weighted_sums(size_t T, gsl_rng *r, double norms[2])
{
    size_t draws = GROWTH_DRAWS / T > 16 ? GROWTH_DRAWS / T : 16;
    scope *sc = scope_open();
    gsl_matrix *V = scope_matrix(sc, T, GROWTH_DIM), *S = scope_matrix(sc, 1, T);
    gsl_vector *y = scope_vector(sc, GROWTH_DIM), *w = scope_vector(sc, T);
    gsl_vector_view s = gsl_matrix_row(S, 0);
    double sq[2] = {0.0, 0.0};
    for (size_t k = 0; k < draws; k++) {
        rng_fill_gaussian(V, r, 1.0);
        rng_fill_gaussian(S, r, 1.0);
        for (int normalise = 0; normalise < 2; normalise++) {
            gsl_vector_memcpy(w, &s.vector);
            if (normalise)
                chapter_must(softmax_vector(w, 1.0), "normalising");
            else
                for (size_t i = 0; i < T; i++)
                    gsl_vector_set(w, i, exp(gsl_vector_get(w, i)));
            gsl_blas_dgemv(CblasTrans, 1.0, V, w, 0.0, y);
            sq[normalise] += gsl_blas_dnrm2(y) * gsl_blas_dnrm2(y);
        }
    }
    norms[0] = sqrt(sq[0] / (double)draws);
    norms[1] = sqrt(sq[1] / (double)draws);
    scope_close(sc);
}

/* Ts: (GROWTH_POINTS), norms: [2][GROWTH_POINTS], slope: [2] -> the figure of S6 */
static void plot_growth(const invent_opts *o, const double *Ts, double norms[][GROWTH_POINTS],
                        const double *slope)
{
    plot *p = plot_begin(o, "ch07_growth");
    plot_set(p, "slope_raw", slope[0]);
    plot_set(p, "slope_soft", slope[1]);
    plot_block(p, "T  rms_norm_unnormalised  rms_norm_softmax");
    for (int k = 0; k < GROWTH_POINTS; k++)
        PLOT_ROW(p, Ts[k], norms[0][k], norms[1][k]);
    plot_render(p, "ch07_growth.gp");
}

/* S6: an unnormalised weighted sum grows with T, a softmax-weighted one not. */
static void growth_section(const invent_opts *o, gsl_rng *r)
{
    report_section(o, "Why normalise: sums that grow with the length");
    report_text(o, "Each head adds up the values of every position it reads. With weights "
                   "that are not normalised, here w_i = exp(s_i) for scores s_i ~ N(0, 1), the "
                   "sum of T noisy values (v_i ~ N(0, I), d = %d) grows with T like a random "
                   "walk. With softmax weights, which sum to 1, it is an average and does not "
                   "grow. Root mean square norms over %d/T draws (at least 16), and the "
                   "exponent p of norm ~ T^p fitted on a log-log scale:", GROWTH_DIM,
                GROWTH_DRAWS);
    double Ts[GROWTH_POINTS], norms[2][GROWTH_POINTS], slope[2];
    report_line(o, "        T   unnormalised   softmax-weighted");
    for (int k = 0; k < GROWTH_POINTS; k++) {
        double both[2];
        Ts[k] = 4.0 * pow(2.0, k);
        weighted_sums((size_t)Ts[k], r, both);
        norms[0][k] = both[0];
        norms[1][k] = both[1];
        report_line(o, "  %7.0f   %12.3f   %16.4f", Ts[k], both[0], both[1]);
    }
    for (int f = 0; f < 2; f++)
        chapter_must(growth_exponent(Ts, norms[f], GROWTH_POINTS, &slope[f]), "fitting");
    report_line(o, "  fitted p   %12.3f   %16.3f", slope[0], slope[1]);
    report_line(o, "%s", "");
    check_at_least("S6", "the unnormalised weighted sum grows with T (fitted exponent, 1/2 for "
                         "a random walk)", slope[0], 0.3);
    check_control("S6", "the softmax-weighted sum");
    check_at_least("S6", NULL, slope[1], 0.3);
    check_at_most("S6", "the softmax-weighted sum stays bounded (fitted exponent at most 0.1)",
                  slope[1], 0.1);
    check_control("S6", "the unnormalised sum");
    check_at_most("S6", NULL, slope[0], 0.1);
    plot_growth(o, Ts, norms, slope);
}

/* ---------------------------------------------------------------- S8 */

enum { DILUTION_POINTS = 10, DILUTION_DRAWS = 256 }; /* T = 2, 4, .. 1024 */

#define IRRELEVANT 1.0     /* the irrelevant tokens' scores: IRRELEVANT +- NOISE */
#define NOISE 0.1
#define NEAR_UNIFORM 1.2   /* the relevant token's score, a little above them */
#define PEAKED 10.0        /* ... or far above them */

/* T, the relevant token's score -> its weight w_0, mean over draws of the T - 1
 * irrelevant scores s_i ~ IRRELEVANT + NOISE z: weight[0] normalised plainly,
 * s_0 / sum_i s_i (every score is positive), weight[1] by the softmax */
static void relevant_weight(size_t T, double relevant, gsl_rng *r, double weight[2])
{
    scope *sc = scope_open();
    gsl_vector *s = scope_vector(sc, T);
    weight[0] = weight[1] = 0.0;
    for (int k = 0; k < DILUTION_DRAWS; k++) {
        gsl_vector_set(s, 0, relevant);
        for (size_t i = 1; i < T; i++)
            gsl_vector_set(s, i, IRRELEVANT + gsl_ran_gaussian(r, NOISE));
        weight[0] += relevant / gsl_blas_dasum(s) / DILUTION_DRAWS;
        chapter_must(softmax_vector(s, 1.0), "the softmax");
        weight[1] += gsl_vector_get(s, 0) / DILUTION_DRAWS;
    }
    scope_close(sc);
}

/* The relevant token's weight over T: [score][form], score 0 near-uniform,
 * 1 peaked; form 0 plain normalisation, 1 softmax. */
typedef struct {
    double T[DILUTION_POINTS];
    double weight[2][2][DILUTION_POINTS];
    double slope[2][2]; /* fitted p of weight ~ T^p */
} dilution;

/* z -> the figure of S8 */
static void plot_dilution(const invent_opts *o, const dilution *z)
{
    plot *p = plot_begin(o, "ch07_dilution");
    plot_set(p, "near_uniform", NEAR_UNIFORM);
    plot_set(p, "peaked", PEAKED);
    plot_set(p, "irrelevant", IRRELEVANT);
    plot_set(p, "p_uniform_plain", z->slope[0][0]);
    plot_set(p, "p_uniform_soft", z->slope[0][1]);
    plot_set(p, "p_peaked_plain", z->slope[1][0]);
    plot_set(p, "p_peaked_soft", z->slope[1][1]);
    plot_block(p, "T  uniform_plain  uniform_softmax  peaked_plain  peaked_softmax");
    for (int k = 0; k < DILUTION_POINTS; k++)
        PLOT_ROW(p, z->T[k], z->weight[0][0][k], z->weight[0][1][k], z->weight[1][0][k],
                 z->weight[1][1][k]);
    plot_render(p, "ch07_dilution.gp");
}

/* z -> S8's three checks, each with its control */
static void dilution_checks(const dilution *z)
{
    check_at_most("S8", "a relevant token's weight falls as irrelevant tokens are added: with "
                        "near-uniform scores, under the softmax, about as 1/T (fitted exponent "
                        "at most -0.9)", z->slope[0][1], -0.9);
    check_control("S8", "peaked scores");
    check_at_most("S8", NULL, z->slope[1][1], -0.9);
    check_close("S8", "with near-uniform scores the softmax dilutes the relevant token as plain "
                      "normalisation does: the fitted exponents of its weight against T agree",
                z->slope[0][1], z->slope[0][0], 0.05);
    check_control("S8", "peaked scores, where the two forms part");
    check_close("S8", NULL, z->slope[1][1], z->slope[1][0], 0.05);
    check_at_least("S8", "with peaked scores the softmax keeps the relevant token's weight: "
                         "fitted exponent at least -0.1 (-1 is full dilution, as 1/T)",
                   z->slope[1][1], -0.1);
    check_control("S8", "plain normalisation of the same peaked scores");
    check_at_least("S8", NULL, z->slope[1][0], -0.1);
}

/* S8: the article's dilution argument, over T, both forms. */
static void dilution_section(const invent_opts *o, gsl_rng *r)
{
    report_section(o, "What normalising costs: dilution");
    report_text(o, "Normalising has a price, which the article this derivation follows points "
                   "out: every irrelevant token adds some weight of its own, so the more of them "
                   "there are, the less is left for the one token that matters. Here one "
                   "relevant token scores %.1f, a little above (near-uniform scores), or %.0f, "
                   "far above (peaked scores), T - 1 irrelevant ones that score %.0f +- %.1f. "
                   "Plain normalisation gives it s_0 / sum_i s_i; the softmax exp(s_0) / sum_i "
                   "exp(s_i). Its weight, mean over %d draws, and the exponent p of weight ~ T^p "
                   "fitted on a log-log scale:", NEAR_UNIFORM, PEAKED, IRRELEVANT, NOISE,
                DILUTION_DRAWS);
    dilution z;
    const double relevant[2] = {NEAR_UNIFORM, PEAKED};
    report_line(o, "                near-uniform scores        peaked scores");
    report_line(o, "        T      plain    softmax          plain    softmax");
    for (int k = 0; k < DILUTION_POINTS; k++) {
        z.T[k] = pow(2.0, k + 1);
        for (int f = 0; f < 2; f++) {
            double w[2];
            relevant_weight((size_t)z.T[k], relevant[f], r, w);
            z.weight[f][0][k] = w[0];
            z.weight[f][1][k] = w[1];
        }
        report_line(o, "  %7.0f   %8.4f   %8.4f       %8.4f   %8.4f", z.T[k], z.weight[0][0][k],
                    z.weight[0][1][k], z.weight[1][0][k], z.weight[1][1][k]);
    }
    for (int f = 0; f < 2; f++)
        for (int form = 0; form < 2; form++)
            chapter_must(growth_exponent(z.T, z.weight[f][form], DILUTION_POINTS,
                                         &z.slope[f][form]), "fitting");
    report_line(o, "  fitted p  %8.3f   %8.3f       %8.3f   %8.3f", z.slope[0][0], z.slope[0][1],
                z.slope[1][0], z.slope[1][1]);
    report_line(o, "%s", "");
    dilution_checks(&z);
    report_text(o, "So the dilution is real for plain normalisation at any scores, and for "
                   "the softmax where the scores barely tell the tokens apart. The softmax "
                   "escapes it where they do: it turns a difference of scores into a ratio of weights, e^%.0f "
                   "= %.0f here, so a relevant token keeps most of its weight until about that "
                   "many irrelevant ones are added (%.2f of it at T = %.0f), where plain "
                   "normalisation needs a score T times the others'.", PEAKED - IRRELEVANT,
                exp(PEAKED - IRRELEVANT), z.weight[1][1][DILUTION_POINTS - 1],
                z.T[DILUTION_POINTS - 1]);
    plot_dilution(o, &z);
}

/* ---------------------------------------------------------------- S2 */

#define N_TAU 81 /* tau = 10^-2 .. 10^2, 20 points a decade */

/* k in 0 .. N_TAU - 1 -> the k-th tau of the grid */
static double tau_at(int k) { return pow(10.0, -2.0 + k / 20.0); }

/* s: (T), tau -> w: (T) = softmax(s / tau) */
static void soften(const gsl_vector *s, double tau, gsl_vector *w)
{
    gsl_vector_memcpy(w, s);
    chapter_must(softmax_vector(w, tau), "taking the softmax");
}

/* s: (T), tau -> w = softmax(s / tau) and its distance to the one-hot of the
 * largest score: the sum of the other weights, 1 - max_i w_i */
static double to_onehot(const gsl_vector *s, double tau, gsl_vector *w)
{
    size_t top = gsl_vector_max_index(s);
    soften(s, tau, w);
    double rest = 0.0;
    for (size_t i = 0; i < w->size; i++)
        rest += i == top ? 0.0 : gsl_vector_get(w, i);
    return rest;
}

/* s: (T), tau -> w = softmax(s / tau) and its distance to uniform weights,
 * max_i |w_i - 1/T| */
static double to_uniform(const gsl_vector *s, double tau, gsl_vector *w)
{
    soften(s, tau, w);
    double worst = 0.0;
    for (size_t i = 0; i < w->size; i++)
        worst = fmax(worst, fabs(gsl_vector_get(w, i) - 1.0 / (double)w->size));
    return worst;
}

typedef double (*distance_fn)(const gsl_vector *s, double tau, gsl_vector *w);

/* s: (T) -> the tau between lo and hi at which distance(s, tau) crosses eps,
 * by bisection on log tau; NAN when it does not cross between them */
static double crossing(distance_fn distance, const gsl_vector *s, gsl_vector *w, double lo,
                       double hi, double eps)
{
    int near_lo = distance(s, lo, w) <= eps;
    if (near_lo == (distance(s, hi, w) <= eps))
        return NAN;
    for (int k = 0; k < 100; k++) {
        double mid = sqrt(lo * hi);
        if ((distance(s, mid, w) <= eps) == near_lo)
            lo = mid;
        else
            hi = mid;
    }
    return sqrt(lo * hi);
}

/* s: (T) -> the largest |sum_i exp((s_i - max s) / tau) - 1| over the tau grid:
 * the exponentials of S5's shifted scores, not divided by their sum */
static double unnormalised_sum_error(const gsl_vector *s)
{
    double worst = 0.0, top = gsl_vector_max(s);
    for (int k = 0; k < N_TAU; k++) {
        double sum = 0.0;
        for (size_t i = 0; i < s->size; i++)
            sum += exp((gsl_vector_get(s, i) - top) / tau_at(k));
        worst = fmax(worst, fabs(sum - 1.0));
    }
    return worst;
}

/* A position and its score, to list positions from the largest score down. */
typedef struct {
    double score;
    size_t pos;
} ranked;

/* qsort order: larger score first */
static int by_score_down(const void *a, const void *b)
{
    double x = ((const ranked *)a)->score, y = ((const ranked *)b)->score;
    return (x < y) - (x > y);
}

enum { MAX_TOKENS = 512, NAMED_LINES = 7 }; /* the figure names the 7 largest scores */

/* s: (T) scores, w: (T) scratch, tau_scaled = sqrt(r) -> the two figures of S2 */
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
    for (size_t k = 0; k < T; k++) {
        plot_block(p, "tau  weight_of_this_position  score (blocks from the largest score down)");
        for (int j = 0; j < N_TAU; j++) {
            soften(s, tau_at(j), w);
            PLOT_ROW(p, tau_at(j), gsl_vector_get(w, order[k].pos), order[k].score);
        }
    }
    plot_block(q, "tau  entropy_nats");
    for (int k = 0; k < N_TAU; k++) {
        soften(s, tau_at(k), w);
        PLOT_ROW(q, tau_at(k), softmax_entropy(w));
    }
    plot_render(p, "ch07_temperature.gp");
    plot_render(q, "ch07_entropy.gp");
}

/* s: (T) -> whether, along the tau grid, the largest weight of softmax(s / tau)
 * never rises and the entropy never falls; `inverted`: the temperature
 * multiplied in, softmax(tau s), the control */
static int moves_steadily(const gsl_vector *s, gsl_vector *w, int inverted)
{
    double prev_top = INFINITY, prev_entropy = 0.0;
    int monotone = 1;
    for (int k = 0; k < N_TAU; k++) {
        soften(s, inverted ? 1.0 / tau_at(k) : tau_at(k), w);
        double largest = gsl_vector_max(w), entropy = softmax_entropy(w);
        monotone &= largest <= prev_top + 1e-15 && entropy >= prev_entropy - 1e-15;
        prev_top = largest;
        prev_entropy = entropy;
    }
    return monotone;
}

/* s: (T) the scores -> the tau grid's table; S2's checks along it */
static void temperature_grid(const invent_opts *o, const gsl_vector *s, gsl_vector *w)
{
    double worst_sum = 0.0;
    report_line(o, "     tau   largest weight   entropy (nats)");
    for (int k = 0; k < N_TAU; k++) {
        soften(s, tau_at(k), w);
        worst_sum = fmax(worst_sum, fabs(gsl_blas_dasum(w) - 1.0)); /* w >= 0 */
        if (k % 20 == 0)
            report_line(o, "  %6.4g   %14.4f   %14.4f", tau_at(k), gsl_vector_max(w),
                        softmax_entropy(w));
    }
    report_line(o, "%s", "");
    check_at_most("S2", "the weights sum to 1 at every tau from 0.01 to 100 (largest |sum - 1|)",
                  worst_sum, 1e-14);
    check_control("S2", "the exponentials exp((s_i - max s) / tau), not divided by their sum");
    check_at_most("S2", NULL, unnormalised_sum_error(s), 1e-14);
    int steady = moves_steadily(s, w, 0), inverted = moves_steadily(s, w, 1);
    check_true("S2", "along the tau grid, the weights move steadily from one-hot to uniform",
               steady, steady ? "the largest weight falls and the entropy rises with tau"
                              : "not monotone in tau");
    check_control("S2", "the temperature multiplied in, exp(tau s_i), the slip of writing tau "
                        "for 1/tau");
    check_true("S2", NULL, inverted, inverted ? "the largest weight falls and the entropy rises"
                                              : "the largest weight rises with tau");
}

#define COLD_EPS 1e-9 /* how close to one-hot counts as reached */
#define HOT_EPS 1e-6  /* how close to 1/T, relative to 1/T, counts as uniform */

/* s: (T) scores -> a new vector s ln 2, owned by sc: its softmax is 2^(s_i / tau)
 * normalised, the softmax in base 2 without the factor log2(e) that a base-2
 * kernel multiplies in (the controls of S2's limits) */
static gsl_vector *base2_scores(scope *sc, const gsl_vector *s)
{
    gsl_vector *b = scope_vector(sc, s->size);
    gsl_vector_memcpy(b, s);
    gsl_vector_scale(b, M_LN2);
    return b;
}

#define BASE2_CONTROL "the softmax in base 2, 2^(s_i / tau), without the factor log2(e) that " \
                      "chapter 11's kernels multiply in"

/* S2, tau -> 0: the tau at which the weights come within COLD_EPS of the
 * one-hot, against the gap between the two largest scores. */
static void cold_limit(const invent_opts *o, const gsl_vector *s, gsl_vector *w)
{
    size_t T = s->size, top = gsl_vector_max_index(s), second = top ? 0 : 1;
    for (size_t i = 0; i < T; i++)
        if (i != top && gsl_vector_get(s, i) > gsl_vector_get(s, second))
            second = i;
    double gap = gsl_vector_get(s, top) - gsl_vector_get(s, second);
    double predicted = gap / log(1.0 / COLD_EPS);
    double tau = crossing(to_onehot, s, w, predicted / 1e3, predicted * 1e3, COLD_EPS);
    scope *sc = scope_open();
    double tau_base2 = crossing(to_onehot, base2_scores(sc, s), w, predicted / 1e3,
                                predicted * 1e3, COLD_EPS);
    /* T - 1 other scores, each at least the gap below, can only pull tau down */
    double tol = log((double)(T - 1)) / (log(1.0 / COLD_EPS) + log((double)(T - 1))) + 1e-6;
    report_line(o, "  tau -> 0: within 1e-9 of the one-hot at tau = %.4g; predicted from the gap "
                   "between the two largest scores, gap / ln(10^9) = %.4g", tau, predicted);
    report_line(o, "%s", "");
    check_close("S2", "tau -> 0: the tau at which the weights come within 1e-9 of the one-hot of "
                      "the largest score, over gap / ln(10^9) (ratio; the tolerance grows with T)",
                tau / predicted, 1.0, tol);
    check_control("S2", BASE2_CONTROL);
    check_close("S2", NULL, tau_base2 / predicted, 1.0, tol);
    scope_close(sc);
}

/* S2, tau -> infinity: the tau at which the weights come within HOT_EPS / T
 * of 1/T, against the first-order prediction max_i |s_i - mean s| / HOT_EPS,
 * and the entropy there; the control of the entropy masks the lowest score. */
static void hot_limit(const invent_opts *o, const gsl_vector *s, gsl_vector *w)
{
    size_t T = s->size;
    double mean = gsl_stats_mean(s->data, s->stride, T), spread = 0.0;
    for (size_t i = 0; i < T; i++)
        spread = fmax(spread, fabs(gsl_vector_get(s, i) - mean));
    double predicted = spread / HOT_EPS, eps = HOT_EPS / (double)T;
    double tau = crossing(to_uniform, s, w, predicted / 1e3, predicted * 1e3, eps);
    soften(s, tau, w);
    double entropy = softmax_entropy(w);
    scope *sc = scope_open();
    double tau_base2 = crossing(to_uniform, base2_scores(sc, s), w, predicted / 1e3,
                                predicted * 1e3, eps);
    gsl_vector *masked = scope_vector(sc, T);
    gsl_vector_memcpy(masked, s);
    gsl_vector_set(masked, gsl_vector_min_index(s), -INFINITY);
    soften(masked, tau, w);
    double entropy_masked = softmax_entropy(w);
    report_line(o, "  tau -> infinity: within 10^-6 / T of 1/T at tau = %.6g; predicted to first "
                   "order, max |s_i - mean s| / 10^-6 = %.6g", tau, predicted);
    report_line(o, "%s", "");
    check_close("S2", "tau -> infinity: the tau at which every weight comes within 10^-6 / T of 1/T, "
                      "over the first-order prediction (ratio)", tau / predicted, 1.0, 1e-4);
    check_control("S2", BASE2_CONTROL);
    check_close("S2", NULL, tau_base2 / predicted, 1.0, 1e-4);
    check_close("S2", "... and there the entropy reaches log T, its largest possible value",
                entropy, log((double)T), 1e-9);
    check_control("S2", "one position masked, score -infinity: log(T - 1) at most");
    check_close("S2", NULL, entropy_masked, log((double)T), 1e-9);
    scope_close(sc);
}

/* S2 on the last token's scores against all T positions. */
static void temperature_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, r = m->Wq->size1;
    scope *sc = scope_open();
    gsl_matrix *S = scope_matrix(sc, T, T), *Q = scope_matrix(sc, T, r), *K = scope_matrix(sc, T, r);
    gsl_vector *s = scope_vector(sc, T), *w = scope_vector(sc, T);
    chapter_must(factor_scores(m->X, m->Wq, m->Wk, Q, K, S), "computing the scores");
    gsl_matrix_get_row(s, S, T - 1);
    report_section(o, "Softmax, and its temperature");
    report_text(o, "The softmax turns scores s_i into weights exp(s_i / tau) / sum_j exp(s_j / "
                   "tau): positive, summing to one, larger for larger scores. The temperature "
                   "tau sets how sharp the choice is. Cold (tau -> 0) it picks the largest score "
                   "alone; hot (tau -> infinity) it spreads evenly. The scores below are the "
                   "last token's, against all %zu positions.", T);
    temperature_grid(o, s, w);
    report_line(o, "%s", "");
    report_text(o, "How fast each limit comes can be predicted. Cold, every other weight is at "
                   "most exp(-gap / tau) times the largest, the gap being that between the two "
                   "largest scores: the weights should come within 10^-9 of the one-hot near "
                   "tau = gap / ln(10^9). Hot, each weight is (1 + (s_i - mean s) / tau) / T to "
                   "first order: they should come within 10^-6 / T of 1/T near tau = "
                   "max |s_i - mean s| / 10^-6. Each tau is found by bisection on the softmax "
                   "itself:");
    cold_limit(o, s, w);
    hot_limit(o, s, w);
    plot_temperature(o, s, w, sqrt((double)m->Wq->size1));
    scope_close(sc);
}

/* ---------------------------------------------------------------- S7 */

enum { SCALE_POINTS = 11, SCALE_KEYS = 64, SCALE_QUERIES = 64 }; /* r = 1, 2, .. 1024 */

/* What the softmax does with q . k as r grows; [0] the raw scores, [1]
 * scaled by 1/sqrt(r). */
typedef struct {
    double r[SCALE_POINTS];
    double var[2][SCALE_POINTS];      /* variance of the score */
    double entropy[2][SCALE_POINTS];  /* mean entropy of the weights (nats) */
    double jacobian[2][SCALE_POINTS]; /* median ||d w / d s||_F over the queries */
    double jacobian_mean[SCALE_POINTS]; /* its mean, raw scores only */
} saturation;

/* z->r[k] = r -> column k of z: SCALE_QUERIES queries q ~ N(0, I_r), each
 * against SCALE_KEYS fresh keys k ~ N(0, I_r) */
static void saturation_at(int k, gsl_rng *rng, saturation *z)
{
    size_t r = (size_t)z->r[k];
    scope *sc = scope_open();
    gsl_matrix *K = scope_matrix(sc, SCALE_KEYS, r), *Q = scope_matrix(sc, 1, r);
    gsl_vector *s = scope_vector(sc, SCALE_KEYS), *w = scope_vector(sc, SCALE_KEYS);
    gsl_vector_view q = gsl_matrix_row(Q, 0);
    double sq = 0.0, n = (double)(SCALE_QUERIES * SCALE_KEYS), J[2][SCALE_QUERIES];
    z->entropy[0][k] = z->entropy[1][k] = 0.0;
    for (int j = 0; j < SCALE_QUERIES; j++) {
        rng_fill_gaussian(K, rng, 1.0);
        rng_fill_gaussian(Q, rng, 1.0);
        gsl_blas_dgemv(CblasNoTrans, 1.0, K, &q.vector, 0.0, s);
        sq += gsl_blas_dnrm2(s) * gsl_blas_dnrm2(s); /* q . k has mean 0 */
        for (int f = 0; f < 2; f++) {
            gsl_vector_memcpy(w, s);
            chapter_must(softmax_vector(w, f ? sqrt((double)r) : 1.0), "taking the softmax");
            z->entropy[f][k] += softmax_entropy(w) / SCALE_QUERIES;
            J[f][j] = softmax_jacobian_norm(w);
        }
    }
    z->jacobian_mean[k] = gsl_stats_mean(J[0], 1, SCALE_QUERIES);
    for (int f = 0; f < 2; f++) {
        gsl_sort(J[f], 1, SCALE_QUERIES);
        z->jacobian[f][k] = gsl_stats_median_from_sorted_data(J[f], 1, SCALE_QUERIES);
    }
    z->var[0][k] = sq / n;
    z->var[1][k] = sq / n / (double)r;
    scope_close(sc);
}

/* v: (SCALE_POINTS) -> (max - min) / max: 0 for a flat curve */
static double spread(const double *v)
{
    double lo = v[0], hi = v[0];
    for (int k = 1; k < SCALE_POINTS; k++) {
        lo = fmin(lo, v[k]);
        hi = fmax(hi, v[k]);
    }
    return (hi - lo) / hi;
}

/* the larger of the two ratios, value at the largest r / value at r = 1 */
static double fall(const saturation *z, int f)
{
    int last = SCALE_POINTS - 1;
    return fmax(z->entropy[f][last] / z->entropy[f][0], z->jacobian[f][last] / z->jacobian[f][0]);
}

/* z: the measurements over r, slope: [2] fitted -> the figure of S7 */
static void plot_scale(const invent_opts *o, const saturation *z, const double *slope)
{
    plot *p = plot_begin(o, "ch07_scale");
    plot_set(p, "slope_raw", slope[0]);
    plot_set(p, "slope_scaled", slope[1]);
    plot_set(p, "keys", SCALE_KEYS);
    plot_block(p, "r  var_raw  var_scaled  entropy_raw  entropy_scaled  jacobian_raw  jacobian_scaled");
    for (int k = 0; k < SCALE_POINTS; k++)
        PLOT_ROW(p, z->r[k], z->var[0][k], z->var[1][k], z->entropy[0][k], z->entropy[1][k],
                 z->jacobian[0][k], z->jacobian[1][k]);
    plot_render(p, "ch07_scale.gp");
}

/* z, slope: [2] -> S7's three checks, each with its control */
static void scale_checks(const saturation *z, const double *slope)
{
    check_close("S7", "the variance of q . k grows as r (fitted slope near 1)", slope[0], 1.0, 0.1);
    check_control("S7", "the scores divided by sqrt(r)");
    check_close("S7", NULL, slope[1], 1.0, 0.1);
    check_at_most("S7", "without the scale the softmax saturates: from r = 1 to r = 1024 the "
                        "entropy and the median Jacobian norm fall below a tenth (larger ratio)",
                  fall(z, 0), 0.1);
    check_control("S7", "with the 1/sqrt(r) scale");
    check_at_most("S7", NULL, fall(z, 1), 0.1);
    double flat[2] = {fmax(spread(z->entropy[1]), spread(z->jacobian[1])),
                      fmax(spread(z->entropy[0]), spread(z->jacobian[0]))};
    check_at_most("S7", "with the scale both stay flat: (max - min) / max over r at most 1/3 "
                        "(1 would be a fall to 0)", flat[0], 1.0 / 3.0);
    check_control("S7", "without the scale");
    check_at_most("S7", NULL, flat[1], 1.0 / 3.0);
}

/* S7: why the scores are divided by sqrt(r). */
static void scale_section(const invent_opts *o, gsl_rng *rng)
{
    report_section(o, "Why divide by sqrt(r)");
    report_text(o, "Queries and keys of r numbers with unit variance give scores q . k, sums "
                   "of r products of unit variance: their variance is r. The larger r, the "
                   "farther apart the scores, and the softmax of scores far apart is nearly "
                   "one-hot: its entropy falls toward 0, and its Jacobian d w / d s = diag(w) - "
                   "w w^T, through which every gradient reaches the scores, first grows while "
                   "the weights sharpen, then falls toward 0 as well. Dividing "
                   "by sqrt(r) (Vaswani et al., 2017) brings the variance back to 1 at every r. "
                   "It is a temperature tau = sqrt(r), chosen for this reason. Measured with %d "
                   "queries against %d keys each; ||J|| is the Jacobian's Frobenius norm, "
                   "sqrt(sum_ij J_ij^2), shown as its median over the queries (the typical query) "
                   "and, for the raw scores, its mean:", SCALE_QUERIES, SCALE_KEYS);
    saturation z;
    report_line(o, "      r   var(q . k)   entropy: raw  scaled   median ||J||: raw    scaled   "
                   "mean ||J||: raw");
    for (int k = 0; k < SCALE_POINTS; k++) {
        z.r[k] = pow(2.0, k);
        saturation_at(k, rng, &z);
        report_line(o, "  %5.0f   %10.2f   %12.3f  %6.3f   %17.2e  %8.2e   %15.2e", z.r[k],
                    z.var[0][k], z.entropy[0][k], z.entropy[1][k], z.jacobian[0][k],
                    z.jacobian[1][k], z.jacobian_mean[k]);
    }
    double slope[2];
    for (int f = 0; f < 2; f++)
        chapter_must(growth_exponent(z.r, z.var[f], SCALE_POINTS, &slope[f]), "fitting");
    report_line(o, "  fitted slope of the variance: %.3f raw, %.3f scaled", slope[0], slope[1]);
    report_line(o, "%s", "");
    scale_checks(&z, slope);
    int last = SCALE_POINTS - 1;
    double mean_fall = z.jacobian_mean[last] / z.jacobian_mean[0];
    if (mean_fall < 0.1)
        report_text(o, "The mean ||J|| without the scale falls below a tenth as well, to %.2f "
                       "of its value at r = 1.", mean_fall);
    else
        report_text(o, "What is claimed is the typical query's gradient, the median. The mean "
                       "||J|| without the scale falls only to %.2f of its value from r = 1 to "
                       "r = %.0f: the few queries whose two largest scores happen to lie close "
                       "keep a sizeable Jacobian (1/2 for an exact tie of two) at any r. "
                       "Without the scale, most queries lose their gradient and a few keep it; "
                       "with it, all keep it.", mean_fall, z.r[last]);
    plot_scale(o, &z, slope);
}

/* ---------------------------------------------------------------- S3, S4 */

typedef struct {
    gsl_matrix *Q, *K, *V; /* (T, r), (T, r), (T, d) */
} qkv;

/* m -> Q = X W_q^T: (T, r), K = X W_k^T: (T, r), V = X W_v^T: (T, d) */
static qkv qkv_of(scope *sc, const example *m)
{
    qkv p;
    p.Q = scope_keep_matrix(sc, mat_product(m->X, CblasNoTrans, m->Wq, CblasTrans));
    p.K = scope_keep_matrix(sc, mat_product(m->X, CblasNoTrans, m->Wk, CblasTrans));
    p.V = scope_keep_matrix(sc, mat_product(m->X, CblasNoTrans, m->Wv, CblasTrans));
    return p;
}

/* W: (T, T) causal weights -> the figure of S3 and S4 */
static void plot_heatmap(const invent_opts *o, const gsl_matrix *W)
{
    plot *p = plot_begin(o, "ch07_causal");
    plot_set(p, "T", (double)W->size1);
    plot_block(p, "key_position  query_position  weight");
    plot_matrix(p, W);
    plot_render(p, "ch07_causal.gp");
}

enum { EDGE_ROWS = 4 }; /* the S3 table shows this many first and last positions */

/* a, b: (T, d) the two forms' outputs -> the table of S3, first and last
 * positions only */
static void print_per_position(const invent_opts *o, const gsl_matrix *a, const gsl_matrix *b)
{
    size_t T = a->size1;
    report_line(o, "  position t   visible positions   max |sum form - matrix form|");
    for (size_t t = 0; t < T; t++) {
        if (t == EDGE_ROWS && T > 2 * EDGE_ROWS)
            report_line(o, "  %10s   (%zu positions left out)", "...", T - 2 * EDGE_ROWS);
        if (t >= EDGE_ROWS && t + EDGE_ROWS < T)
            continue;
        gsl_matrix_const_view ra = gsl_matrix_const_submatrix(a, t, 0, 1, a->size2);
        gsl_matrix_const_view rb = gsl_matrix_const_submatrix(b, t, 0, 1, b->size2);
        report_line(o, "  %10zu   %17zu   %.3g", t, t + 1,
                    mat_max_abs_diff(&ra.matrix, &rb.matrix));
    }
    report_line(o, "%s", "");
}

/* W: (T, T) -> how many weights are exactly zero */
static uint64_t zero_weights(const gsl_matrix *W)
{
    uint64_t n = 0;
    for (size_t t = 0; t < W->size1; t++)
        for (size_t i = 0; i < W->size2; i++)
            n += gsl_matrix_get(W, t, i) == 0.0;
    return n;
}

/* S3: the per-position sums are the masked matrix form; S4 on its weights. */
static void forms_section(const invent_opts *o, const example *m)
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
    scope *sc = scope_open();
    qkv p = qkv_of(sc, m);
    gsl_matrix *sum = scope_matrix(sc, T, d), *mat = scope_matrix(sc, T, d);
    gsl_matrix *open = scope_matrix(sc, T, d), *W = scope_matrix(sc, T, T);
    gsl_vector *scores = scope_vector(sc, T);
    chapter_must(attn_sum_form(p.Q, p.K, p.V, scale, ATTN_CAUSAL, scores, sum), "the sum form");
    chapter_must(attn_forward(p.Q, p.K, p.V, scale, ATTN_BIDIRECTIONAL, W, open), "no mask");
    chapter_must(attn_forward(p.Q, p.K, p.V, scale, ATTN_CAUSAL, W, mat), "the matrix form");
    chapter_dump(o, "X", m->X);
    chapter_dump(o, "W_q", m->Wq);
    chapter_dump(o, "W_k", m->Wk);
    chapter_dump(o, "W_v", m->Wv);
    chapter_dump(o, "output", mat);
    chapter_dump(o, "weights", W);
    print_per_position(o, sum, mat);
    double tol = rounding_tolerance(T + r, p.V);
    check_matrix_close("S3", "the per-position sums equal softmax(Q K^T / sqrt(r) + M) V with a "
                             "causal mask, at every position", sum, mat, tol);
    check_control("S3", "the matrix form without the mask");
    check_matrix_close("S3", NULL, open, sum, tol);
    plot_heatmap(o, W);
    scope_close(sc);
}

/* qsort order: smaller first */
static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* T -> how many of the T^2 entries a causal mask sets to -infinity, counted;
 * with `strict`, the diagonal masked too (no token reads itself) */
static uint64_t count_masked(size_t T, int strict)
{
    scope *sc = scope_open();
    gsl_matrix *S = scope_matrix(sc, T, T);
    chapter_must(mask_causal(S), "masking");
    for (size_t t = 0; strict && t < T; t++)
        gsl_matrix_set(S, t, t, -INFINITY);
    uint64_t masked = 0;
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i < T; i++)
            masked += gsl_matrix_get(S, t, i) == -INFINITY;
    scope_close(sc);
    return masked;
}

/* S4: the matrix form computes T^2 scores and the mask discards T(T-1)/2. */
static void waste_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1;
    report_section(o, "What the matrix form wastes");
    report_text(o, "The matrix form as written computes all T^2 scores, and the mask then "
                   "discards those above the diagonal, T(T-1)/2 of them: for long sequences, "
                   "half the scores. Fast kernels keep its large matrix products but skip the "
                   "blocks of scores that the mask hides entirely (chapter 11's kernels do), "
                   "and a model that writes one token at a time scores only that token's row "
                   "against its cache (chapter 5), never the masked part.");
    report_line(o, "       T          scores          masked   wasted fraction");
    size_t Ts[5] = {2, 16, 128, 512}, n = 4;
    if (T != 2 && T != 16 && T != 128 && T != 512)
        Ts[n++] = T;
    qsort(Ts, n, sizeof Ts[0], by_size);
    int agree = 1, strict_agrees = 1;
    for (size_t k = 0; k < n; k++) {
        uint64_t masked = count_masked(Ts[k], 0), t = Ts[k];
        agree &= masked == t * (t - 1) / 2;
        strict_agrees &= count_masked(Ts[k], 1) == t * (t - 1) / 2;
        report_line(o, "  %6llu   %13llu   %13llu   %.6f", (unsigned long long)t,
                    (unsigned long long)(t * t), (unsigned long long)masked,
                    (double)masked / (double)(t * t));
    }
    report_line(o, "%s", "");
    check_true("S4", "the causal mask discards T(T-1)/2 of the T^2 scores (counted on the masked "
                     "matrix for T = 2, 16, 128, 512 and the chosen T)",
               agree, agree ? "every count equals T(T-1)/2" : "a count differs from T(T-1)/2");
    check_control("S4", "a strict mask that hides the diagonal too, so no token reads itself");
    check_true("S4", NULL, strict_agrees, strict_agrees ? "every count equals T(T-1)/2"
                                                        : "the counts are T(T+1)/2");
    scope *sc = scope_open();
    qkv p = qkv_of(sc, m);
    gsl_matrix *W = scope_matrix(sc, T, T), *open = scope_matrix(sc, T, T);
    double scale = 1.0 / sqrt((double)m->Wq->size1);
    chapter_must(attn_weights(p.Q, p.K, scale, ATTN_CAUSAL, W), "the causal weights");
    chapter_must(attn_weights(p.Q, p.K, scale, ATTN_BIDIRECTIONAL, open), "the open weights");
    uint64_t wasted = zero_weights(W);
    report_line(o, "%s", "");
    report_text(o, "In the attention of the previous section, %llu of the %zu x %zu weights are "
                   "exactly zero: a fraction %.4f of the scores was computed for nothing.",
                (unsigned long long)wasted, T, T, (double)wasted / (double)(T * T));
    check_equal("S4", "the causal attention's weights: exactly T(T-1)/2 are zero (counted)",
                wasted, (uint64_t)T * (T - 1) / 2);
    check_control("S4", "attention without the mask");
    check_equal("S4", NULL, zero_weights(open), (uint64_t)T * (T - 1) / 2);
    scope_close(sc);
}

/* ---------------------------------------------------------------- S5 */

/* w: (n) -> whether every entry is finite; *sum gets their sum */
static int all_finite(const gsl_vector *w, double *sum)
{
    int finite = 1;
    *sum = 0.0;
    for (size_t i = 0; i < w->size; i++) {
        finite &= isfinite(gsl_vector_get(w, i));
        *sum += gsl_vector_get(w, i);
    }
    return finite;
}

/* w: (n) scores -> w: (n) weights exp(s_i - c) / sum_j exp(s_j - c), with
 * c = max s when `shifted`, else c = 0: the softmax as first written down,
 * with no care for infinities (the controls of S5) */
static void textbook_softmax(gsl_vector *w, int shifted)
{
    double c = shifted ? gsl_vector_max(w) : 0.0, total = 0.0;
    for (size_t i = 0; i < w->size; i++) {
        gsl_vector_set(w, i, exp(gsl_vector_get(w, i) - c));
        total += gsl_vector_get(w, i);
    }
    for (size_t i = 0; i < w->size; i++) /* divided, so that inf / inf is NaN */
        gsl_vector_set(w, i, gsl_vector_get(w, i) / total);
}

/* s: (n) scores -> e: (n), e_i = exp(s_i - max s), not divided by their sum */
static void shifted_exponentials(const double *s, double *e, size_t n)
{
    double top = s[0];
    for (size_t i = 1; i < n; i++)
        top = fmax(top, s[i]);
    for (size_t i = 0; i < n; i++)
        e[i] = exp(s[i] - top);
}

/* v: (n) -> sum_i v_i */
static double sum_of(const double *v, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return sum;
}

#define CLIP 700.0 /* exp(700) ~ 1e304, still a double */

/* s: (n) scores -> w: (n), the softmax of the scores clipped to [-CLIP, CLIP]:
 * no overflow, weights that sum to 1, and ties where the scores differed */
static void clipped_softmax(const double *s, double *w, size_t n)
{
    gsl_vector_view v = gsl_vector_view_array(w, n);
    for (size_t i = 0; i < n; i++)
        w[i] = fmax(-CLIP, fmin(CLIP, s[i]));
    chapter_must(softmax_vector(&v.vector, 1.0), "the clipped softmax");
}

/* S5: scores of +-1e4, with the largest subtracted and without. */
static void huge_scores(const invent_opts *o)
{
    enum { N = 6 };
    const double scores[N] = {1e4, -1e4, 1e4 - 1.0, 0.0, -1e4, 5e3};
    double weights[N], naive[N], sum = NAN, naive_sum = NAN;
    gsl_vector_const_view s = gsl_vector_const_view_array(scores, N);
    gsl_vector_view w = gsl_vector_view_array(weights, N), v = gsl_vector_view_array(naive, N);
    gsl_vector_memcpy(&v.vector, &s.vector);
    textbook_softmax(&v.vector, 0);
    report_text(o, "exp(10^4) is far beyond the largest double (about 1.8 x 10^308): it is "
                   "infinity, and the naive softmax exp(s_i) / sum_j exp(s_j) divides infinity "
                   "by infinity: the first weight comes out as %s. Subtracting the row's largest "
                   "score first changes no weight, since the factor exp(-max) cancels, and "
                   "leaves exponents <= 0, which cannot overflow.",
                isnan(naive[0]) ? "NaN, not a number" : "a number");
    gsl_vector_memcpy(&w.vector, &s.vector);
    chapter_must(softmax_vector(&w.vector, 1.0), "taking the softmax");
    int finite = all_finite(&w.vector, &sum);
    report_line(o, "  scores  1e4, -1e4, 1e4 - 1, 0, -1e4, 5e3");
    report_line(o, "  weights %.6g, %.3g, %.6g, %.3g, %.3g, %.3g", weights[0], weights[1],
                weights[2], weights[3], weights[4], weights[5]);
    report_line(o, "%s", "");
    check_true("S5", "scores of +-1e4 give finite weights", finite,
               finite ? "every weight is a finite number" : "a weight is NaN or infinite");
    check_control("S5", "the naive softmax, exp(s_i) / sum_j exp(s_j)");
    check_true("S5", NULL, all_finite(&v.vector, &naive_sum),
               isnan(naive[0]) ? "the first weight is NaN" : "every weight is finite");
    double shifted[N], clipped[N];
    shifted_exponentials(scores, shifted, N);
    check_close("S5", "... that sum to 1", sum, 1.0, 1e-15);
    check_control("S5", "the exponentials exp(s_i - max s), not divided by their sum");
    check_close("S5", NULL, sum_of(shifted, N), 1.0, 1e-15);
    clipped_softmax(scores, clipped, N);
    report_line(o, "  clipped to +-%.0f first: weights %.6g, %.3g, %.6g, %.3g, %.3g, %.6g (sum %.15g)",
                CLIP, clipped[0], clipped[1], clipped[2], clipped[3], clipped[4], clipped[5],
                sum_of(clipped, N));
    report_line(o, "%s", "");
    check_close("S5", "... and are right: the two top scores, 1 apart, share 1/(1+e^-1) and "
                      "e^-1/(1+e^-1)", weights[0], 1.0 / (1.0 + exp(-1.0)), 1e-15);
    check_control("S5", "scores clipped to +-700 before the softmax, a common guard against "
                        "overflow: finite, summing to 1, and wrong");
    check_close("S5", NULL, clipped[0], 1.0 / (1.0 + exp(-1.0)), 1e-15);
}

/* S5: a row in which every score is masked. */
static void masked_row(const invent_opts *o)
{
    report_line(o, "%s", "");
    report_text(o, "A row in which every entry is masked (it can happen with padding, or a "
                   "window that excludes the token itself) has no position to attend to. The "
                   "library defines its weights as all zero, so its output is the zero vector. "
                   "The shifted softmax as first written would subtract the largest score, "
                   "-infinity, from -infinity, which is NaN.");
    double row[] = {-INFINITY, -INFINITY, -INFINITY}, naive[] = {-INFINITY, -INFINITY, -INFINITY};
    gsl_vector_view w = gsl_vector_view_array(row, 3), v = gsl_vector_view_array(naive, 3);
    chapter_must(softmax_vector(&w.vector, 1.0), "a fully masked row");
    textbook_softmax(&v.vector, 1);
    int zero = row[0] == 0.0 && row[1] == 0.0 && row[2] == 0.0;
    int naive_zero = naive[0] == 0.0 && naive[1] == 0.0 && naive[2] == 0.0;
    check_true("S5", "a fully masked row gets all-zero weights, no NaN", zero,
               zero ? "weights 0, 0, 0" : "weights are not all zero");
    check_control("S5", "the shifted softmax as first written, exp(s_i - max s) / sum_j");
    check_true("S5", NULL, naive_zero,
               isnan(naive[0]) ? "weights NaN, from -infinity minus -infinity"
                               : naive_zero ? "weights 0, 0, 0" : "weights are not all zero");
}

/* Q: (T, r), K: (T, r), V: (T, d) -> out: (T, d), causal attention with the
 * textbook softmax, not shifted; S: (T, T) gets the masked scores Q K^T */
static void textbook_attention(const qkv *p, gsl_matrix *S, gsl_matrix *out)
{
    scope *sc = scope_open();
    gsl_matrix *W = scope_matrix(sc, S->size1, S->size2);
    chapter_must(mat_mul(p->Q, CblasNoTrans, p->K, CblasTrans, S), "the scores");
    gsl_matrix_memcpy(W, S);
    chapter_must(mask_causal(W), "masking");
    for (size_t t = 0; t < W->size1; t++) {
        gsl_vector_view row = gsl_matrix_row(W, t);
        textbook_softmax(&row.vector, 0);
    }
    chapter_must(mat_mul(W, CblasNoTrans, p->V, CblasNoTrans, out), "the weighted sum");
    scope_close(sc);
}

/* S: (T, T) -> the visible score (i <= t) of largest magnitude, with its sign */
static double largest_visible(const gsl_matrix *S)
{
    double best = 0.0;
    for (size_t t = 0; t < S->size1; t++)
        for (size_t i = 0; i <= t; i++)
            if (fabs(gsl_matrix_get(S, t, i)) > fabs(best))
                best = gsl_matrix_get(S, t, i);
    return best;
}

/* S5: whole causal attention with the largest score +1e4. */
static void huge_queries(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, d = m->X->size2, r = m->Wq->size1;
    scope *sc = scope_open();
    qkv p = qkv_of(sc, m);
    gsl_matrix *a = scope_matrix(sc, T, d), *b = scope_matrix(sc, T, d);
    gsl_matrix *naive = scope_matrix(sc, T, d), *S = scope_matrix(sc, T, T), *W = scope_matrix(sc, T, T);
    gsl_vector *scores = scope_vector(sc, T);
    chapter_must(mat_mul(p.Q, CblasNoTrans, p.K, CblasTrans, S), "the scores");
    double factor = 1e4 / largest_visible(S);
    gsl_matrix_scale(p.Q, factor);
    chapter_must(attn_sum_form(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, scores, a), "the sum form");
    chapter_must(attn_forward(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, W, b), "the matrix form");
    textbook_attention(&p, S, naive);
    /* scores of r products as large as S's, then a weighted sum of T values */
    double tol = rounding_tolerance_softmax(r, S, p.V) + rounding_tolerance(T, p.V);
    report_line(o, "%s", "");
    report_text(o, "Last, whole causal attention with the queries multiplied by %.3g, so that "
                   "the visible score of largest magnitude is +10^4:", factor);
    check_matrix_close("S5", "causal attention with scores up to 1e4: the sum form and the "
                             "matrix form finite and equal", a, b, tol);
    check_control("S5", "the matrix form with the softmax not shifted");
    check_matrix_close("S5", NULL, naive, a, tol);
    scope_close(sc);
}

/* S5: huge scores, masked rows, and whole attention at huge scores. */
static void stability_section(const invent_opts *o, const example *m)
{
    report_section(o, "Scores of plus and minus ten thousand");
    huge_scores(o);
    masked_row(o);
    huge_queries(o, m);
}

int main(int argc, char **argv)
{
    sizes s = {.tokens = 8, .dim = 16, .rank = 8, .heads = 4};
    const cli_option options[] = {
        {"tokens", CLI_SIZE, &s.tokens, 2, MAX_TOKENS, "tokens T"},
        {"dim", CLI_SIZE, &s.dim, 1, 256, "size d of a token"},
        {"rank", CLI_SIZE, &s.rank, 1, 256, "size r of queries and keys (at most --dim)"},
        {"heads", CLI_SIZE, &s.heads, 1, MAX_HEADS,
         "score functions (heads) H of S1"},
    };
    const cli_spec spec = {"ch07", "Chapter 7: softmax over positions, why normalise, the "
                                   "1/sqrt(r) scale, the causal mask.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.rank > s.dim)
        return cli_fail(&o, "--rank (%zu%s) must not exceed --dim (%zu%s)", s.rank,
                        flag_given(argc, argv, "rank") ? "" : ", the default", s.dim,
                        flag_given(argc, argv, "dim") ? "" : ", the default");
    rc = chapter_start(&o, "Chapter 7: normalising over the sequence");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(o.seed));
    example m = example_new(sc, &s, r);
    heads_section(&o, &m, s.heads, r);
    growth_section(&o, r);
    dilution_section(&o, r);
    temperature_section(&o, &m);
    scale_section(&o, r);
    forms_section(&o, &m);
    waste_section(&o, &m);
    stability_section(&o, &m);
    scope_close(sc);
    return chapter_close(&o, 0,
                         "One head now reads the past through normalised, scaled, masked "
                         "weights. The next chapter runs several heads side by side and mixes "
                         "their outputs.");
}
