/* Unit tests: bilinear scores. */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_blas.h>

#include "bilinear.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(bilinear, identity_gives_the_dot_product)
{
    gsl_rng *r = rng_new(3);
    gsl_matrix *X = mat_gaussian(2, 5, 1.0, r);
    gsl_matrix *I = gsl_matrix_alloc(5, 5);
    gsl_matrix_set_identity(I);
    gsl_vector_const_view a = gsl_matrix_const_row(X, 0), b = gsl_matrix_const_row(X, 1);
    double s, dot;
    cr_assert_eq(bilinear_score(&a.vector, I, &b.vector, &s), INVENT_OK);
    gsl_blas_ddot(&a.vector, &b.vector, &dot);
    cr_assert_float_eq(s, dot, 1e-14);
    gsl_matrix_free(X);
    gsl_matrix_free(I);
    gsl_rng_free(r);
}

Test(bilinear, a_hand_computed_score_and_its_asymmetry)
{
    double a[] = {0.0, 1.0, 0.0, 0.0}, x[] = {1.0, 0.0}, y[] = {0.0, 1.0}, s;
    gsl_matrix_view A = gsl_matrix_view_array(a, 2, 2);
    gsl_vector_view vx = gsl_vector_view_array(x, 2), vy = gsl_vector_view_array(y, 2);
    cr_assert_eq(bilinear_score(&vx.vector, &A.matrix, &vy.vector, &s), INVENT_OK);
    cr_assert_eq(s, 1.0, "x^T A y picks A[0][1]");
    cr_assert_eq(bilinear_score(&vy.vector, &A.matrix, &vx.vector, &s), INVENT_OK);
    cr_assert_eq(s, 0.0, "y^T A x picks A[1][0]: the score need not be symmetric");
}

Test(bilinear, all_pairs_match_one_at_a_time_and_the_cached_key)
{
    gsl_rng *r = rng_new(4);
    gsl_matrix *X = mat_gaussian(6, 4, 1.0, r), *A = mat_gaussian(4, 4, 1.0, r);
    gsl_matrix *S = gsl_matrix_alloc(6, 6), *keys = gsl_matrix_alloc(6, 4);
    gsl_vector *key = gsl_vector_alloc(4);
    cr_assert_eq(bilinear_scores(X, A, keys, S), INVENT_OK);
    for (size_t t = 0; t < 6; t++)
        for (size_t i = 0; i < 6; i++) {
            gsl_vector_const_view xt = gsl_matrix_const_row(X, t), xi = gsl_matrix_const_row(X, i);
            double s, via_key;
            cr_assert_eq(bilinear_score(&xt.vector, A, &xi.vector, &s), INVENT_OK);
            cr_assert_eq(bilinear_key(A, &xi.vector, key), INVENT_OK);
            gsl_blas_ddot(&xt.vector, key, &via_key);
            cr_assert_float_eq(gsl_matrix_get(S, t, i), s, 1e-12);
            cr_assert_float_eq(via_key, s, 1e-12);
            for (size_t j = 0; j < 4; j++) /* row i of keys is the cached key A x_i */
                cr_assert_float_eq(gsl_matrix_get(keys, i, j), gsl_vector_get(key, j), 1e-12);
        }
    gsl_matrix_free(X);
    gsl_matrix_free(A);
    gsl_matrix_free(S);
    gsl_matrix_free(keys);
    gsl_vector_free(key);
    gsl_rng_free(r);
}

Test(bilinear, rejects_shapes_that_do_not_fit)
{
    gsl_matrix *X = gsl_matrix_calloc(3, 4), *A = gsl_matrix_calloc(3, 3);
    gsl_matrix *S = gsl_matrix_calloc(3, 3), *keys = gsl_matrix_calloc(3, 3);
    gsl_vector *x = gsl_vector_calloc(4), *k = gsl_vector_calloc(3);
    double s;
    cr_assert_eq(bilinear_scores(X, A, keys, S), INVENT_ESHAPE);
    cr_assert_eq(bilinear_score(x, A, x, &s), INVENT_ESHAPE);
    cr_assert_eq(bilinear_key(A, x, k), INVENT_ESHAPE);
    gsl_matrix_free(X);
    gsl_matrix_free(A);
    gsl_matrix_free(S);
    gsl_matrix_free(keys);
    gsl_vector_free(x);
    gsl_vector_free(k);
}
