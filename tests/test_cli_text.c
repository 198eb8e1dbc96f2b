/* Unit tests: text options are taken out of argv before the typed ones. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "cli.h"
#include "cli_text.h"

Test(cli_text, takes_both_spellings_and_keeps_the_rest_in_order)
{
    const char *corpus = "default", *prompt = NULL;
    const cli_text_option opts[] = {{"corpus", &corpus, ""}, {"prompt", &prompt, ""}};
    char *argv[] = {"ch", "--seed", "3", "--corpus", "a.txt", "--quiet", "--prompt=The ", NULL};
    int argc = 7;
    cr_assert_eq(cli_take_text(&argc, argv, opts, 2, "ch"), CLI_RUN);
    cr_assert_eq(argc, 4);
    cr_assert_str_eq(corpus, "a.txt");
    cr_assert_str_eq(prompt, "The ");
    cr_assert_str_eq(argv[1], "--seed");
    cr_assert_str_eq(argv[3], "--quiet");
    cr_assert_null(argv[4]);
}

Test(cli_text, a_missing_or_empty_value_is_refused, .init = cr_redirect_stderr)
{
    const char *corpus = NULL;
    const cli_text_option opts[] = {{"corpus", &corpus, ""}};
    char *argv1[] = {"ch", "--corpus", NULL};
    int argc = 2;
    cr_assert_eq(cli_take_text(&argc, argv1, opts, 1, "ch"), 2);
    char *argv2[] = {"ch", "--corpus=", NULL};
    argc = 2;
    cr_assert_eq(cli_take_text(&argc, argv2, opts, 1, "ch"), 2);
    char *argv3[] = {"ch", "--corpusx", "y", NULL}; /* another option's name: left alone */
    argc = 3;
    cr_assert_eq(cli_take_text(&argc, argv3, opts, 1, "ch"), CLI_RUN);
    cr_assert_eq(argc, 3);
    cr_assert_null(corpus);
}
