/* Unit tests: permutations of the tokens. */
#include <criterion/criterion.h>

#include "permute.h"
#include "rng.h"
#include "status.h"

static int same(const gsl_permutation *p, const gsl_permutation *q)
{
    for (size_t i = 0; i < p->size; i++)
        if (gsl_permutation_get(p, i) != gsl_permutation_get(q, i))
            return 0;
    return 1;
}

Test(permute, rotation_shifts_rows_round)
{
    gsl_permutation *p = gsl_permutation_alloc(4);
    permute_rotation(p, 5); /* 5 mod 4 = 1 */
    gsl_matrix *X = gsl_matrix_alloc(4, 2), *PX = gsl_matrix_alloc(4, 2);
    for (size_t t = 0; t < 4; t++) {
        gsl_matrix_set(X, t, 0, (double)t);
        gsl_matrix_set(X, t, 1, -(double)t);
    }
    cr_assert_eq(permute_rows(p, X, PX), INVENT_OK);
    for (size_t t = 0; t < 4; t++) {
        cr_assert_eq(gsl_matrix_get(PX, t, 0), (double)((t + 1) % 4));
        cr_assert_eq(gsl_matrix_get(PX, t, 1), -(double)((t + 1) % 4));
    }
    gsl_permutation_free(p);
    gsl_matrix_free(X);
    gsl_matrix_free(PX);
}

Test(permute, random_is_a_valid_permutation_and_seeded)
{
    gsl_rng *r = rng_new(12), *r2 = rng_new(12);
    gsl_permutation *p = gsl_permutation_alloc(50), *q = gsl_permutation_alloc(50);
    permute_random(p, r);
    permute_random(q, r2);
    cr_assert_eq(gsl_permutation_valid(p), GSL_SUCCESS);
    cr_assert_eq(same(p, q), 1, "the same seed gives the same permutation");
    gsl_permutation_init(q);
    cr_assert_eq(same(p, q), 0, "50 tokens are not left in order");
    gsl_permutation_free(p);
    gsl_permutation_free(q);
    gsl_rng_free(r);
    gsl_rng_free(r2);
}

Test(permute, rejects_shapes_that_do_not_fit)
{
    gsl_permutation *p = gsl_permutation_alloc(3);
    gsl_matrix *X = gsl_matrix_calloc(4, 2), *PX = gsl_matrix_calloc(4, 2);
    cr_assert_eq(permute_rows(p, X, PX), INVENT_ESHAPE);
    gsl_permutation_free(p);
    gsl_matrix_free(X);
    gsl_matrix_free(PX);
}
