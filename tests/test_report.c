/* Unit tests: narration, quiet mode, errors, --dump and output paths. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "paths.h"
#include "private_dir.h"
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

/* a folder of its own for every test that writes files */
TestSuite(dump, .init = private_dir_make, .fini = private_dir_remove);
TestSuite(paths, .init = private_dir_make, .fini = private_dir_remove);

Test(dump, writes_named_npy_files_only_when_asked)
{
    char dir[PATH_MAX];
    private_path(dir, sizeof dir, "dump");
    gsl_matrix *m = gsl_matrix_calloc(2, 2);
    invent_opts off = {.program = "ch99"};
    cr_assert_eq(dump_matrix(&off, "X", m), INVENT_OK);
    invent_opts on = {.program = "ch99", .dump_dir = dir};
    cr_assert_eq(dump_matrix(&on, "X", m), INVENT_OK);
    char path[PATH_MAX];
    cr_assert_eq(access(private_path(path, sizeof path, "dump/X.npy"), R_OK), 0);
    gsl_matrix_free(m);
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
    char dir[PATH_MAX], file[PATH_MAX];
    cr_assert_eq(paths_ready_dir(private_path(dir, sizeof dir, "a/b")), 0);
    FILE *f = fopen(private_path(file, sizeof file, "a/f"), "w");
    fclose(f);
    cr_assert_eq(paths_ready_dir(file), -1, "a plain file is not a directory");
    cr_assert_eq(paths_ready_dir("/proc/no/such/dir"), -1);
}

Test(dump, the_first_failure_is_reported_once_and_stops_the_dumping, .init = cr_redirect_stderr)
{
    char dir[PATH_MAX], path[PATH_MAX + 16];
    cr_assert_eq(paths_make_dirs(private_path(dir, sizeof dir, "dump")), 0);
    signal(SIGXFSZ, SIG_IGN); /* files over 1 KiB fail with EFBIG */
    struct rlimit limit = {1024, 1024};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
    gsl_matrix *big = gsl_matrix_calloc(32, 32), *small = gsl_matrix_calloc(2, 2);
    invent_opts o = {.program = "ch99", .dump_dir = dir};
    cr_assert_eq(dump_matrix(&o, "small", small), INVENT_OK);
    cr_assert_eq(dump_matrix(&o, "big", big), INVENT_EIO);
    cr_assert_eq(dump_matrix(&o, "after", small), INVENT_EIO);
    cr_assert_eq(dump_failures(), 1);
    snprintf(path, sizeof path, "%s/big.npy", dir);
    cr_assert_neq(access(path, F_OK), 0, "no partial file");
    snprintf(path, sizeof path, "%s/after.npy", dir);
    cr_assert_neq(access(path, F_OK), 0, "nothing after the first failure");
    fflush(stderr);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want, "ch99: cannot write '%s/big.npy' (File too large); no further "
                                "tensors dumped\n", dir);
    cr_assert_stderr_eq_str(want);
    gsl_matrix_free(big);
    gsl_matrix_free(small);
}

static int write_two_lines(FILE *f, const void *ctx)
{
    (void)ctx;
    return fputs("a,b\n1,2\n", f) < 0;
}

Test(dump, text_files_are_written_whole)
{
    char dir[PATH_MAX], path[PATH_MAX + 16];
    cr_assert_eq(paths_make_dirs(private_path(dir, sizeof dir, "dump")), 0);
    invent_opts o = {.program = "ch99", .dump_dir = dir};
    cr_assert_eq(dump_text(&o, "table.csv", write_two_lines, NULL), INVENT_OK);
    snprintf(path, sizeof path, "%s/table.csv", dir);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_size, 8);
}

Test(paths, an_empty_name_is_refused_without_reading_past_it)
{
    errno = 0;
    cr_assert_eq(paths_make_dirs(""), -1);
    cr_assert_eq(errno, ENOENT);
    cr_assert_eq(paths_check_dir("", 10), -1);
    cr_assert_eq(paths_check_file(""), -1);
}

Test(paths, check_dir_creates_nothing_and_refuses_what_cannot_be_made)
{
    char base[PATH_MAX], dir[PATH_MAX + 16], file[PATH_MAX + 16];
    private_path(base, sizeof base, "check");
    snprintf(dir, sizeof dir, "%s/a/b/c", base);
    cr_assert_eq(paths_check_dir(dir, 100), 0, "creatable in the test's folder");
    cr_assert_neq(access(base, F_OK), 0, "nothing created");
    cr_assert_eq(paths_make_dirs(base), 0);
    snprintf(file, sizeof file, "%s/f", base);
    fclose(fopen(file, "w"));
    snprintf(dir, sizeof dir, "%s/f/sub", base);
    cr_assert_eq(paths_check_dir(file, 10), -1);
    cr_assert_eq(errno, ENOTDIR);
    cr_assert_eq(paths_check_dir(dir, 10), -1);
    cr_assert_eq(errno, ENOTDIR);
    cr_assert_eq(paths_check_dir(base, PATH_MAX - strlen(base) - 1), -1);
    cr_assert_eq(errno, ENAMETOOLONG);
    cr_assert_eq(paths_check_dir(base, PATH_MAX - strlen(base) - 2), 0, "the longest that fits");
}

Test(paths, check_file_takes_files_and_devices_but_not_fifos_or_directories)
{
    char fifo[PATH_MAX], path[PATH_MAX];
    cr_assert_eq(mkfifo(private_path(fifo, sizeof fifo, "fifo"), 0600), 0);
    cr_assert_eq(paths_check_file(fifo), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(paths_append(fifo, "x\n", 2), -1, "no reader: refused at once, not waited for");
    cr_assert_eq(paths_check_file(private_dir), -1);
    cr_assert_eq(errno, EISDIR);
    cr_assert_eq(paths_check_file(private_path(path, sizeof path, "")), -1, "a folder/");
    cr_assert_eq(paths_check_file("/proc/no/such/file"), -1);
    cr_assert_eq(paths_check_file("/dev/null"), 0);
    cr_assert_eq(paths_check_file(private_path(path, sizeof path, "a-new-file")), 0);
}

Test(paths, a_failed_append_cuts_the_file_back)
{
    char path[PATH_MAX];
    private_path(path, sizeof path, "append");
    char line[600];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    cr_assert_eq(paths_append(path, line, sizeof line), 0);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = {1024, 1024};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
    cr_assert_eq(paths_append(path, line, sizeof line), -1, "1200 bytes > 1 KiB");
    cr_assert_eq(errno, EFBIG);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_size, (off_t)sizeof line, "the partial line was removed");
    cr_assert_eq(paths_append("/dev/full", line, 10), -1);
    cr_assert_eq(errno, ENOSPC);
}
