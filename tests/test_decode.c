/* Unit tests: decoding token by token from a cache, with counted work. */
#include <criterion/criterion.h>
#include <math.h>

#include "bilinear.h"
#include "decode.h"
#include "factor.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

/* largest |S - R| on and below the diagonal; -1 when S is not zero above */
static double causal_gap(const gsl_matrix *S, const gsl_matrix *R)
{
    double worst = 0.0;
    for (size_t t = 0; t < S->size1; t++)
        for (size_t i = 0; i < S->size2; i++) {
            if (i > t && gsl_matrix_get(S, t, i) != 0.0)
                return -1.0;
            double g = fabs(gsl_matrix_get(S, t, i) - gsl_matrix_get(R, t, i));
            worst = i <= t && g > worst ? g : worst;
        }
    return worst;
}

Test(decode, the_three_forms_give_the_recomputed_scores)
{
    gsl_rng *r = rng_new(3);
    gsl_matrix *X = mat_gaussian(6, 5, 1.0, r), *A = mat_gaussian(5, 5, 1.0, r);
    gsl_matrix *Wq = mat_gaussian(2, 5, 1.0, r), *Wk = mat_gaussian(2, 5, 1.0, r);
    gsl_matrix *S = gsl_matrix_alloc(6, 6), *R = gsl_matrix_alloc(6, 6);
    gsl_matrix *keys = gsl_matrix_alloc(6, 5), *Q = gsl_matrix_alloc(6, 2), *K = gsl_matrix_alloc(6, 2);
    decode_work *wd = decode_work_new(6, 5), *wr = decode_work_new(6, 2);
    decode_count n;
    cr_assert_eq(bilinear_scores(X, A, keys, R), INVENT_OK);
    cr_assert_eq(decode_bilinear(X, A, wd, S, &n), INVENT_OK);
    cr_assert(causal_gap(S, R) >= 0.0 && causal_gap(S, R) <= 1e-13);
    const gsl_matrix *As[1] = {A};
    cr_assert_eq(decode_shared(X, As, 1, wd, &S, &n), INVENT_OK);
    cr_assert(causal_gap(S, R) >= 0.0 && causal_gap(S, R) <= 1e-13);
    cr_assert_eq(factor_scores(X, Wq, Wk, Q, K, R), INVENT_OK);
    cr_assert_eq(decode_factored(X, Wq, Wk, wr, S, &n), INVENT_OK);
    cr_assert(causal_gap(S, R) >= 0.0 && causal_gap(S, R) <= 1e-13);
    cr_assert_eq(bilinear_scores(X, A, keys, R), INVENT_OK);
    cr_assert_eq(decode_recomputed(X, As, 1, wd, &S, &n), INVENT_OK);
    cr_assert(causal_gap(S, R) >= 0.0 && causal_gap(S, R) <= 1e-13);
    decode_work_free(wd);
    decode_work_free(wr);
    gsl_matrix_free(X);
    gsl_matrix_free(A);
    gsl_matrix_free(Wq);
    gsl_matrix_free(Wk);
    gsl_matrix_free(S);
    gsl_matrix_free(R);
    gsl_matrix_free(keys);
    gsl_matrix_free(Q);
    gsl_matrix_free(K);
    gsl_rng_free(r);
}

Test(decode, counts_what_each_form_does)
{
    /* T = 4, d = 3, r = 2, H = 2: 10 causal pairs per function */
    gsl_matrix *X = gsl_matrix_calloc(4, 3), *A = gsl_matrix_calloc(3, 3);
    gsl_matrix *W = gsl_matrix_calloc(2, 3), *S = gsl_matrix_alloc(4, 4), *S2 = gsl_matrix_alloc(4, 4);
    decode_work *wd = decode_work_new(4, 3), *wr = decode_work_new(4, 2);
    decode_count n;
    cr_assert_eq(decode_bilinear(X, A, wd, S, &n), INVENT_OK);
    cr_assert(n.scores == 10 && n.proj == 4 * 9 && n.pair == 10 * 3 && n.cached == 12);
    cr_assert_eq(decode_factored(X, W, W, wr, S, &n), INVENT_OK);
    cr_assert(n.scores == 10 && n.proj == 4 * 2 * 6 && n.pair == 10 * 2 && n.cached == 8);
    const gsl_matrix *As[2] = {A, A};
    gsl_matrix *Ss[2] = {S, S2};
    cr_assert_eq(decode_shared(X, As, 2, wd, Ss, &n), INVENT_OK);
    cr_assert(n.scores == 20 && n.proj == 2 * 4 * 9 && n.pair == 20 * 3 && n.cached == 12,
              "one cache of raw tokens for both functions");
    cr_assert_eq(decode_recomputed(X, As, 2, wd, Ss, &n), INVENT_OK);
    cr_assert(n.scores == 20 && n.proj == 2 * 10 * 9 && n.pair == 20 * 3 && n.cached == 12,
              "every key recomputed: one d x d product per pair");
    decode_work_free(wd);
    decode_work_free(wr);
    gsl_matrix_free(X);
    gsl_matrix_free(A);
    gsl_matrix_free(W);
    gsl_matrix_free(S);
    gsl_matrix_free(S2);
}

Test(decode, refuses_shapes_that_do_not_fit)
{
    gsl_matrix *X = gsl_matrix_calloc(4, 3), *A = gsl_matrix_calloc(2, 2);
    gsl_matrix *Wq = gsl_matrix_calloc(2, 3), *Wk = gsl_matrix_calloc(3, 3);
    gsl_matrix *S = gsl_matrix_alloc(4, 4), *bad = gsl_matrix_alloc(3, 4);
    decode_work *w2 = decode_work_new(4, 2), *w3 = decode_work_new(4, 3);
    decode_count n;
    cr_assert_eq(decode_bilinear(X, A, w2, S, &n), INVENT_ESHAPE);
    cr_assert_eq(decode_factored(X, Wq, Wk, w2, S, &n), INVENT_ESHAPE, "r of W_q and W_k differ");
    cr_assert_eq(decode_factored(X, Wq, Wq, w2, bad, &n), INVENT_ESHAPE);
    const gsl_matrix *As[1] = {A};
    cr_assert_eq(decode_shared(X, As, 1, w3, &S, &n), INVENT_ESHAPE);
    cr_assert_eq(decode_shared(X, As, 0, w3, &S, &n), INVENT_ESHAPE);
    cr_assert_eq(decode_recomputed(X, As, 1, w3, &S, &n), INVENT_ESHAPE);
    cr_assert_eq(decode_recomputed(X, As, 0, w3, &S, &n), INVENT_ESHAPE);
    decode_work_free(w2);
    decode_work_free(w3);
    gsl_matrix_free(X);
    gsl_matrix_free(A);
    gsl_matrix_free(Wq);
    gsl_matrix_free(Wk);
    gsl_matrix_free(S);
    gsl_matrix_free(bad);
}

Test(decode, one_workspace_serves_many_decodes_and_refuses_what_it_cannot_hold)
{
    gsl_rng *r = rng_new(5);
    gsl_matrix *X = mat_gaussian(5, 3, 1.0, r), *A = mat_gaussian(3, 3, 1.0, r);
    gsl_matrix *S = gsl_matrix_alloc(5, 5), *again = gsl_matrix_alloc(5, 5);
    gsl_matrix_view first3 = gsl_matrix_submatrix(X, 0, 0, 3, 3);
    gsl_matrix_view S3 = gsl_matrix_submatrix(again, 0, 0, 3, 3);
    decode_work *w = decode_work_new(5, 3), *small = decode_work_new(4, 3);
    decode_work *wide = decode_work_new(5, 4);
    decode_count n;
    cr_assert_eq(decode_bilinear(X, A, w, S, &n), INVENT_OK);
    cr_assert_eq(decode_bilinear(&first3.matrix, A, w, &S3.matrix, &n), INVENT_OK,
                 "a workspace for 5 tokens decodes 3");
    cr_assert_eq(decode_bilinear(X, A, w, again, &n), INVENT_OK, "and 5 again, cache emptied");
    cr_assert(gsl_matrix_equal(S, again));
    cr_assert_eq(n.cached, 15);
    cr_assert_eq(decode_bilinear(X, A, small, S, &n), INVENT_ESHAPE, "4 places for 5 tokens");
    cr_assert_eq(decode_bilinear(X, A, wide, S, &n), INVENT_ESHAPE, "keys of 3, a width of 4");
    cr_assert_null(decode_work_new(0, 3));
    cr_assert_null(decode_work_new(3, 0));
    decode_work_free(w);
    decode_work_free(small);
    decode_work_free(wide);
    decode_work_free(NULL);
    gsl_matrix_free(X);
    gsl_matrix_free(A);
    gsl_matrix_free(S);
    gsl_matrix_free(again);
    gsl_rng_free(r);
}
