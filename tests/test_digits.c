/* Unit tests: counts written in groups of three digits. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "digits.h"

Test(digits, groups_of_three_from_the_right)
{
    char buf[DIGITS_GROUPED_CAP];
    cr_assert_str_eq(digits_grouped(0, buf), "0");
    cr_assert_str_eq(digits_grouped(999, buf), "999");
    cr_assert_str_eq(digits_grouped(1000, buf), "1,000");
    cr_assert_str_eq(digits_grouped(500000000, buf), "500,000,000");
    cr_assert_str_eq(digits_grouped(10000000000ULL, buf), "10,000,000,000");
    cr_assert_str_eq(digits_grouped(UINT64_MAX, buf), "18,446,744,073,709,551,615");
}
