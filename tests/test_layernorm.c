/* Unit tests: layer normalisation. */
#include <criterion/criterion.h>
#include <math.h>

#include "layernorm.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(layernorm, rows_get_mean_zero_and_variance_one)
{
    gsl_rng *r = rng_new(2);
    gsl_matrix *X = mat_gaussian(4, 10, 3.0, r), *Y = gsl_matrix_alloc(4, 10);
    gsl_vector *g = gsl_vector_alloc(10), *b = gsl_vector_calloc(10);
    gsl_vector *mean = gsl_vector_alloc(4), *rstd = gsl_vector_alloc(4);
    gsl_vector_set_all(g, 1.0);
    gsl_matrix_add_constant(X, 7.0);
    cr_assert_eq(layernorm_forward(X, g, b, 1e-12, Y, mean, rstd), INVENT_OK);
    for (size_t t = 0; t < 4; t++) {
        double s = 0.0, sq = 0.0;
        for (size_t i = 0; i < 10; i++) {
            s += gsl_matrix_get(Y, t, i);
            sq += gsl_matrix_get(Y, t, i) * gsl_matrix_get(Y, t, i);
        }
        cr_assert_float_eq(s / 10, 0.0, 1e-12);
        cr_assert_float_eq(sq / 10, 1.0, 1e-9);
        cr_assert_gt(gsl_vector_get(mean, t), 4.0, "the shift of 7 should show in the mean");
    }
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    gsl_vector_free(g);
    gsl_vector_free(b);
    gsl_vector_free(mean);
    gsl_vector_free(rstd);
    gsl_rng_free(r);
}

Test(layernorm, gamma_and_beta_stretch_and_shift_in_place)
{
    gsl_matrix *X = gsl_matrix_alloc(1, 2);
    gsl_matrix_set(X, 0, 0, 1.0);
    gsl_matrix_set(X, 0, 1, 3.0); /* mean 2, variance 1: xhat = (-1, 1) */
    gsl_vector *g = gsl_vector_alloc(2), *b = gsl_vector_alloc(2);
    gsl_vector_set(g, 0, 2.0);
    gsl_vector_set(g, 1, 3.0);
    gsl_vector_set(b, 0, 0.5);
    gsl_vector_set(b, 1, -0.5);
    cr_assert_eq(layernorm_forward(X, g, b, 1e-300, X, NULL, NULL), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(X, 0, 0), -1.5, 1e-12);
    cr_assert_float_eq(gsl_matrix_get(X, 0, 1), 2.5, 1e-12);
    gsl_matrix_free(X);
    gsl_vector_free(g);
    gsl_vector_free(b);
}

Test(layernorm, constant_row_stays_finite_and_bad_input_is_refused)
{
    gsl_matrix *X = gsl_matrix_alloc(1, 3), *Y = gsl_matrix_alloc(1, 3);
    gsl_matrix_set_all(X, 4.0);
    gsl_vector *g = gsl_vector_alloc(3), *b = gsl_vector_calloc(3), *g2 = gsl_vector_alloc(2);
    gsl_vector_set_all(g, 1.0);
    cr_assert_eq(layernorm_forward(X, g, b, 1e-5, Y, NULL, NULL), INVENT_OK);
    cr_assert_eq(gsl_matrix_get(Y, 0, 1), 0.0, "a constant row normalises to zero, not NaN");
    cr_assert_eq(layernorm_forward(X, g, b, 0.0, Y, NULL, NULL), INVENT_ERANGE);
    cr_assert_eq(layernorm_forward(X, g2, b, 1e-5, Y, NULL, NULL), INVENT_ESHAPE);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    gsl_vector_free(g);
    gsl_vector_free(g2);
    gsl_vector_free(b);
}
