/* Unit tests: telling a typed flag from a default. */
#include <criterion/criterion.h>

#include "flag_given.h"

Test(flag_given, finds_the_flag_in_every_spelling)
{
    char *plain[] = {"ch06", "--dim", "7", "--rank", "3"};
    char *joined[] = {"ch06", "--rank=3"};
    char *short_form[] = {"ch06", "--ra", "3"};
    cr_assert(flag_given(5, plain, "rank"));
    cr_assert(flag_given(2, joined, "rank"));
    cr_assert(flag_given(3, short_form, "rank"));
}

Test(flag_given, not_there_is_not_given)
{
    char *none[] = {"ch06", "--dim", "7"};
    char *longer[] = {"ch06", "--ranks", "3"};
    char *after[] = {"ch06", "--", "--rank"};
    cr_assert_not(flag_given(3, none, "rank"));
    cr_assert_not(flag_given(3, longer, "rank"));
    cr_assert_not(flag_given(3, after, "rank"));
}
