/* Unit tests: the measured roles of an attention head. */
#include <criterion/criterion.h>
#include <math.h>

#include "head_roles.h"
#include "rng.h"
#include "status.h"

enum { T = 6 };

Test(head_roles, a_previous_token_pattern)
{
    gsl_matrix *A = gsl_matrix_calloc(T, T);
    gsl_matrix_set(A, 0, 0, 1.0);
    for (size_t t = 1; t < T; t++)
        gsl_matrix_set(A, t, t - 1, 1.0);
    size_t x[T] = {0, 1, 2, 3, 4, 5};
    head_profile p = {0};
    cr_assert_eq(head_profile_add(A, x, &p), INVENT_OK);
    head_profile_finish(&p, 1);
    cr_assert_float_eq(p.previous, 1.0, 1e-15);
    cr_assert_float_eq(p.first, 0.0, 1e-15); /* t = 1's first token is left out */
    cr_assert_float_eq(p.self, 0.0, 1e-15);
    cr_assert_float_eq(p.entropy, 0.0, 1e-15);
    cr_assert_str_eq(head_verdict(&p), "previous-token");
    gsl_matrix_free(A);
}

Test(head_roles, uniform_rows_are_broad_and_see_repeats)
{
    gsl_matrix *A = gsl_matrix_calloc(T, T);
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i <= t; i++)
            gsl_matrix_set(A, t, i, 1.0 / (double)(t + 1));
    size_t x[T] = {7, 8, 7, 8, 7, 8}; /* query t has floor(t / 2) earlier copies */
    head_profile p = {0};
    cr_assert_eq(head_profile_add(A, x, &p), INVENT_OK);
    head_profile_finish(&p, 1);
    double same = 0.0;
    for (size_t t = 1; t < T; t++)
        same += (double)(t / 2) / (double)(t + 1) / (T - 1);
    cr_assert_float_eq(p.same, same, 1e-15);
    cr_assert_float_eq(p.entropy, p.uniform, 1e-14);
    cr_assert_str_eq(head_verdict(&p), "broad");
    gsl_matrix_free(A);
}

/* a shuffle moves weight inside each causal row only */
Test(head_roles, shuffling_keeps_each_row)
{
    gsl_rng *r = rng_new(1);
    gsl_matrix *A = gsl_matrix_calloc(T, T);
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i <= t; i++)
            gsl_matrix_set(A, t, i, (double)(i + 1) / ((t + 1) * (t + 2) / 2.0));
    head_shuffle(A, r);
    for (size_t t = 0; t < T; t++) {
        double sum = 0.0;
        for (size_t i = 0; i < T; i++)
            sum += gsl_matrix_get(A, t, i);
        cr_assert_float_eq(sum, 1.0, 1e-14);
        for (size_t i = t + 1; i < T; i++)
            cr_assert_eq(gsl_matrix_get(A, t, i), 0.0);
    }
    gsl_matrix_free(A);
    gsl_rng_free(r);
}
