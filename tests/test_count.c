/* Unit tests: exact 64-bit counting. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "count.h"
#include "status.h"

Test(count, multiplies_and_adds_exactly)
{
    uint64_t r = 0;
    cr_assert_eq(count_mul(5000, 50, &r), INVENT_OK);
    cr_assert_eq(r, 250000);
    cr_assert_eq(count_add(r, 7, &r), INVENT_OK);
    cr_assert_eq(r, 250007);
}

Test(count, reports_overflow_instead_of_wrapping)
{
    uint64_t r = 42;
    cr_assert_eq(count_mul(UINT64_MAX / 2, 3, &r), INVENT_EOVERFLOW);
    cr_assert_eq(r, 42, "the output must be left untouched on overflow");
    cr_assert_eq(count_add(UINT64_MAX, 1, &r), INVENT_EOVERFLOW);
}

Test(count, product_of_the_cache_setting)
{
    /* 5,000 tokens x 50 layers x 20 functions x 1,000 numbers x 2 bytes */
    const uint64_t f[] = {5000, 50, 20, 1000, 2};
    uint64_t r;
    cr_assert_eq(count_product(f, 5, &r), INVENT_OK);
    cr_assert_eq(r, 10000000000ULL);
    const uint64_t big[] = {1ULL << 40, 1ULL << 30};
    cr_assert_eq(count_product(big, 2, &r), INVENT_EOVERFLOW);
}
