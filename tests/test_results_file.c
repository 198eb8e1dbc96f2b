/* Unit tests: results files (results_file.h) take the command as typed, refuse
 * what the rename would replace or cannot reach, and stamp the table's header. */
#include <criterion/criterion.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "private_dir.h"
#include "results_file.h"

TestSuite(results_file, .init = private_dir_make, .fini = private_dir_remove);

Test(results_file, the_command_as_typed)
{
    char *argv[] = {"build/ch14_ablations", "--full", "--runs", "r.tsv"};
    char out[64];
    results_command(4, argv, out, sizeof out);
    cr_assert_str_eq(out, "build/ch14_ablations --full --runs r.tsv");
    char tiny[12];
    results_command(4, argv, tiny, sizeof tiny);
    cr_assert_eq(strlen(tiny), sizeof tiny - 1, "cut to fit, still a string");
}

Test(results_file, devices_folders_and_missing_folders_are_refused)
{
    char path[PATH_MAX];
    cr_assert_null(results_check(private_path(path, sizeof path, "new.tsv")));
    cr_assert_not_null(results_check("/dev/null"), "a device would be replaced by the rename");
    cr_assert_not_null(results_check(private_dir));
    cr_assert_not_null(results_check(private_path(path, sizeof path, "no/such.tsv")));
}

Test(results_file, a_sibling_is_named_in_the_results_folder)
{
    char out[32];
    cr_assert_eq(results_sibling("results/ch13_full.tsv", "ch13_sample.tsv", out, sizeof out), 0);
    cr_assert_str_eq(out, "results/ch13_sample.tsv");
    cr_assert_eq(results_sibling("/tmp/a/r.tsv", "s.tsv", out, sizeof out), 0);
    cr_assert_str_eq(out, "/tmp/a/s.tsv");
    cr_assert_eq(results_sibling("r.tsv", "s.tsv", out, sizeof out), 0);
    cr_assert_str_eq(out, "s.tsv", "no folder: the working one");
    cr_assert_eq(results_sibling("results/ch13_full.tsv", "a_name_too_long_for_32.tsv", out,
                                 sizeof out), -1);
}

Test(results_file, a_file_beside_the_results_is_checked_like_them)
{
    char path[PATH_MAX], side[PATH_MAX];
    private_path(path, sizeof path, "r.tsv");
    cr_assert_null(results_check_beside(path, "s.tsv"));
    mkdir(private_path(side, sizeof side, "s.tsv"), 0700); /* a folder where s.tsv goes */
    cr_assert_not_null(results_check_beside(path, "s.tsv"));
    cr_assert_null(results_check_beside(path, "t.tsv"), "only the name that is taken");
}

Test(results_file, the_stamp_names_the_run_and_leaves_its_line_open)
{
    char path[PATH_MAX];
    FILE *f = fopen(private_path(path, sizeof path, "table.tsv"), "w");
    cr_assert_not_null(f);
    results_stamp(f, "chapter 99 results", "ch99 --full", 1);
    fprintf(f, "; wall time: 1 s\n");
    fclose(f);
    char line[256];
    FILE *g = fopen(path, "r");
    cr_assert_not_null(g);
    cr_assert_not_null(fgets(line, sizeof line, g));
    cr_assert_str_eq(line, "# chapter 99 results; command: ch99 --full\n");
    cr_assert_not_null(fgets(line, sizeof line, g));
    cr_assert(strncmp(line, "# date: ", 8) == 0, "%s", line);
    cr_assert(strstr(line, ", 1 worker thread; wall time: 1 s\n"), "%s", line);
    fclose(g);
}

/* The stored tables are found by an absolute path into the project's results folder,
 * so a chapter run from another folder still finds them (a relative "results/" would
 * name a folder under wherever it runs) */
Test(results_file, stored_tables_are_found_from_any_folder)
{
    char path[4096];
    const char *p = results_stored("ch14_full.tsv", path, sizeof path);
    cr_assert_eq(p[0], '/', "%s", p);
    cr_assert(strstr(p, "/results/ch14_full.tsv"), "%s", p);
    struct stat st;
    cr_assert_eq(stat(p, &st), 0, "%s: the committed table", p);
}
