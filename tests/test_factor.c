/* Unit tests: factoring a score matrix into queries and keys. */
#include <criterion/criterion.h>

#include "bilinear.h"
#include "factor.h"
#include "linalg.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(factor, a_rank_r_matrix_factors_back_exactly)
{
    gsl_rng *r = rng_new(5);
    gsl_matrix *Wq = mat_gaussian(3, 7, 1.0, r), *Wk = mat_gaussian(3, 7, 1.0, r);
    gsl_matrix *A = mat_product(Wq, CblasTrans, Wk, CblasNoTrans);
    gsl_matrix *Fq = gsl_matrix_alloc(3, 7), *Fk = gsl_matrix_alloc(3, 7);
    cr_assert_eq(factor_svd(A, Fq, Fk), INVENT_OK);
    gsl_matrix *B = mat_product(Fq, CblasTrans, Fk, CblasNoTrans);
    cr_assert_leq(mat_rel_error(B, A), 1e-13);
    gsl_matrix_free(Wq);
    gsl_matrix_free(Wk);
    gsl_matrix_free(A);
    gsl_matrix_free(Fq);
    gsl_matrix_free(Fk);
    gsl_matrix_free(B);
    gsl_rng_free(r);
}

Test(factor, truncation_keeps_the_largest_singular_values)
{
    /* diag(3, 2, 1) at rank 2 -> diag(3, 2, 0): the error is the dropped 1 */
    gsl_matrix *A = gsl_matrix_calloc(3, 3);
    for (size_t i = 0; i < 3; i++)
        gsl_matrix_set(A, i, i, 3.0 - (double)i);
    gsl_matrix *Wq = gsl_matrix_alloc(2, 3), *Wk = gsl_matrix_alloc(2, 3);
    cr_assert_eq(factor_svd(A, Wq, Wk), INVENT_OK);
    gsl_matrix *B = mat_product(Wq, CblasTrans, Wk, CblasNoTrans);
    gsl_matrix_set(A, 2, 2, 0.0);
    cr_assert_leq(mat_max_abs_diff(B, A), 1e-14);
    gsl_matrix_free(A);
    gsl_matrix_free(Wq);
    gsl_matrix_free(Wk);
    gsl_matrix_free(B);
}

Test(factor, factored_scores_equal_bilinear_scores_of_the_product)
{
    gsl_rng *r = rng_new(6);
    gsl_matrix *X = mat_gaussian(5, 6, 1.0, r);
    gsl_matrix *Wq = mat_gaussian(2, 6, 1.0, r), *Wk = mat_gaussian(2, 6, 1.0, r);
    gsl_matrix *A = mat_product(Wq, CblasTrans, Wk, CblasNoTrans);
    gsl_matrix *S = gsl_matrix_alloc(5, 5), *F = gsl_matrix_alloc(5, 5);
    gsl_matrix *keys = gsl_matrix_alloc(5, 6), *Q = gsl_matrix_alloc(5, 2), *K = gsl_matrix_alloc(5, 2);
    gsl_vector *s = gsl_vector_alloc(6);
    cr_assert_eq(bilinear_scores(X, A, keys, S), INVENT_OK);
    cr_assert_eq(factor_scores(X, Wq, Wk, Q, K, F), INVENT_OK);
    cr_assert_leq(mat_max_abs_diff(S, F), 1e-12);
    cr_assert_eq(linalg_singular_values(A, s), INVENT_OK);
    cr_assert_eq(linalg_rank(s, 1e-10), 2, "W_q^T W_k has rank r");
    gsl_matrix_free(X);
    gsl_matrix_free(Wq);
    gsl_matrix_free(Wk);
    gsl_matrix_free(A);
    gsl_matrix_free(S);
    gsl_matrix_free(F);
    gsl_matrix_free(keys), gsl_matrix_free(Q), gsl_matrix_free(K);
    gsl_vector_free(s);
    gsl_rng_free(r);
}

Test(factor, rejects_shapes_and_ranks_that_do_not_fit)
{
    gsl_matrix *A = gsl_matrix_calloc(3, 3), *X = gsl_matrix_calloc(4, 3);
    gsl_matrix *W4 = gsl_matrix_calloc(4, 3), *W2 = gsl_matrix_calloc(2, 3);
    gsl_matrix *S = gsl_matrix_calloc(4, 4), *bad = gsl_matrix_calloc(2, 4);
    gsl_matrix *Q = gsl_matrix_calloc(4, 2), *K = gsl_matrix_calloc(4, 2);
    cr_assert_eq(factor_svd(A, W4, W4), INVENT_ESHAPE, "r above d");
    cr_assert_eq(factor_svd(A, W2, W4), INVENT_ESHAPE, "W_q and W_k of different r");
    cr_assert_eq(factor_scores(X, W2, bad, Q, K, S), INVENT_ESHAPE);
    cr_assert_eq(factor_scores(X, W2, W2, Q, K, A), INVENT_ESHAPE);
    cr_assert_eq(factor_scores(X, W2, W2, K, bad, S), INVENT_ESHAPE, "keys of the wrong shape");
    cr_assert_eq(factor_scores(X, W2, W2, Q, K, S), INVENT_OK);
    gsl_matrix_free(Q), gsl_matrix_free(K);
    gsl_matrix_free(A);
    gsl_matrix_free(X);
    gsl_matrix_free(W4);
    gsl_matrix_free(W2);
    gsl_matrix_free(S);
    gsl_matrix_free(bad);
}

Test(factor, cross_scores_of_two_widths_equal_the_rectangular_product)
{
    gsl_rng *r = rng_new(21);
    gsl_matrix *Y = mat_gaussian(4, 5, 1.0, r), *X = mat_gaussian(6, 3, 1.0, r);
    gsl_matrix *Wq = mat_gaussian(2, 5, 1.0, r), *Wk = mat_gaussian(2, 3, 1.0, r);
    gsl_matrix *A = mat_product(Wq, CblasTrans, Wk, CblasNoTrans); /* (5, 3) */
    gsl_matrix *S = gsl_matrix_alloc(4, 6), *SA = gsl_matrix_alloc(4, 6);
    gsl_matrix *square = gsl_matrix_alloc(5, 5), *keys = gsl_matrix_alloc(6, 5);
    gsl_matrix *Q = gsl_matrix_alloc(4, 2), *K = gsl_matrix_alloc(6, 2);
    cr_assert_eq(factor_cross_scores(Y, X, Wq, Wk, Q, K, S), INVENT_OK);
    cr_assert_eq(bilinear_cross_scores(Y, X, A, keys, SA), INVENT_OK);
    cr_assert_lt(mat_max_abs_diff(S, SA), 1e-13);
    gsl_vector_const_view y = gsl_matrix_const_row(Y, 3), x = gsl_matrix_const_row(X, 5);
    double one;
    cr_assert_eq(bilinear_score(&y.vector, A, &x.vector, &one), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(S, 3, 5), one, 1e-13);
    cr_assert_eq(bilinear_cross_scores(Y, X, square, keys, SA), INVENT_ESHAPE,
                 "a square A does not fit");
    cr_assert_eq(factor_cross_scores(Y, X, Wk, Wq, Q, K, S), INVENT_ESHAPE);
    gsl_matrix *mats[] = {Y, X, Wq, Wk, A, S, SA, square, keys, Q, K};
    for (size_t k = 0; k < sizeof mats / sizeof mats[0]; k++)
        gsl_matrix_free(mats[k]);
    gsl_rng_free(r);
}
