/* Unit tests: claim checks count, print and record verdicts. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "private_dir.h"
#include "rng.h"

static invent_opts opts(const char *claims_file)
{
    return (invent_opts){.program = "ch99", .quiet = 1, .claims_file = claims_file};
}

/* a folder of its own for every test that writes a claims file */
TestSuite(check, .init = private_dir_make, .fini = private_dir_remove);

Test(check, passing_claims_give_exit_status_zero, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    cr_assert(check_close("X1", "one equals one", 1.0, 1.0 + 1e-13, 1e-12));
    cr_assert(check_at_most("X1", "small", 1e-9, 1e-8));
    cr_assert(check_at_least("X2", "large", 3.0, 2.0));
    cr_assert(check_equal("X3", "count", 10000000000ULL, 10000000000ULL));
    cr_assert(check_true("X4", "fact", 1, "seen"));
    check_control("X4", "the fact not seen");
    cr_assert_not(check_true("X4", NULL, 0, "not seen"));
    cr_assert_eq(check_count_run(), 6);
    cr_assert_eq(check_count_checks(), 5);
    cr_assert_eq(check_count_missing(), 4, "each settled by the next check");
    cr_assert_eq(check_count_failed(), 0, "make verify fails on them, not the program");
    cr_assert_eq(check_finish(), 0);
}

Test(check, every_check_followed_by_a_failing_control_gives_exit_status_zero,
     .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    cr_assert(check_close("X1", "one equals one", 1.0, 1.0 + 1e-13, 1e-12));
    check_control("X1", "one plus a rounding step too many");
    check_close("X1", NULL, 1.0, 1.0 + 1e-11, 1e-12);
    cr_assert(check_equal("X1", "count", 10, 10));
    check_control("X1", "one off");
    check_equal("X1", NULL, 11, 10);
    check_control("X1", "one off the other way");
    check_equal("X1", NULL, 9, 10);
    cr_assert_eq(check_finish(), 0);
    cr_assert_eq(check_count_checks(), 2);
    cr_assert_eq(check_count_missing(), 0);
}

Test(check, a_check_without_a_control_is_named_and_counted, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    o.quiet = 0;
    check_setup(&o);
    check_true("X1", "first fact", 1, "seen");
    check_true("X1", "second fact", 1, "seen");
    check_control("X1", "the second fact not seen");
    check_true("X1", NULL, 0, "not seen");
    cr_assert_eq(check_count_missing(), 1, "the first check is settled by the second");
    cr_assert_eq(check_finish(), 0);
    fflush(stdout);
    cr_assert_stdout_eq_str("  X1  PASS  first fact\n             seen\n"
                            "  X1  NONE  no control checked this claim: first fact\n"
                            "  X1  PASS  second fact\n             seen\n"
                            "      control (the second fact not seen): not seen\n"
                            "        fails, as it should\n"
                            "\nch99: 2 of 2 checks passed; controls: 1 of 2 checks fail as they "
                            "should, 0 hold, 1 missing\n");
}

Test(check, the_last_check_without_a_control_is_found_at_the_end, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_true("X1", "fact", 1, "seen");
    check_control("X1", "not seen");
    check_true("X1", NULL, 0, "not seen");
    check_true("X2", "last fact", 1, "seen");
    cr_assert_eq(check_count_missing(), 0);
    check_finish();
    cr_assert_eq(check_count_missing(), 1);
}

Test(check, a_control_that_holds_is_reported_under_its_check, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_close("X1", "equal", 1.0, 1.0, 1e-12);
    check_control("X1", "nothing changed");
    check_close("X1", NULL, 1.0, 1.0, 1e-12);
    cr_assert_eq(check_finish(), 1);
    fflush(stdout);
    cr_assert_stdout_eq_str(
        "      control (nothing changed): got 1, want 1: error 0 (tolerance 1e-12)\n"
        "        HOLDS: the check cannot tell this case from the claim (a defect)\n"
        "\nch99: 1 of 1 checks passed; controls: 0 of 1 checks fail as they should, 1 hold, "
        "0 missing\n");
}

Test(check, a_control_of_another_id_belongs_to_no_check, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_true("X1", "fact", 1, "seen");
    check_control("X2", "not seen");
    cr_assert_not(check_true("X2", NULL, 0, "not seen"));
    cr_assert_eq(check_count_failed(), 1, "the control follows no check of X2");
    cr_assert_eq(check_finish(), 1);
    cr_assert_eq(check_count_missing(), 1, "and X1 has no control of its own");
}

Test(check, one_failing_claim_makes_the_exit_status_nonzero, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_close("X1", "holds", 2.0, 2.0, 0.0);
    check_control("X1", "off by one");
    check_close("X1", NULL, 3.0, 2.0, 0.0);
    cr_assert_not(check_close("X2", "does not hold", 1.0, 1.1, 1e-3));
    check_control("X2", "farther off");
    check_close("X2", NULL, 1.0, 1.2, 1e-3);
    cr_assert_eq(check_count_failed(), 1);
    cr_assert_eq(check_finish(), 1);
}

Test(check, nan_never_passes, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    cr_assert_not(check_close("X1", "nan", NAN, 0.0, 1.0));
    cr_assert_not(check_at_most("X1", "nan", NAN, 1.0));
    cr_assert_not(check_at_least("X1", "nan", NAN, 0.0));
    cr_assert_eq(check_count_failed(), 3);
}

Test(check, matrices_compare_by_largest_difference, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    gsl_matrix *a = gsl_matrix_calloc(2, 3), *b = gsl_matrix_calloc(2, 3), *c = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(b, 1, 2, 1e-6);
    cr_assert(check_matrix_close("X1", "close", a, b, 1e-5));
    cr_assert_not(check_matrix_close("X1", "far", a, b, 1e-7));
    cr_assert_not(check_matrix_close("X1", "shapes differ", a, c, 1.0));
    gsl_matrix_set(b, 0, 0, NAN);
    cr_assert_not(check_matrix_close("X1", "nan", a, b, 1.0));
    gsl_matrix_free(a);
    gsl_matrix_free(b);
    gsl_matrix_free(c);
}

Test(check, claims_file_gets_one_tab_separated_line_per_check, .init = cr_redirect_stdout)
{
    char path[PATH_MAX];
    invent_opts o = opts(private_path(path, sizeof path, "claims"));
    check_setup(&o);
    check_equal("R2", "five steps", 5, 5);
    check_equal("R2", "two steps", 3, 2);
    FILE *f = fopen(path, "r");
    char line[512];
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_assert_eq(strncmp(line, "R2\tPASS\tch99\tfive steps\t", 24), 0, "got: %s", line);
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_assert_eq(strncmp(line, "R2\tFAIL\tch99\ttwo steps\t", 23), 0, "got: %s", line);
    cr_assert_null(fgets(line, sizeof line, f));
    fclose(f);
}

Test(check, quiet_mode_prints_only_failures, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_true("X1", "quiet pass", 1, "fine");
    check_control("X1", "quiet control");
    check_true("X1", NULL, 0, "fails, as it should");
    check_true("X2", "loud fail", 0, "broken");
    fflush(stdout);
    cr_assert_stdout_eq_str("  X2  FAIL  loud fail\n             broken\n");
}

Test(check, a_control_that_fails_is_good_and_one_that_holds_is_a_defect,
     .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_close("X1", "equal", 1.0, 1.0, 1e-12);
    check_control("X1", "one operand perturbed");
    cr_assert_not(check_close("X1", NULL, 1.5, 1.0, 1e-12));
    cr_assert_eq(check_count_failed(), 0, "a control that fails is what a good check does");
    check_control("X1", "nothing changed");
    cr_assert(check_close("X1", NULL, 1.0, 1.0, 1e-12));
    cr_assert_eq(check_count_failed(), 1, "a control that holds is a defect");
    cr_assert_eq(check_finish(), 1);
}

Test(check, a_control_applies_to_the_next_check_only, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_at_most("X1", "small", 0.5, 1.0);
    check_control("X1", "perturbed");
    check_at_most("X1", NULL, 2.0, 1.0);
    cr_assert_not(check_at_most("X2", "a claim again", 2.0, 1.0));
    cr_assert_eq(check_count_failed(), 1, "the third check is a claim, and it failed");
}

Test(check, controls_go_to_the_claims_file_with_their_verdict, .init = cr_redirect_stdout)
{
    char path[PATH_MAX];
    invent_opts o = opts(private_path(path, sizeof path, "claims"));
    check_setup(&o);
    check_equal("R2", "five steps", 5, 5);
    check_control("R2", "one layer more");
    check_equal("R2", NULL, 6, 5);
    FILE *f = fopen(path, "r");
    char line[512];
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_assert_not_null(strstr(line, "\tclaim\n"), "got: %s", line);
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_assert_eq(strncmp(line, "R2\tFAILS\tch99\tone layer more\t", 27), 0, "got: %s", line);
    cr_assert_not_null(strstr(line, "\tcontrol\n"), "got: %s", line);
    fclose(f);
}

Test(check, a_claims_file_that_cannot_be_written_is_exit_status_three, .init = cr_redirect_stdout)
{
    cr_redirect_stderr();
    invent_opts o = opts("/dev/full");
    check_setup(&o);
    check_equal("R2", "five steps", 5, 5);
    check_control("R2", "one layer more");
    check_equal("R2", NULL, 6, 5);
    cr_assert_eq(check_count_failed(), 0, "a lost line is not a failed claim");
    cr_assert(check_claims_lost());
    cr_assert_eq(check_finish(), 3);
    fflush(stderr);
    cr_assert_stderr_eq_str("ch99: cannot append the claims to '/dev/full' (No space left on "
                            "device); this run's claims are lost\n");
}

Test(check, a_fifo_as_claims_file_is_refused_without_blocking, .init = cr_redirect_stdout)
{
    cr_redirect_stderr();
    char path[PATH_MAX];
    cr_assert_eq(mkfifo(private_path(path, sizeof path, "fifo"), 0600), 0);
    invent_opts o = opts(path);
    check_setup(&o);
    check_equal("R2", "five steps", 5, 5);
    cr_assert_eq(check_finish(), 3);
}

Test(check, quiet_mode_leaves_a_missing_control_to_make_verify, .init = cr_redirect_stdout)
{
    invent_opts o = opts(NULL);
    check_setup(&o);
    check_true("X1", "a check of a program without controls", 1, "seen");
    cr_assert_eq(check_finish(), 0);
    cr_assert_eq(check_count_missing(), 1);
    fflush(stdout);
    cr_assert_stdout_eq_str("", "nothing printed: the claims file carries it to make verify");
}
