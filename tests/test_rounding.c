/* Unit tests: tolerances derived from the sizes. */
#include <criterion/criterion.h>
#include <float.h>

#include "rounding.h"

Test(rounding, grows_with_the_terms_and_the_largest_entry)
{
    double m[] = {1.0, -4.0, 2.0, 3.0};
    gsl_matrix_view M = gsl_matrix_view_array(m, 2, 2);
    cr_assert_eq(rounding_tolerance(10, &M.matrix), 8.0 * 10 * DBL_EPSILON * 4.0);
    cr_assert_eq(rounding_tolerance(20, &M.matrix), 2.0 * rounding_tolerance(10, &M.matrix));
}

Test(rounding, softmax_tolerance_scales_with_the_scores_and_the_values)
{
    double s[] = {1e4, -2e4}, v[] = {3.0, -0.5};
    gsl_matrix_view S = gsl_matrix_view_array(s, 1, 2), V = gsl_matrix_view_array(v, 2, 1);
    cr_assert_eq(rounding_tolerance_softmax(5, &S.matrix, &V.matrix),
                 2.0 * 8.0 * 5 * DBL_EPSILON * 2e4 * 3.0);
}
