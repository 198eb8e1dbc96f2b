/* Unit tests: causal and sliding-window masks. */
#include <criterion/criterion.h>
#include <math.h>

#include "mask.h"
#include "status.h"

Test(mask, causal_hides_exactly_the_future)
{
    gsl_matrix *S = gsl_matrix_alloc(5, 5);
    gsl_matrix_set_all(S, 1.5);
    cr_assert_eq(mask_causal(S), INVENT_OK);
    size_t hidden = 0;
    for (size_t t = 0; t < 5; t++)
        for (size_t i = 0; i < 5; i++) {
            double v = gsl_matrix_get(S, t, i);
            cr_assert_eq(v, i > t ? -INFINITY : 1.5, "entry (%zu, %zu)", t, i);
            hidden += v == -INFINITY;
        }
    cr_assert_eq(hidden, 5 * 4 / 2);
    gsl_matrix_free(S);
}

Test(mask, window_keeps_the_w_most_recent)
{
    gsl_matrix *S = gsl_matrix_calloc(6, 6);
    cr_assert_eq(mask_window(S, 2), INVENT_OK);
    for (size_t t = 0; t < 6; t++)
        for (size_t i = 0; i < 6; i++) {
            int visible = i <= t && t - i < 2;
            cr_assert_eq(gsl_matrix_get(S, t, i) == 0.0, visible, "entry (%zu, %zu)", t, i);
        }
    gsl_matrix_free(S);
}

Test(mask, rejects_non_square_and_empty_window)
{
    gsl_matrix *S = gsl_matrix_calloc(3, 4), *Q = gsl_matrix_calloc(3, 3);
    cr_assert_eq(mask_causal(S), INVENT_ESHAPE);
    cr_assert_eq(mask_window(S, 1), INVENT_ESHAPE);
    cr_assert_eq(mask_window(Q, 0), INVENT_ERANGE);
    gsl_matrix_free(S);
    gsl_matrix_free(Q);
}
