/* Unit tests: singular values by one-sided Jacobi. */
#include <criterion/criterion.h>
#include <math.h>

#include "jacobi_svd.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(jacobi_svd, known_values_of_a_two_by_two)
{
    double a[] = {3, 0, 4, 5}; /* A^T A has eigenvalues 45 and 5 */
    gsl_matrix_view A = gsl_matrix_view_array(a, 2, 2);
    gsl_vector *s = gsl_vector_alloc(2);
    cr_assert_eq(jacobi_singular_values(&A.matrix, s), INVENT_OK);
    cr_assert_float_eq(gsl_vector_get(s, 0), sqrt(45.0), 1e-14);
    cr_assert_float_eq(gsl_vector_get(s, 1), sqrt(5.0), 1e-14);
    gsl_vector_free(s);
}

/* many zero columns (the diagonal family of chapter 3): the zeros stay exactly 0 */
Test(jacobi_svd, zero_columns_give_exact_zeros)
{
    gsl_rng *r = rng_new(5);
    gsl_matrix *A = gsl_matrix_calloc(30, 16);
    for (size_t i = 0; i < 30; i++)
        for (size_t j = 0; j < 16; j += 5)
            gsl_matrix_set(A, i, j, gsl_rng_uniform(r) - 0.5);
    gsl_vector *s = gsl_vector_alloc(16);
    cr_assert_eq(jacobi_singular_values(A, s), INVENT_OK);
    for (size_t k = 0; k < 16; k++) {
        cr_assert_geq(gsl_vector_get(s, k), 0.0, "s[%zu] negative", k);
        if (k > 0)
            cr_assert_geq(gsl_vector_get(s, k - 1), gsl_vector_get(s, k), "not descending");
    }
    cr_assert_gt(gsl_vector_get(s, 3), 0.0);
    for (size_t k = 4; k < 16; k++)
        cr_assert_eq(gsl_vector_get(s, k), 0.0, "s[%zu] = %g", k, gsl_vector_get(s, k));
    gsl_matrix_free(A);
    gsl_vector_free(s);
    gsl_rng_free(r);
}

Test(jacobi_svd, a_wide_matrix_has_the_values_of_its_transpose)
{
    gsl_rng *r = rng_new(2);
    gsl_matrix *A = mat_gaussian(3, 7, 1.0, r), *At = gsl_matrix_alloc(7, 3);
    gsl_matrix_transpose_memcpy(At, A);
    gsl_vector *s = gsl_vector_alloc(3), *st = gsl_vector_alloc(3);
    cr_assert_eq(jacobi_singular_values(A, s), INVENT_OK);
    cr_assert_eq(jacobi_singular_values(At, st), INVENT_OK);
    for (size_t k = 0; k < 3; k++)
        cr_assert_float_eq(gsl_vector_get(s, k), gsl_vector_get(st, k), 1e-12);
    gsl_vector *wrong = gsl_vector_alloc(7);
    cr_assert_eq(jacobi_singular_values(A, wrong), INVENT_ESHAPE);
    gsl_matrix_free(A);
    gsl_matrix_free(At);
    gsl_vector_free(s);
    gsl_vector_free(st);
    gsl_vector_free(wrong);
    gsl_rng_free(r);
}
