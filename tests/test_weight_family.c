/* Unit tests: parameter counts of the dynamic weight families, in 64 bits. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "rng.h"
#include "score.h"
#include "status.h"
#include "weight_family.h"

Test(weight_family, functions_per_family)
{
    uint64_t n = 0;
    cr_assert_eq(family_functions(FAMILY_FULL, 512, 8, &n), INVENT_OK);
    cr_assert_eq(n, 262144);
    cr_assert_eq(family_functions(FAMILY_DIAGONAL, 512, 8, &n), INVENT_OK);
    cr_assert_eq(n, 512);
    cr_assert_eq(family_functions(FAMILY_MIXTURE, 512, 8, &n), INVENT_OK);
    cr_assert_eq(n, 8);
    cr_assert_eq(family_functions(FAMILY_FULL, 0, 8, &n), INVENT_ERANGE);
}

Test(weight_family, parameters_by_hand)
{
    uint64_t n = 0;
    cr_assert_eq(family_score_params(3, 4, &n), INVENT_OK);
    cr_assert_eq(n, 4 * 7);
    cr_assert_eq(family_params(FAMILY_FULL, 3, 2, 4, &n), INVENT_OK);
    cr_assert_eq(n, 9 * 28);
    cr_assert_eq(family_params(FAMILY_DIAGONAL, 3, 2, 4, &n), INVENT_OK);
    cr_assert_eq(n, 3 * 28);
    cr_assert_eq(family_params(FAMILY_MIXTURE, 3, 2, 4, &n), INVENT_OK);
    cr_assert_eq(n, 2 * 28 + 2 * 9);
    cr_assert_eq(family_params(FAMILY_MIXTURE, 3, 2, 0, &n), INVENT_ERANGE);
}

Test(weight_family, overflow_is_reported_not_wrapped)
{
    uint64_t n = 7;
    cr_assert_eq(family_params(FAMILY_FULL, 1ULL << 22, 8, 1ULL << 20, &n), INVENT_EOVERFLOW);
    cr_assert_eq(family_functions(FAMILY_FULL, 1ULL << 33, 8, &n), INVENT_EOVERFLOW);
    cr_assert_eq(family_score_params(UINT64_MAX / 2 + 1, 1, &n), INVENT_EOVERFLOW);
    cr_assert_eq(family_params(FAMILY_MIXTURE, 1ULL << 31, 1ULL << 3, 1, &n), INVENT_EOVERFLOW);
    cr_assert_eq(n, 7, "the count must be left untouched on overflow");
}

Test(weight_family, the_count_is_what_an_allocated_score_holds)
{
    gsl_rng *r = rng_new(3);
    for (size_t d = 1; d <= 7; d += 3)
        for (size_t h = 1; h <= 9; h += 4) {
            attn_additive *a = attn_additive_new(d, h, 1.0, r);
            uint64_t n = 0, held = a->W1->size1 * a->W1->size2 + a->W2->size1 * a->W2->size2 +
                                   a->v->size;
            cr_assert_eq(family_score_params(d, h, &n), INVENT_OK);
            cr_assert_eq(n, held, "d = %zu, h = %zu", d, h);
            attn_additive_free(a);
        }
    gsl_rng_free(r);
}
