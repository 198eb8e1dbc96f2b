/* Chapter 6: queries and keys by factoring.
 *
 * The bilinear score of chapter 5 has one d x d matrix A per function.
 * Writing A as a product W_q^T W_k of two (r, d) matrices changes nothing in
 * the scores: x_L^T W_q^T W_k x_i is the dot product of the query W_q x_L
 * with the key W_k x_i (claim Q1), and a cache of keys holds r numbers per
 * token and function instead of d. The article whose derivation we follow
 * takes that as the reason to factor, and it is half right: against keys
 * A x_i the cache shrinks by d / r, but chapter 5's raw tokens, shared by every function, take less memory than
 * the factored keys (C1). What factoring buys in any case is work: r
 * multiply-adds per score instead of d, and 2dr instead of d^2 per token for
 * the projections, tallied by the loops of both forms as they run (Q3, C2;
 * a reply in the forum thread that discussed the article counts only the
 * projections). The thread also argues from the flow of data: in
 * cross-attention the queries and keys come from sequences of different
 * widths, where no square A exists and the pair does (Q6). Its price is rank:
 * the product has rank at most r (Q2). Then three facts about the result:
 * without positions and without a mask, attention cannot tell the order of its
 * inputs (Q4); a sinusoidal position encoding breaks that symmetry (P1), and
 * two encodings meet in a dot product that depends only on their distance
 * (P2); before the softmax every score is a quadratic form of the input (Q5).
 */
#include <math.h>
#include <string.h>

#include "digits.h"
#include "flag_given.h"
#include "invent.h"

typedef struct {
    size_t dim, rank, tokens;
} sizes;

/* The ledger's setting of chapter 5, and the rank of Q1. */
static const kvcache_shape LEDGER = {5000, 50, 20, 1000, 2};
static const uint64_t LEDGER_RANK = 200;
static const uint64_t LEDGER_NARROW = 40; /* C1's control: 20 keys narrower than one token */

typedef struct {
    gsl_matrix *X;       /* (T, d) the tokens, one per row */
    gsl_matrix *Wq, *Wk; /* (r, d) the two projections */
    gsl_matrix *A;       /* (d, d) their product W_q^T W_k */
    gsl_matrix *Wv;      /* (d, d) values, for the attention of Q4 and P1 */
    gsl_matrix *E;       /* (T, d) the sinusoidal position encoding */
    gsl_permutation *P[2]; /* (T) a rotation by one place and a random shuffle */
} example;

/* sizes -> X: (T, d) tokens ~ N(0, I); W_q, W_k: (r, d) and W_v: (d, d) with
 * entries of standard deviation 1/sqrt(d); A = W_q^T W_k; E: (T, d); two
 * permutations of T */
static example example_new(scope *sc, const sizes *s, gsl_rng *r)
{
    size_t T = s->tokens, d = s->dim;
    double sigma = 1.0 / sqrt((double)d);
    example m;
    m.X = scope_keep_matrix(sc, mat_gaussian(T, d, 1.0, r));
    m.Wq = scope_keep_matrix(sc, mat_gaussian(s->rank, d, sigma, r));
    m.Wk = scope_keep_matrix(sc, mat_gaussian(s->rank, d, sigma, r));
    m.Wv = scope_keep_matrix(sc, mat_gaussian(d, d, sigma, r));
    m.A = scope_keep_matrix(sc, mat_product(m.Wq, CblasTrans, m.Wk, CblasNoTrans));
    m.E = scope_matrix(sc, T, d);
    position_sinusoidal(m.E);
    for (int k = 0; k < 2; k++)
        m.P[k] = SCOPE_KEEP(sc, gsl_permutation_alloc(T), gsl_permutation_free);
    permute_rotation(m.P[0], 1);
    permute_random(m.P[1], r);
    if (gsl_permutation_inversions(m.P[1]) == 0) /* drew the identity: no reordering */
        gsl_permutation_swap(m.P[1], 0, 1);
    return m;
}

/* Q1: same scores from queries and keys, and from a cache of keys. */
static void factored_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, d = m->X->size2, r = m->Wq->size1;
    report_section(o, "Two thin matrices instead of one square one");
    report_text(o, "Let A = W_q^T W_k with W_q and W_k of shape (r, d), here r = %zu and d = %zu. "
                   "Then x_L^T A x_i = (W_q x_L) . (W_k x_i): a query of r numbers made from the "
                   "current token, dotted with a key of r numbers made from the past one. The "
                   "scores of %zu tokens are computed three ways: with A, with queries and keys, "
                   "and token by token from a cache of keys.", r, d, T);
    scope *sc = scope_open();
    gsl_matrix *SA = scope_matrix(sc, T, T), *SF = scope_matrix(sc, T, T);
    gsl_matrix *swapped = scope_matrix(sc, T, T), *cached = scope_matrix(sc, T, T);
    gsl_matrix *causal = scope_matrix(sc, T, T), *wrong = scope_matrix(sc, T, T);
    gsl_matrix *keys = scope_matrix(sc, T, d), *Q = scope_matrix(sc, T, r), *K = scope_matrix(sc, T, r);
    decode_work *w = SCOPE_KEEP(sc, decode_work_new(T, r), decode_work_free);
    decode_count n;
    chapter_must(bilinear_scores(m->X, m->A, keys, SA), "scoring with A");
    chapter_must(factor_scores(m->X, m->Wq, m->Wk, Q, K, SF), "scoring with queries and keys");
    chapter_must(factor_scores(m->X, m->Wk, m->Wq, Q, K, swapped), "scoring with the roles swapped");
    chapter_must(decode_factored(m->X, m->Wq, m->Wk, w, cached, &n), "decoding from the keys");
    chapter_must(decode_factored(m->X, m->Wk, m->Wq, w, wrong, &n), "decoding, roles swapped");
    gsl_matrix_tricpy(CblasLower, CblasNonUnit, causal, SA); /* the pairs i <= t */
    double tol = rounding_tolerance(d + r, SA);
    check_matrix_close("Q1", "x_L^T (W_q^T W_k) x_i equals (W_q x_L) . (W_k x_i) for every pair",
                       SF, SA, tol);
    check_control("Q1", "queries and keys swapped, (W_k x_L) . (W_q x_i)");
    check_matrix_close("Q1", NULL, swapped, SA, tol);
    check_matrix_close("Q1", "a cache of keys W_k x_i (r numbers each) gives the same scores, "
                             "token by token", cached, causal, tol);
    check_control("Q1", "the cache filled with W_q x_i, queries and keys swapped");
    check_matrix_close("Q1", NULL, wrong, causal, tol);
    scope_close(sc);
}

/* Q1 and C1 in the ledger's setting: three caches that give the same scores. */
static void memory_section(const invent_opts *o)
{
    report_section(o, "What the factored cache weighs, and what it does not save");
    report_text(o, "In the ledger's setting of chapter 5 (5,000 tokens, 50 layers, 20 functions, "
                   "d = 1,000, 2 bytes a number) with r = 200, three caches give the same scores:");
    kvcache_shape thin = LEDGER, raw = LEDGER;
    thin.width = LEDGER_RANK;
    raw.funcs = 1;
    uint64_t keys = 0, factored = 0, shared = 0;
    chapter_must(kvcache_bytes(&LEDGER, &keys), "sizing the keys");
    chapter_must(kvcache_bytes(&thin, &factored), "sizing the factored keys");
    chapter_must(kvcache_bytes(&raw, &shared), "sizing the raw tokens");
    char b[3][DIGITS_GROUPED_CAP];
    report_line(o, "  keys A_j x_i, d numbers for each function:  %14s bytes (%.3g GB)",
                digits_grouped(keys, b[0]), keys / 1e9);
    report_line(o, "  keys W_k x_i, r numbers for each function:  %14s bytes (%.3g GB)",
                digits_grouped(factored, b[1]), factored / 1e9);
    report_line(o, "  raw tokens x_i, d numbers for all of them:  %14s bytes (%.3g GB)",
                digits_grouped(shared, b[2]), shared / 1e9);
    report_line(o, "%s", "");
    kvcache_shape with_queries = thin, narrow = thin;
    with_queries.width = 2 * LEDGER_RANK;
    narrow.width = LEDGER_NARROW;
    uint64_t both = 0, narrow_keys = 0;
    chapter_must(kvcache_bytes(&with_queries, &both), "sizing keys and queries");
    chapter_must(kvcache_bytes(&narrow, &narrow_keys), "sizing narrow keys");
    check_equal("Q1", "keys of r = 200 numbers take 2 GB (2 x 10^9 bytes), a fifth of the keys "
                      "A_j x_i", factored, 2000000000ULL);
    check_control("Q1", "the queries W_q x_i cached beside the keys, 2r numbers a function");
    check_equal("Q1", NULL, both, 2000000000ULL);
    check_at_most("C1", "the raw tokens, shared by the 20 functions, take fewer bytes than the "
                        "factored keys (in GB, 10^9 bytes; counted in 64 bits)", shared / 1e9,
                  factored / 1e9);
    check_control("C1", "factored keys of r = 40 numbers, below d / 20 = 50");
    check_at_most("C1", NULL, shared / 1e9, narrow_keys / 1e9);
    report_line(o, "%s", "");
    report_text(o, "The article whose derivation these chapters follow factors A to shrink the "
                   "cache. That argument holds against a cache of keys A_j x_i, "
                   "which factoring shrinks d / r = 5 times, and fails against the shared raw "
                   "tokens, four times smaller than the factored keys. The factored keys take "
                   "less only when all the functions' keys together are narrower than one token, "
                   "20 r < d, that is r < 50 here. Real models combine the two ideas. Multi-head "
                   "latent attention (DeepSeek-AI, 2024) caches one small latent vector c_i = "
                   "W_c x_i per token, shared by all heads like the raw tokens and narrow like "
                   "the keys, and absorbs each head's key projection into its query: (W_q x_L) . "
                   "(W_k c_i) = (W_k^T W_q x_L) . c_i, the regrouping of chapter 5.");
}

/* A: (m, n) -> its singular values, owned by sc */
static gsl_vector *spectrum(scope *sc, const gsl_matrix *A)
{
    gsl_vector *s = scope_vector(sc, A->size1 < A->size2 ? A->size1 : A->size2);
    chapter_must(linalg_singular_values(A, s), "computing singular values");
    return s;
}

/* product, free_A: (d) singular values, descending -> the figure of Q2 */
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

/* A: (d, d), Q: (d, r) with orthonormal columns -> ||A - A Q Q^T||_F / ||A||_F:
 * A Q Q^T is the closest matrix to A whose rows lie in the span of Q */
static double projection_error(const gsl_matrix *A, const gsl_matrix *Q)
{
    scope *sc = scope_open();
    gsl_matrix *AQ = scope_keep_matrix(sc, mat_product(A, CblasNoTrans, Q, CblasNoTrans));
    gsl_matrix *B = scope_keep_matrix(sc, mat_product(AQ, CblasNoTrans, Q, CblasTrans));
    double err = mat_rel_error(B, A);
    scope_close(sc);
    return err;
}

enum { SUBSPACES = 20 }; /* random rank-r competitors of the SVD */

/* A: (d, d), r -> the smallest relative error of A Q Q^T over SUBSPACES
 * random r-dimensional subspaces Q (orthonormal bases of Gaussian (d, r)) */
static double best_random_error(const gsl_matrix *A, size_t r, gsl_rng *rng)
{
    size_t d = A->size1;
    scope *sc = scope_open();
    gsl_matrix *G = scope_matrix(sc, d, r), *Q = scope_matrix(sc, d, r);
    gsl_matrix *V = scope_matrix(sc, r, r);
    gsl_vector *s = scope_vector(sc, r);
    double best = INFINITY;
    for (int k = 0; k < SUBSPACES; k++) {
        rng_fill_gaussian(G, rng, 1.0);
        chapter_must(linalg_svd(G, Q, s, V), "an orthonormal basis");
        best = fmin(best, projection_error(A, Q));
    }
    scope_close(sc);
    return best;
}

/* A: (d, d), r -> the relative error of A with only its r smallest singular
 * values kept: A V_s V_s^T, V_s its last r right singular vectors */
static double smallest_kept_error(const gsl_matrix *A, size_t r)
{
    size_t d = A->size1;
    scope *sc = scope_open();
    gsl_matrix *U = scope_matrix(sc, d, d), *V = scope_matrix(sc, d, d);
    gsl_vector *s = scope_vector(sc, d);
    chapter_must(linalg_svd(A, U, s, V), "the SVD of the free A");
    gsl_matrix_const_view Vs = gsl_matrix_const_submatrix(V, 0, d - r, d, r);
    double err = projection_error(A, &Vs.matrix);
    scope_close(sc);
    return err;
}

/* Q2, the second half: the rank-r product factors back, and a free A
 * factored at rank r misses by its dropped singular values, closer than any
 * other rank-r matrix tried (Eckart and Young, 1936). */
static void refactor(const invent_opts *o, const example *m, const gsl_matrix *A_free,
                     const gsl_vector *s_free, gsl_rng *rng)
{
    size_t r = m->Wq->size1, d = m->Wq->size2;
    scope *sc = scope_open();
    gsl_matrix *Fq = scope_matrix(sc, r, d), *Fk = scope_matrix(sc, r, d);
    chapter_must(factor_svd(m->A, Fq, Fk), "factoring W_q^T W_k by SVD");
    gsl_matrix *B = scope_keep_matrix(sc, mat_product(Fq, CblasTrans, Fk, CblasNoTrans));
    gsl_matrix *B_swapped = scope_keep_matrix(sc, mat_product(Fk, CblasTrans, Fq, CblasNoTrans));
    chapter_must(factor_svd(A_free, Fq, Fk), "factoring the free A by SVD");
    gsl_matrix *C = scope_keep_matrix(sc, mat_product(Fq, CblasTrans, Fk, CblasNoTrans));
    check_at_most("Q2", "the rank-r product factors back into W_q, W_k by SVD (relative error of "
                        "W_q^T W_k)", mat_rel_error(B, m->A), 1e-12);
    check_control("Q2", "the factors put back in the wrong order, W_k^T W_q");
    check_at_most("Q2", NULL, mat_rel_error(B_swapped, m->A), 1e-12);
    double dropped = 0.0, norm = 0.0;
    for (size_t j = 0; j < d; j++) {
        double v = gsl_vector_get(s_free, j);
        norm += v * v;
        dropped += j >= r ? v * v : 0.0;
    }
    double err = mat_rel_error(C, A_free), random = best_random_error(A_free, r, rng);
    double smallest = smallest_kept_error(A_free, r);
    report_line(o, "%s", "");
    report_text(o, "Factored at rank r by SVD, the free A keeps its %s and misses A by %.1f%% "
                   "(relative Frobenius error ||A - W_q^T W_k||_F / ||A||_F; the rank-%zu part "
                   "holds %.1f%% of A's norm). Eckart and Young (1936) proved that no rank-r "
                   "matrix comes closer. Tried here against the best matrix A Q Q^T within each "
                   "of %d random r-dimensional subspaces Q, and against A with only its r "
                   "smallest singular values kept:",
                r == 1 ? "largest singular value" : "r largest singular values", 100.0 * err, r,
                100.0 * sqrt(1.0 - dropped / norm), SUBSPACES);
    report_line(o, "  SVD, the r largest kept:         misses A by %5.1f%%", 100.0 * err);
    report_line(o, "  best of %2d random subspaces:     misses A by %5.1f%%", SUBSPACES,
                100.0 * random);
    report_line(o, "  the r smallest singular values:  misses A by %5.1f%%", 100.0 * smallest);
    report_line(o, "%s", "");
    check_close("Q2", "a free A factored at rank r misses by exactly its dropped singular values, "
                      "||A - W_q^T W_k||_F = sqrt(sum_{j>r} s_j^2) (relative to ||A||_F)",
                err, sqrt(dropped / norm), 1e-10);
    check_control("Q2", "the r smallest singular values kept instead");
    check_close("Q2", NULL, smallest, sqrt(dropped / norm), 1e-10);
    check_at_most("Q2", "no other rank-r matrix tried comes closer: the SVD's relative error is at "
                        "most the best random subspace's", err, random);
    check_control("Q2", "the r smallest singular values kept instead");
    check_at_most("Q2", NULL, smallest, random);
    scope_close(sc);
}

/* m -> (d, d) W_q'^T W_k, W_q' = W_q with its last row a copy of its first (zero
 * when r = 1): the product of a query projection one rank short, from sc */
static gsl_matrix *degenerate_product(scope *sc, const example *m)
{
    size_t r = m->Wq->size1;
    gsl_matrix *Wq = scope_keep_matrix(sc, mat_clone(m->Wq));
    gsl_vector_view last = gsl_matrix_row(Wq, r - 1);
    gsl_vector_const_view first = gsl_matrix_const_row(m->Wq, 0);
    if (r > 1)
        gsl_vector_memcpy(&last.vector, &first.vector);
    else
        gsl_vector_set_zero(&last.vector);
    return scope_keep_matrix(sc, mat_product(Wq, CblasTrans, m->Wk, CblasNoTrans));
}

/* Q2: rank of the product against a free matrix. */
static void rank_section(const invent_opts *o, const example *m, gsl_rng *rng)
{
    size_t r = m->Wq->size1, d = m->Wq->size2;
    report_section(o, "Rank: what the factoring gives up");
    report_text(o, "W_q^T W_k sends every vector through r numbers (here r = %zu), so it has "
                   "rank at most r. A single free d x d matrix has no such limit. Their singular values (GSL's "
                   "SVD) show the difference: the product's fall off a cliff after the r-th, the "
                   "free matrix's do not.", r);
    scope *sc = scope_open();
    gsl_matrix *A_free = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / sqrt((double)d), rng));
    gsl_vector *s_prod = spectrum(sc, m->A), *s_free = spectrum(sc, A_free);
    report_line(o, "   j   s_j of W_q^T W_k   s_j of a free A");
    for (size_t j = 0; j < d; j++)
        if (j < 3 || (j + 2 >= r && j <= r + 1) || j + 2 >= d)
            report_line(o, "  %2zu   %16.3e   %15.3e", j + 1, gsl_vector_get(s_prod, j),
                        gsl_vector_get(s_free, j));
    size_t rank_prod = linalg_rank(s_prod, 1e-10), rank_free = linalg_rank(s_free, 1e-10);
    char seen[64];
    snprintf(seen, sizeof seen, "numerical rank %zu, r = %zu", rank_prod, r);
    check_true("Q2", "rank(W_q^T W_k) <= r (singular values above 1e-10 of the largest)",
               rank_prod <= r, seen);
    check_control("Q2", "a free, full-rank d x d matrix A");
    snprintf(seen, sizeof seen, "numerical rank %zu, r = %zu", rank_free, r);
    check_true("Q2", NULL, rank_free <= r, seen);
    check_equal("Q2", "the numerical rank of W_q^T W_k is r", rank_prod, r);
    check_control("Q2", r > 1 ? "W_q with its last row a copy of its first"
                              : "W_q with its one row zeroed");
    check_equal("Q2", NULL, linalg_rank(spectrum(sc, degenerate_product(sc, m)), 1e-10), r);
    plot_spectra(o, s_prod, s_free, r);
    refactor(o, m, A_free, s_free, rng);
    scope_close(sc);
}

/* ---------------------------------------------------------------- Q6 */

/* Q6: queries and keys from two sequences of different widths. */
static void cross_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    size_t T = s->tokens, dq = s->dim, dk = s->dim + s->dim / 2, r = s->rank;
    report_section(o, "Queries and keys from two sequences");
    report_text(o, "The forum thread that discussed the article gives a second reason for "
                   "two matrices, the flow of data. In cross-attention the queries come from "
                   "one sequence (a decoder's tokens y_t, width d_q) and the keys from another "
                   "(an encoder's tokens x_i, width d_k). A score matrix A then has d_q rows "
                   "and d_k columns: the square d x d matrix of chapter 5 does not exist. Two "
                   "projections do, W_q of shape (r, d_q) and W_k of shape (r, d_k), meeting in "
                   "r numbers. Both are run here on T = %zu tokens of each, d_q = %zu, d_k = "
                   "%zu, r = %zu.", T, dq, dk, r);
    scope *sc = scope_open();
    double sigma = 1.0 / sqrt((double)dq);
    gsl_matrix *Y = scope_keep_matrix(sc, mat_gaussian(T, dq, 1.0, rng));
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(T, dk, 1.0, rng));
    gsl_matrix *X_same = scope_keep_matrix(sc, mat_gaussian(T, dq, 1.0, rng));
    gsl_matrix *Wq = scope_keep_matrix(sc, mat_gaussian(r, dq, sigma, rng));
    gsl_matrix *Wk = scope_keep_matrix(sc, mat_gaussian(r, dk, sigma, rng));
    gsl_matrix *A = scope_keep_matrix(sc, mat_product(Wq, CblasTrans, Wk, CblasNoTrans));
    gsl_matrix *At = scope_keep_matrix(sc, mat_product(Wk, CblasTrans, Wq, CblasNoTrans));
    gsl_matrix *square = scope_keep_matrix(sc, mat_gaussian(dq, dq, sigma, rng));
    gsl_matrix *SF = scope_matrix(sc, T, T), *SA = scope_matrix(sc, T, T);
    gsl_matrix *reversed = scope_matrix(sc, T, T), *SS = scope_matrix(sc, T, T);
    gsl_matrix *Q = scope_matrix(sc, T, r), *K = scope_matrix(sc, T, r), *keys = scope_matrix(sc, T, dq);
    gsl_matrix *keys_back = scope_matrix(sc, T, dk);
    chapter_must(factor_cross_scores(Y, X, Wq, Wk, Q, K, SF), "scoring across with the pair");
    chapter_must(bilinear_cross_scores(Y, X, A, keys, SA), "scoring across with W_q^T W_k");
    chapter_must(bilinear_cross_scores(X, Y, At, keys_back, reversed), "scoring with the flow reversed");
    int refused = bilinear_cross_scores(Y, X, square, keys, SS) == INVENT_ESHAPE;
    int refused_same = bilinear_cross_scores(Y, X_same, square, keys, SS) == INVENT_ESHAPE;
    double tol = rounding_tolerance(dq + dk + r, SA);
    check_matrix_close("Q6", "queries from one sequence, keys from another of another width: "
                             "(W_q y_t) . (W_k x_i) = y_t^T (W_q^T W_k) x_i, a d_q x d_k product, "
                             "for every pair", SF, SA, tol);
    check_control("Q6", "the data flow reversed: queries from the keys' sequence, keys from the "
                        "queries'");
    check_matrix_close("Q6", NULL, reversed, SA, tol);
    char seen[96];
    snprintf(seen, sizeof seen, "a %zu x %zu A on widths %zu and %zu: %s", dq, dq, dq, dk,
             refused ? "refused (shapes)" : "accepted");
    check_true("Q6", "one square A cannot score the pairs: run on the two sequences, the "
                     "library refuses its shape", refused, seen);
    check_control("Q6", "the keys' sequence of the queries' width, d_k = d_q");
    snprintf(seen, sizeof seen, "a %zu x %zu A on widths %zu and %zu: %s", dq, dq, dq, dq,
             refused_same ? "refused (shapes)" : "accepted");
    check_true("Q6", NULL, refused_same, seen);
    report_line(o, "%s", "");
    report_text(o, "So the data flow rules out the square matrix of self-attention, not one "
                   "matrix per function: a single rectangular A of d_q x d_k scores these pairs "
                   "as well as the pair does (it is their product). What the pair adds, in "
                   "cross-attention as in self-attention, is what the sections around this one "
                   "count: the width of the cache and the work per score.");
    scope_close(sc);
}

/* ---------------------------------------------------------------- Q3, C2 */

/* T tokens of size d -> what decoding them took with one matrix A (r = 0)
 * or with a pair W_q, W_k of r rows, as tallied by the decoding loops; the
 * tokens are zeros, since the tally does not depend on the numbers */
static decode_count run_form(size_t T, size_t d, size_t r)
{
    scope *sc = scope_open();
    gsl_matrix *X = scope_matrix(sc, T, d), *S = scope_matrix(sc, T, T);
    gsl_matrix *W = scope_matrix(sc, r ? r : d, d);
    decode_work *w = SCOPE_KEEP(sc, decode_work_new(T, r ? r : d), decode_work_free);
    decode_count n;
    chapter_must(r ? decode_factored(X, W, W, w, S, &n) : decode_bilinear(X, W, w, S, &n),
                 "decoding");
    scope_close(sc);
    return n;
}

/* T tokens of size d -> what decoding them took with one matrix A kept as it is
 * and no cache of keys: every key A x_i recomputed for each new token */
static decode_count run_uncached(size_t T, size_t d)
{
    scope *sc = scope_open();
    gsl_matrix *X = scope_matrix(sc, T, d), *S = scope_matrix(sc, T, T);
    const gsl_matrix *A = scope_matrix(sc, d, d);
    decode_work *w = SCOPE_KEEP(sc, decode_work_new(T, d), decode_work_free);
    decode_count n;
    chapter_must(decode_recomputed(X, &A, 1, w, &S, &n), "decoding without a cache");
    scope_close(sc);
    return n;
}

/* n: one decode's tally -> its multiply-adds, projections and scores together */
static unsigned long long total(decode_count n) { return n.proj + n.pair; }

/* Which statements every row of the cost table bore out. */
typedef struct {
    int formulas; /* Q3: the tallies equal the library's causal formulas */
    int uncached; /* Q3's control: so do they with A's keys recomputed, no cache */
    int model;    /* C2: costs per score and per token as stated */
    int square;   /* C2's control: so are they with the pair made square, r = d */
} cost_agreement;

/* one, two: the tallies of A and of the pair -> whether both computed the
 * T(T+1)/2 causal scores, at d and r multiply-adds a score, d^2 and 2dr a token */
static int as_stated(decode_count one, decode_count two, uint64_t T, uint64_t d, uint64_t r)
{
    uint64_t P = T * (T + 1) / 2;
    return one.scores == P && two.scores == P && one.proj == T * d * d &&
           two.proj == 2 * T * d * r && one.pair == P * d && two.pair == P * r;
}

/* Runs one (T, d, r), prints its row and updates *a; uncached: A's decode at
 * (T, d) without a cache (run_uncached), which does not depend on r, or NULL
 * to leave the row out of that control (the flags' row: it costs T^2 d^2). */
static void cost_row(const invent_opts *o, size_t T, size_t d, size_t r,
                     const decode_count *uncached, cost_agreement *a)
{
    struct {
        decode_count one, two; /* the single matrix A; the pair W_q, W_k */
    } c = {run_form(T, d, 0), run_form(T, d, r)};
    kvcache_cost f1, f2;
    chapter_must(kvcache_cost_bilinear(T, d, &f1), "counting by formula");
    chapter_must(kvcache_cost_factored(T, d, r, &f2), "counting by formula");
    unsigned long long P = (unsigned long long)T * (T + 1) / 2;
    char n[8][DIGITS_GROUPED_CAP]; /* scores, per token, in all, cached: A then the pair */
    report_line(o, "  %5zu %4zu %4zu %8s %8s %8s %8s  %4llu %4llu %12s %12s %6.2f %8s %8s", T,
                d, r, digits_grouped(c.one.scores, n[0]), digits_grouped(c.two.scores, n[1]),
                digits_grouped(c.one.proj / T, n[2]), digits_grouped(c.two.proj / T, n[3]),
                (unsigned long long)(c.one.pair / P), (unsigned long long)(c.two.pair / P),
                digits_grouped(total(c.one), n[4]), digits_grouped(total(c.two), n[5]),
                (double)total(c.one) / (double)total(c.two), digits_grouped(c.one.cached, n[6]),
                digits_grouped(c.two.cached, n[7]));
    a->model &= as_stated(c.one, c.two, T, d, r);
    a->square &= as_stated(c.one, run_form(T, d, d), T, d, r);
    int pair_right = total(c.two) == f2.madds && c.two.cached == f2.cached;
    a->formulas &= total(c.one) == f1.madds && c.one.cached == f1.cached && pair_right;
    if (uncached)
        a->uncached &= total(*uncached) == f1.madds && uncached->cached == f1.cached && pair_right;
}

enum { SWEEP_DIM = 64, SWEEPS = 3 }; /* the crossover is measured at d = 64 for 3 lengths */
static const size_t SWEEP_TOKENS[SWEEPS] = {4, 32, 256};

/* T, d -> the largest r at which the pair does fewer multiply-adds than A,
 * found by running the pair at every r from 1 to d - 1 and reading its
 * tally (0 when none); each
 * r's ratio of multiply-adds goes to the figure */
static size_t crossover(size_t T, size_t d, plot *p)
{
    unsigned long long single = total(run_form(T, d, 0));
    size_t last = 0;
    plot_block(p, "r  multiply_adds_of_the_pair_over_those_of_A");
    for (size_t r = 1; r < d; r++) {
        unsigned long long pair = total(run_form(T, d, r));
        PLOT_ROW(p, (double)r, (double)pair / (double)single);
        last = pair < single ? r : last;
    }
    return last;
}

/* Figure, left panel: the ledger's three caches against r (block 0). */
static void plot_ledger_caches(plot *p)
{
    kvcache_shape k = LEDGER, raw = LEDGER;
    raw.funcs = 1;
    uint64_t keys = 0, shared = 0, bytes = 0;
    kvcache_bytes(&k, &keys);
    kvcache_bytes(&raw, &shared);
    plot_set(p, "dim", (double)LEDGER.width);
    plot_set(p, "funcs", (double)LEDGER.funcs);
    plot_block(p, "r  GB_keys_A_x  GB_keys_Wk_x  GB_raw_tokens");
    for (uint64_t r = 1; r <= LEDGER.width; r++) {
        k.width = r;
        kvcache_bytes(&k, &bytes);
        PLOT_ROW(p, (double)r, keys / 1e9, bytes / 1e9, shared / 1e9);
    }
}

/* C2: where factoring starts to pay, measured at d = 64 for three lengths. */
static void crossover_part(const invent_opts *o)
{
    report_line(o, "%s", "");
    report_text(o, "Per score the pair is always cheaper, r < d; per token only while 2dr < d^2, "
                   "r < d/2. Which one carries the cost depends on the length: the pair does "
                   "less work while r (2dT + T(T+1)/2) < d (dT + T(T+1)/2). Running the pair at "
                   "every r from 1 to d - 1 against A, for d = %d:", SWEEP_DIM);
    plot *p = plot_begin(o, "ch06_cache_work");
    plot_ledger_caches(p);
    const uint64_t d = SWEEP_DIM, projections = (SWEEP_DIM - 1) / 2;
    int agree = 1, projections_agree = 1;
    char seen[160] = "", line[96];
    for (int k = 0; k < SWEEPS; k++) {
        uint64_t T = SWEEP_TOKENS[k], P = T * (T + 1) / 2;
        uint64_t got = crossover(T, d, p), want = (d * (d * T + P) - 1) / (2 * d * T + P);
        report_line(o, "  T = %3llu: the pair does less work up to r = %llu (predicted %llu; by "
                       "the projections alone %llu)", (unsigned long long)T,
                    (unsigned long long)got, (unsigned long long)want,
                    (unsigned long long)projections);
        snprintf(line, sizeof line, "%sT = %llu: r <= %llu", k ? ", " : "",
                 (unsigned long long)T, (unsigned long long)got);
        strncat(seen, line, sizeof seen - strlen(seen) - 1);
        agree &= got == want;
        projections_agree &= got == projections;
        char var[24];
        snprintf(var, sizeof var, "T%d", k);
        plot_set(p, var, (double)T);
        snprintf(var, sizeof var, "cross%d", k);
        plot_set(p, var, (double)got);
    }
    report_line(o, "%s", "");
    check_true("C2", "the measured crossover, the largest r at which the pair does less work, is "
                     "where r (2dT + T(T+1)/2) = d (dT + T(T+1)/2)", agree, seen);
    check_control("C2", "the forum reply's 2Nd against N^2, projections alone: crossover below "
                        "d/2 at every length");
    char predicted[256];
    snprintf(predicted, sizeof predicted, "projections alone: r <= %llu; measured %s",
             (unsigned long long)projections, seen);
    check_true("C2", NULL, projections_agree, predicted);
    plot_render(p, "ch06_cache_work.gp");
}

/* Q3 and C2 on the table's rows: a the agreements, rows how many */
static void cost_checks(const cost_agreement *a, int rows)
{
    char detail[200];
    snprintf(detail, sizeof detail, "%d rows, %s", rows,
             a->formulas ? "every tally equal to its formula" : "a tally differs");
    check_true("Q3", "multiply-adds and cached numbers, tallied by the loops of both forms, equal "
                     "T d^2 + d T(T+1)/2 and 2 T d r + r T(T+1)/2, cached T d and T r",
               a->formulas, detail);
    check_control("Q3", "A decoded without its cache of keys, every key A x_i recomputed for "
                        "each new token");
    snprintf(detail, sizeof detail, "%d rows (not the flags' row), %s", rows - 1,
             a->uncached ? "every tally equal to its formula" : "a tally differs");
    check_true("Q3", NULL, a->uncached, detail);
    snprintf(detail, sizeof detail, "%d rows %s", rows,
             a->model ? "as stated" : "checked: a count differs");
    check_true("C2", "both forms compute the same T(T+1)/2 scores; a score costs d multiply-adds "
                     "with A, r with the pair; a token's projections d^2 against 2dr",
               a->model, detail);
    check_control("C2", "the pair run square, W_q and W_k of d rows: the factoring undone");
    snprintf(detail, sizeof detail, "%d rows %s", rows,
             a->square ? "as stated" : "checked: a count differs");
    check_true("C2", NULL, a->square, detail);
}

/* Q3 and C2: both forms run, their loops tallied, over a table of sizes. */
static void cost_section(const invent_opts *o, const sizes *s)
{
    report_section(o, "What factoring buys: work");
    report_text(o, "Tokens arrive one at a time; token t is scored against itself and every "
                   "token before it. Both forms are run here for a table of sizes, and each "
                   "keeps a tally as it goes, adding the size of every product its loops "
                   "perform: with A a token costs d^2 for its key A x_t and a score d; with the "
                   "pair a token costs 2dr for its query and key and a score r. The tally is "
                   "bookkeeping of the loops that actually ran (how many products of which "
                   "size), not a count of machine instructions. Columns: the scores computed; "
                   "the multiply-adds of one token's projections (per token) and of one score "
                   "(per score); the multiply-adds in all, and A's over the pair's; the numbers "
                   "held in the cache after the last token.");
    report_line(o, "  %5s %4s %4s %17s %17s  %9s %32s %17s", "", "", "", "scores",
                "per token", "per score", "multiply-adds in all", "cached numbers");
    report_line(o, "  %5s %4s %4s %8s %8s %8s %8s  %4s %4s %12s %12s %6s %8s %8s", "T", "d",
                "r", "A", "pair", "A", "pair", "A", "pair", "A", "pair", "A/pair", "A", "pair");
    const size_t Ts[] = {16, 256}, ds[] = {32, 128};
    cost_agreement a = {1, 1, 1, 1};
    int rows = 1;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            decode_count uncached = run_uncached(Ts[i], ds[j]);
            for (size_t r = ds[j] / 8; r < ds[j]; r += 3 * ds[j] / 8, rows++)
                cost_row(o, Ts[i], ds[j], r, &uncached, &a);
        }
    cost_row(o, s->tokens, s->dim, s->rank, NULL, &a);
    report_line(o, "%s", "  (last row: your --tokens, --dim, --rank)");
    kvcache_cost one, two;
    chapter_must(kvcache_cost_bilinear(LEDGER.tokens, LEDGER.width, &one), "counting by formula");
    chapter_must(kvcache_cost_factored(LEDGER.tokens, LEDGER.width, LEDGER_RANK, &two),
                 "counting by formula");
    char madds[2][DIGITS_GROUPED_CAP];
    report_line(o, "  the ledger's T = 5,000, d = 1,000, r = 200, by the formulas checked below: "
                   "%s against %s multiply-adds per function and layer, %.2f times fewer",
                digits_grouped(one.madds, madds[0]), digits_grouped(two.madds, madds[1]),
                (double)one.madds / (double)two.madds);
    report_line(o, "%s", "");
    cost_checks(&a, rows);
    crossover_part(o);
    report_line(o, "%s", "");
    report_text(o, "A reply in the forum thread sums this up as \"2Nd instead of N^2\". Read with N "
                   "the width of a token (d here) and d that of a query (r here), 2Nd against "
                   "N^2 is the number of parameters of the pair against the single matrix, and "
                   "the work of the projections per token. It is not a count of scores: both "
                   "forms computed T(T+1)/2 scores per function in every row above, and the "
                   "pair makes each of them cheaper, r multiply-adds instead of d. For long "
                   "sequences that saving per score, not the projections, carries the cost, "
                   "and the pair does less work up to r close to d. The reply is right about "
                   "the projections per token; the work per pair, and chapter 5's shared cache "
                   "of raw tokens (C1), are what it leaves out.");
}

/* ---------------------------------------------------------------- Q4, P1, P2 */

/* X: (T, d) -> out: (T, d), attention over X with scores by A (queries X A,
 * keys X) or by the pair (X W_q^T, X W_k^T), values X W_v^T, scale 1/sqrt(r) */
static void attend(const example *m, const gsl_matrix *X, int factored, attn_mask mask,
                   gsl_matrix *out)
{
    scope *sc = scope_open();
    gsl_matrix *Q = scope_keep_matrix(sc, factored ? mat_product(X, CblasNoTrans, m->Wq, CblasTrans)
                                                   : mat_product(X, CblasNoTrans, m->A, CblasNoTrans));
    gsl_matrix *K = scope_keep_matrix(sc, factored ? mat_product(X, CblasNoTrans, m->Wk, CblasTrans)
                                                   : mat_clone(X));
    gsl_matrix *V = scope_keep_matrix(sc, mat_product(X, CblasNoTrans, m->Wv, CblasTrans));
    gsl_matrix *W = scope_matrix(sc, X->size1, X->size1);
    double scale = 1.0 / sqrt((double)m->Wq->size1);
    chapter_must(attn_forward(Q, K, V, scale, mask, W, out), "attending");
    scope_close(sc);
}

/* -> max |attn(P X + E) - P attn(X + E)| for one form, mask and permutation;
 * without positions when E is NULL */
static double equivariance_gap(const example *m, const gsl_matrix *E, int factored,
                               attn_mask mask, const gsl_permutation *p)
{
    size_t T = m->X->size1, d = m->X->size2;
    scope *sc = scope_open();
    gsl_matrix *XE = scope_keep_matrix(sc, mat_clone(m->X)), *PXE = scope_matrix(sc, T, d);
    gsl_matrix *Y = scope_matrix(sc, T, d), *PY = scope_matrix(sc, T, d);
    gsl_matrix *YP = scope_matrix(sc, T, d);
    chapter_must(permute_rows(p, m->X, PXE), "permuting the tokens");
    if (E) { /* the tokens move, the positions stay where they are */
        gsl_matrix_add(XE, E);
        gsl_matrix_add(PXE, E);
    }
    attend(m, XE, factored, mask, Y);
    attend(m, PXE, factored, mask, YP);
    chapter_must(permute_rows(p, Y, PY), "permuting the outputs");
    double gap = mat_max_abs_diff(YP, PY);
    scope_close(sc);
    return gap;
}

/* Rounding allowed between attn(P X) and P attn(X): sums of T weighted
 * values and of d + r products in the scores, values as large as V's. */
static double order_tolerance(const example *m)
{
    size_t T = m->X->size1, d = m->X->size2, r = m->Wq->size1;
    scope *sc = scope_open();
    gsl_matrix *V = scope_keep_matrix(sc, mat_product(m->X, CblasNoTrans, m->Wv, CblasTrans));
    double tol = rounding_tolerance(T + d + r, V);
    scope_close(sc);
    return tol;
}

/* The four cases of Q4 and P1: two permutations, two forms of the score. */
enum { CASES = 4 };
static const char *const CASE_NAME[CASES] = {"rotation, single A", "rotation, W_q^T W_k pair",
                                             "shuffle, single A", "shuffle, W_q^T W_k pair"};

typedef struct {
    double plain[CASES], causal[CASES], placed[CASES]; /* no mask; causal mask; with E */
    double tol;                                        /* rounding allowed */
} order_gaps;

/* Q4: attention cannot see the order of its inputs, unless masked. */
static order_gaps order_section(const invent_opts *o, const example *m)
{
    report_section(o, "Attention does not see the order");
    report_text(o, "Nothing so far tells attention where a token sits: the score of a pair "
                   "depends on the two tokens alone. Reorder the input rows by a permutation P "
                   "and the output rows come out reordered the same way, attn(P X) = P attn(X) "
                   "(scores scaled by 1/sqrt(r), as chapter 7 explains). This is checked for a "
                   "rotation of the tokens by one place and for a random shuffle, with the "
                   "single matrix A and with the factored pair, without a mask; then with a "
                   "causal mask, which does see the order, as the control.");
    order_gaps g;
    g.tol = order_tolerance(m);
    double worst = 0.0, masked = INFINITY;
    report_line(o, "  max |attn(P X) - P attn(X)|     no mask   causal mask");
    for (int k = 0; k < CASES; k++) {
        g.plain[k] = equivariance_gap(m, NULL, k % 2, ATTN_BIDIRECTIONAL, m->P[k / 2]);
        g.causal[k] = equivariance_gap(m, NULL, k % 2, ATTN_CAUSAL, m->P[k / 2]);
        g.placed[k] = equivariance_gap(m, m->E, k % 2, ATTN_BIDIRECTIONAL, m->P[k / 2]);
        report_line(o, "  %-28s  %9.2e   %11.2e", CASE_NAME[k], g.plain[k], g.causal[k]);
        worst = fmax(worst, g.plain[k]);
        masked = fmin(masked, g.causal[k]);
    }
    report_line(o, "%s", "");
    check_at_most("Q4", "without positions or mask, attn(P X) = P attn(X) for a rotation and a "
                        "shuffle, single matrix and factored pair alike (largest difference)",
                  worst, g.tol);
    check_control("Q4", "a causal mask switched on; its smallest difference");
    check_at_most("Q4", NULL, masked, g.tol);
    return g;
}

/* Figure: P2's dot products against the offset, and the gaps of Q4 and P1. */
static void plot_positions(const invent_opts *o, const gsl_matrix *G, const gsl_matrix *Gsin,
                           const order_gaps *g, size_t paired)
{
    plot *p = plot_begin(o, "ch06_positions");
    size_t T = G->size1 < 64 ? G->size1 : 64; /* the first 64 positions keep the figure light */
    plot_set(p, "T", (double)T);
    plot_set(p, "dim", (double)paired);
    plot_block(p, "offset_t_minus_s  E_t_dot_E_s  same_with_sines_only");
    for (size_t t = 0; t < T; t++)
        for (size_t s = 0; s < T; s++)
            PLOT_ROW(p, (double)t - (double)s, gsl_matrix_get(G, t, s), gsl_matrix_get(Gsin, t, s));
    plot_block(p, "case  gap_without_positions  gap_with_positions");
    for (int k = 0; k < CASES; k++)
        PLOT_ROW(p, (double)k, fmax(g->plain[k], 1e-17), g->placed[k]);
    for (int k = 0; k < CASES; k++) {
        char var[24];
        snprintf(var, sizeof var, "case%d", k);
        plot_set_text(p, var, CASE_NAME[k]);
    }
    plot_set(p, "tol", g->tol);
    plot_render(p, "ch06_positions.gp");
}

/* P2: encodings meet by their offset alone; P1: they break Q4's symmetry. */
static void positions_section(const invent_opts *o, const example *m, const order_gaps *g)
{
    size_t T = m->E->size1, d = m->E->size2, paired = d - d % 2;
    report_section(o, "Where a token sits: positions");
    report_text(o, "Vaswani et al. (2017) add to token t a position encoding E_t whose "
                   "coordinates come in pairs (sin t w_k, cos t w_k), one frequency w_k = "
                   "10000^(-2k/d) per pair. Since sin a sin b + cos a cos b = cos(a - b), the dot "
                   "product of two encodings, E_t . E_s = sum_k cos((t - s) w_k), depends only on "
                   "the offset t - s. Measured over all %zu x %zu pairs of positions (on the %zu "
                   "paired coordinates%s):", T, T, paired,
                d % 2 ? "; the last one, a sine without its cosine, is left out" : "");
    scope *sc = scope_open();
    gsl_matrix_const_view Ep = gsl_matrix_const_submatrix(m->E, 0, 0, T, paired);
    gsl_matrix *G = scope_keep_matrix(sc, mat_product(&Ep.matrix, CblasNoTrans, &Ep.matrix, CblasTrans));
    gsl_matrix *Esin = scope_keep_matrix(sc, mat_clone(&Ep.matrix));
    for (size_t j = 1; j < paired; j += 2) { /* the control: every cosine removed */
        gsl_vector_view c = gsl_matrix_column(Esin, j);
        gsl_vector_set_zero(&c.vector);
    }
    gsl_matrix *Gsin = scope_keep_matrix(sc, mat_product(Esin, CblasNoTrans, Esin, CblasTrans));
    double spread = NAN, spread_sin = NAN;
    chapter_must(position_offset_spread(G, &spread), "comparing the dot products");
    chapter_must(position_offset_spread(Gsin, &spread_sin), "comparing the dot products");
    for (size_t k = 0; k < 3 && k < T; k++)
        report_line(o, "  offset %zu: E_t . E_{t+%zu} = %.12f for every t", k, k,
                    gsl_matrix_get(G, k, 0));
    report_line(o, "%s", "");
    /* sin(t w) and cos(t w) are good to about t epsilon, and d of them are summed */
    double tol = rounding_tolerance(paired * T, &Ep.matrix);
    check_at_most("P2", "E_t . E_s depends only on t - s (largest spread among the pairs of one "
                        "offset)", spread, tol);
    check_control("P2", "sines only, every cosine removed");
    check_at_most("P2", NULL, spread_sin, tol);
    double moved = INFINITY;
    for (int k = 0; k < CASES; k++)
        moved = fmin(moved, g->placed[k]);
    report_line(o, "%s", "");
    report_text(o, "Added to the tokens, the encoding makes the scores depend on where a token "
                   "sits, and attention no longer commutes with reordering: attn(P X + E) against "
                   "P attn(X + E), the tokens moved and the positions left in place, differ by "
                   "at least %.3g over the four cases of the previous section.", moved);
    check_at_least("P1", "with the position encoding added, attn(P X + E) differs from P attn(X + E) "
                         "by more than 10^6 times the rounding of Q4, in every case", moved, 1e6 * g->tol);
    check_control("P1", "no position encoding, E = 0; Q4's largest difference");
    double worst = 0.0;
    for (int k = 0; k < CASES; k++)
        worst = fmax(worst, g->plain[k]);
    check_at_least("P1", NULL, worst, 1e6 * g->tol);
    plot_positions(o, G, Gsin, g, paired);
    scope_close(sc);
}

/* ---------------------------------------------------------------- Q5 */

#define QUADRATIC_PAIRS 16 /* tokens whose pairs are checked one by one in Q5 */

/* -> largest |z^T B z - S[t][i]| over the pairs of the first QUADRATIC_PAIRS
 * tokens, z = [x_t; x_i] (or [x_i; x_t] when `swapped`, the control), B =
 * [0 M/2; M^T/2 0]: (2d, 2d); each pair costs (2d)^2 */
static double quadratic_form_gap(const example *m, const gsl_matrix *S, const gsl_matrix *B,
                                 int swapped)
{
    size_t T = m->X->size1 < QUADRATIC_PAIRS ? m->X->size1 : QUADRATIC_PAIRS, d = m->X->size2;
    scope *sc = scope_open();
    gsl_vector *z = scope_vector(sc, 2 * d), *Bz = scope_vector(sc, 2 * d);
    gsl_vector_view top = gsl_vector_subvector(z, 0, d), low = gsl_vector_subvector(z, d, d);
    double worst = 0.0;
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i < T; i++) {
            gsl_matrix_get_row(&top.vector, m->X, swapped ? i : t);
            gsl_matrix_get_row(&low.vector, m->X, swapped ? t : i);
            double q;
            gsl_blas_dsymv(CblasLower, 1.0, B, z, 0.0, Bz);
            gsl_blas_ddot(z, Bz, &q);
            worst = fmax(worst, fabs(q - gsl_matrix_get(S, t, i)));
        }
    scope_close(sc);
    return worst;
}

/* Q5: every score is a quadratic form of the input; the weights are not. */
static void quadratic_section(const invent_opts *o, const example *m)
{
    size_t T = m->X->size1, d = m->X->size2, r = m->Wq->size1;
    report_section(o, "A quadratic form of the input");
    report_text(o, "Before the softmax, the score x_L^T (W_q^T W_k) x_i is of degree two in the "
                   "input: stack the two tokens into z = [x_L; x_i] and it is z^T B z for the "
                   "symmetric 2d x 2d matrix B = [0, M/2; M^T/2, 0], M = W_q^T W_k. So scaling "
                   "every token by 3 scales every score by 9. The softmax that follows is no "
                   "such form: its weights sum to 1 whatever the scale.");
    scope *sc = scope_open();
    gsl_matrix *B = scope_matrix(sc, 2 * d, 2 * d), *S = scope_matrix(sc, T, T);
    gsl_matrix *S3 = scope_matrix(sc, T, T), *X3 = scope_keep_matrix(sc, mat_clone(m->X));
    gsl_matrix *Q = scope_matrix(sc, T, m->Wq->size1), *K = scope_matrix(sc, T, m->Wq->size1);
    gsl_matrix_view upper = gsl_matrix_submatrix(B, 0, d, d, d);
    gsl_matrix_view lower = gsl_matrix_submatrix(B, d, 0, d, d);
    gsl_matrix_memcpy(&upper.matrix, m->A);
    gsl_matrix_transpose_memcpy(&lower.matrix, m->A);
    gsl_matrix_scale(B, 0.5);
    gsl_matrix_scale(X3, 3.0);
    chapter_must(factor_scores(m->X, m->Wq, m->Wk, Q, K, S), "scoring the tokens");
    chapter_must(factor_scores(X3, m->Wq, m->Wk, Q, K, S3), "scoring the tokens times 3");
    size_t paired = T < QUADRATIC_PAIRS ? T : QUADRATIC_PAIRS;
    char claim[160];
    snprintf(claim, sizeof claim, "every score equals z^T B z, a quadratic form of the stacked "
                                  "input (largest difference over the pairs of the %s%zu tokens)",
             paired < T ? "first " : "", paired);
    double tol = rounding_tolerance(2 * d + r, S);
    check_at_most("Q5", claim, quadratic_form_gap(m, S, B, 0), tol);
    check_control("Q5", "the two tokens stacked the other way, z = [x_i; x_L]");
    check_at_most("Q5", NULL, quadratic_form_gap(m, S, B, 1), tol);
    gsl_matrix *W = scope_keep_matrix(sc, mat_clone(S)), *W3 = scope_keep_matrix(sc, mat_clone(S3));
    chapter_must(softmax_rows(W, sqrt((double)r)), "taking the softmax");
    chapter_must(softmax_rows(W3, sqrt((double)r)), "taking the softmax");
    gsl_matrix_scale(S, 9.0);
    gsl_matrix_scale(W, 9.0);
    check_at_most("Q5", "scaling the input by 3 scales every score by 9 (relative error)",
                  mat_rel_error(S3, S), 1e-14);
    check_control("Q5", "the weights after the softmax instead of the scores");
    check_at_most("Q5", NULL, mat_rel_error(W3, W), 1e-14);
    scope_close(sc);
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 32, .rank = 8, .tokens = 16};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 2, 256, "size d of a token (SVDs of d x d matrices)"},
        {"rank", CLI_SIZE, &s.rank, 1, 255, "rows r of W_q and W_k (below --dim)"},
        {"tokens", CLI_SIZE, &s.tokens, 2, 512, "tokens T in the examples"},
    };
    const cli_spec spec = {"ch06", "Chapter 6: factoring A into queries and keys, A = W_q^T W_k.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.rank >= s.dim)
        return cli_fail(&o, "--rank (%zu%s) must be below --dim (%zu%s): at r = d the pair is as "
                            "general as a free A, and there is no rank limit to show", s.rank,
                        flag_given(argc, argv, "rank") ? "" : ", the default", s.dim,
                        flag_given(argc, argv, "dim") ? "" : ", the default");
    rc = chapter_start(&o, "Chapter 6: queries and keys by factoring");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(o.seed));
    example m = example_new(sc, &s, r);
    chapter_dump(&o, "X", m.X);
    chapter_dump(&o, "W_q", m.Wq);
    chapter_dump(&o, "W_k", m.Wk);
    factored_section(&o, &m);
    memory_section(&o);
    rank_section(&o, &m, r);
    cross_section(&o, &s, r);
    cost_section(&o, &s);
    order_gaps g = order_section(&o, &m);
    positions_section(&o, &m, &g);
    quadratic_section(&o, &m);
    scope_close(sc);
    return chapter_close(&o, 0,
                         "The scores are in place, but nothing yet turns them into weights. The "
                         "next chapter normalises them over the positions with a softmax, says "
                         "why the scores are divided by sqrt(r), and adds the mask that keeps "
                         "each token from looking ahead.");
}
