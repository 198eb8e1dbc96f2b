/* Unit tests: the log of finished runs (run_log.h) gives back exactly what was
 * added, survives being reopened, drops a last line cut short by a kill, and
 * refuses a log with a garbled line instead of skipping it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "private_dir.h"
#include "run_log.h"
#include "status.h"

TestSuite(run_log, .init = private_dir_make, .fini = private_dir_remove);

/* -> the log's path inside the test's folder */
static const char *log_path(void)
{
    static char path[PATH_MAX];
    return private_path(path, sizeof path, "runs.tsv");
}

static void write_file(const char *text)
{
    FILE *f = fopen(log_path(), "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(run_log, numbers_come_back_exactly_after_reopening)
{
    run_log *l;
    size_t bad;
    cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_OK);
    const double a[3] = {1.0 / 3.0, -2.5e-300, M_PI}, b[1] = {7.0};
    cr_assert_eq(run_log_add(l, "full|seed 1", a, 3), INVENT_OK);
    cr_assert_eq(run_log_add(l, "full|seed 2", b, 1), INVENT_OK);
    run_log_free(l);
    cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_OK);
    cr_assert_eq(run_log_count(l), 2);
    double got[3];
    cr_assert_eq(run_log_find(l, "full|seed 1", got, 3), INVENT_OK);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(got[k], a[k], "number %d: %.17g against %.17g", k, got[k], a[k]);
    cr_assert_eq(run_log_find(l, "full|seed 2", got, 1), INVENT_OK);
    cr_assert_eq(got[0], 7.0);
    run_log_free(l);
}

Test(run_log, a_key_differing_in_one_character_or_count_is_not_found)
{
    run_log *l;
    size_t bad;
    cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_OK);
    const double a[2] = {1.0, 2.0};
    cr_assert_eq(run_log_add(l, "rate 0.003|seed 1", a, 2), INVENT_OK);
    double got[2];
    cr_assert_eq(run_log_find(l, "rate 0.003|seed 2", got, 2), INVENT_ERANGE);
    cr_assert_eq(run_log_find(l, "rate 0.003|seed 1", got, 1), INVENT_ERANGE);
    cr_assert_eq(run_log_find(l, "rate 0.003|seed 1", got, 2), INVENT_OK);
    run_log_free(l);
}

Test(run_log, a_line_cut_by_a_kill_is_dropped_from_the_file_too)
{
    write_file("# comment\nfull|seed 1\t1.5\t2\nfull|seed 2\t3.2");
    run_log *l;
    size_t bad;
    cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_OK);
    cr_assert_eq(run_log_count(l), 1);
    const double c[1] = {4.0};
    cr_assert_eq(run_log_add(l, "full|seed 3", c, 1), INVENT_OK);
    run_log_free(l);
    cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_OK);
    cr_assert_eq(run_log_count(l), 2, "the new line must not be glued to the cut one");
    double got[1];
    cr_assert_eq(run_log_find(l, "full|seed 3", got, 1), INVENT_OK);
    cr_assert_eq(got[0], 4.0);
    run_log_free(l);
}

Test(run_log, a_garbled_line_refuses_the_whole_log)
{
    const char *bad_logs[] = {"a\t1\t2\nb\t1\tx2\n", "a\t1\n\t2\n", "a\t1\nb\t1\t\n",
                              "a\t1\nb\tnan\n", "a\t1\nb 1 2\n"};
    for (size_t k = 0; k < sizeof bad_logs / sizeof bad_logs[0]; k++) {
        write_file(bad_logs[k]);
        run_log *l;
        size_t bad;
        cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_EFORMAT, "log %zu", k);
        cr_assert_eq(bad, 2, "log %zu: line %zu", k, bad);
        cr_assert_null(l);
    }
}

Test(run_log, bad_keys_and_numbers_are_refused)
{
    run_log *l;
    size_t bad;
    cr_assert_eq(run_log_open(log_path(), &l, &bad), INVENT_OK);
    const double a[1] = {1.0}, n[1] = {NAN};
    cr_assert_eq(run_log_add(l, "with\ttab", a, 1), INVENT_ERANGE);
    cr_assert_eq(run_log_add(l, "", a, 1), INVENT_ERANGE);
    cr_assert_eq(run_log_add(l, "#comment", a, 1), INVENT_ERANGE);
    cr_assert_eq(run_log_add(l, "ok", n, 1), INVENT_ERANGE);
    cr_assert_eq(run_log_count(l), 0);
    run_log_free(l);
}
