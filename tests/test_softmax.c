/* Unit tests: the stable row softmax with a temperature. */
#include <criterion/criterion.h>
#include <math.h>

#include "softmax.h"
#include "status.h"

static double sum_of(const gsl_vector *w)
{
    double total = 0.0;
    for (size_t i = 0; i < w->size; i++)
        total += gsl_vector_get(w, i);
    return total;
}

Test(softmax, weights_are_exp_over_sum)
{
    double s[] = {1.0, 2.0, 3.0};
    gsl_vector_view v = gsl_vector_view_array(s, 3);
    cr_assert_eq(softmax_vector(&v.vector, 1.0), INVENT_OK);
    double z = exp(1.0) + exp(2.0) + exp(3.0);
    for (int i = 0; i < 3; i++)
        cr_assert_float_eq(s[i], exp(i + 1.0) / z, 1e-15);
}

Test(softmax, stable_at_plus_and_minus_1e4)
{
    double s[] = {1e4, -1e4, 1e4 - 1.0, -1e4};
    gsl_vector_view v = gsl_vector_view_array(s, 4);
    cr_assert_eq(softmax_vector(&v.vector, 1.0), INVENT_OK);
    for (int i = 0; i < 4; i++)
        cr_assert(isfinite(s[i]), "weight %d is not finite", i);
    cr_assert_float_eq(sum_of(&v.vector), 1.0, 1e-15);
    cr_assert_float_eq(s[0], 1.0 / (1.0 + exp(-1.0)), 1e-15);
    cr_assert_eq(s[1], 0.0);
}

Test(softmax, temperature_limits)
{
    double cold[] = {0.3, 1.2, -0.5, 1.1}, hot[] = {0.3, 1.2, -0.5, 1.1};
    gsl_vector_view c = gsl_vector_view_array(cold, 4), h = gsl_vector_view_array(hot, 4);
    cr_assert_eq(softmax_vector(&c.vector, 1e-4), INVENT_OK);
    cr_assert_float_eq(cold[1], 1.0, 1e-12, "tau -> 0 must give the one-hot of the largest");
    cr_assert_eq(softmax_vector(&h.vector, 1e8), INVENT_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(hot[i], 0.25, 1e-7, "tau -> infinity must give uniform weights");
}

Test(softmax, infinite_temperature_is_uniform_over_the_visible)
{
    double s[] = {2.0, -INFINITY, 5.0};
    gsl_vector_view v = gsl_vector_view_array(s, 3);
    cr_assert_eq(softmax_vector(&v.vector, INFINITY), INVENT_OK);
    cr_assert_eq(s[0], 0.5);
    cr_assert_eq(s[1], 0.0);
    cr_assert_eq(s[2], 0.5);
}

Test(softmax, masked_entries_get_zero_and_a_fully_masked_row_all_zero)
{
    gsl_matrix *S = gsl_matrix_alloc(2, 3);
    gsl_matrix_set_all(S, -INFINITY);
    gsl_matrix_set(S, 0, 0, 0.7);
    gsl_matrix_set(S, 0, 2, 0.7);
    cr_assert_eq(softmax_rows(S, 1.0), INVENT_OK);
    cr_assert_eq(gsl_matrix_get(S, 0, 0), 0.5);
    cr_assert_eq(gsl_matrix_get(S, 0, 1), 0.0);
    for (size_t i = 0; i < 3; i++)
        cr_assert_eq(gsl_matrix_get(S, 1, i), 0.0, "a fully masked row attends to nothing");
    gsl_matrix_free(S);
}

Test(softmax, rejects_bad_temperature_nan_and_plus_infinity)
{
    double s[] = {1.0, 2.0};
    gsl_vector_view v = gsl_vector_view_array(s, 2);
    cr_assert_eq(softmax_vector(&v.vector, 0.0), INVENT_ERANGE);
    cr_assert_eq(softmax_vector(&v.vector, -1.0), INVENT_ERANGE);
    cr_assert_eq(softmax_vector(&v.vector, NAN), INVENT_ERANGE);
    s[1] = NAN;
    cr_assert_eq(softmax_vector(&v.vector, 1.0), INVENT_ERANGE);
    s[1] = INFINITY;
    cr_assert_eq(softmax_vector(&v.vector, 1.0), INVENT_ERANGE);
}

Test(softmax, entropy_of_uniform_and_one_hot)
{
    double u[] = {0.25, 0.25, 0.25, 0.25}, one[] = {0.0, 1.0, 0.0, 0.0};
    gsl_vector_view vu = gsl_vector_view_array(u, 4), vo = gsl_vector_view_array(one, 4);
    cr_assert_float_eq(softmax_entropy(&vu.vector), log(4.0), 1e-15);
    cr_assert_eq(softmax_entropy(&vo.vector), 0.0);
}
