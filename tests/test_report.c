/* Unit tests: narration, quiet mode, errors, --dump and output paths. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"
#include "paths.h"
#include "report.h"
#include "status.h"

Test(report, narration_wraps_at_78_columns, .init = cr_redirect_stdout)
{
    invent_opts o = {.program = "ch99"};
    char text[400] = "";
    for (int i = 0; i < 30; i++)
        strcat(text, "word12345 ");
    report_text(&o, "%s", text);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char line[256];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        cr_assert_leq(strlen(line), 79, "line too long: %s", line);
        lines++;
    }
    cr_assert_geq(lines, 4);
}

Test(report, quiet_silences_narration_but_not_errors, .init = cr_redirect_stdout)
{
    cr_redirect_stderr();
    invent_opts o = {.program = "ch99", .quiet = 1};
    report_title(&o, "Title");
    report_section(&o, "Section");
    report_text(&o, "text");
    report_line(&o, "line");
    report_error("ch99", "broken %d", 3);
    fflush(stdout);
    fflush(stderr);
    cr_assert_stdout_eq_str("");
    cr_assert_stderr_eq_str("ch99: broken 3\n");
}

Test(report, no_color_when_not_a_terminal)
{
    cr_assert_eq(report_use_color(-1), 0);
}

Test(dump, writes_named_npy_files_only_when_asked)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/invent-dump-%d", (int)getpid());
    gsl_matrix *m = gsl_matrix_calloc(2, 2);
    invent_opts off = {.program = "ch99"};
    cr_assert_eq(dump_matrix(&off, "X", m), INVENT_OK);
    invent_opts on = {.program = "ch99", .dump_dir = dir};
    cr_assert_eq(dump_matrix(&on, "X", m), INVENT_OK);
    char path[128];
    snprintf(path, sizeof path, "%s/X.npy", dir);
    cr_assert_eq(access(path, R_OK), 0);
    gsl_matrix_free(m);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(dump, unwritable_directory_is_reported, .init = cr_redirect_stderr)
{
    gsl_matrix *m = gsl_matrix_calloc(1, 1);
    invent_opts o = {.program = "ch99", .dump_dir = "/proc/no/such/dir"};
    cr_assert_eq(dump_matrix(&o, "X", m), INVENT_EIO);
    gsl_matrix_free(m);
}

Test(paths, ready_dir_creates_parents_and_refuses_files)
{
    char dir[96], file[96];
    snprintf(dir, sizeof dir, "/tmp/invent-paths-%d/a/b", (int)getpid());
    cr_assert_eq(paths_ready_dir(dir), 0);
    snprintf(file, sizeof file, "/tmp/invent-paths-%d/a/f", (int)getpid());
    FILE *f = fopen(file, "w");
    fclose(f);
    cr_assert_eq(paths_ready_dir(file), -1, "a plain file is not a directory");
    cr_assert_eq(paths_ready_dir("/proc/no/such/dir"), -1);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf /tmp/invent-paths-%d", (int)getpid());
    cr_assert_eq(system(cmd), 0);
}
