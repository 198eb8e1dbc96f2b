/* Unit tests: --dump in chapter programs, which ends the program when a
 * file cannot be written. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <unistd.h>

#include "chapter.h"

Test(chapter_dump, nothing_without_the_flag)
{
    invent_opts o = {.program = "test", .dump_dir = NULL};
    gsl_matrix *m = gsl_matrix_calloc(2, 2);
    chapter_dump(&o, "m", m); /* returns: nothing to write */
    gsl_matrix_free(m);
}

Test(chapter_dump, writes_the_file)
{
    char dir[] = "/tmp/invent-dump-XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    invent_opts o = {.program = "test", .dump_dir = dir};
    gsl_matrix *m = gsl_matrix_calloc(2, 3);
    chapter_dump(&o, "m", m);
    snprintf(path, sizeof path, "%s/m.npy", dir);
    cr_assert_eq(access(path, R_OK), 0);
    unlink(path);
    rmdir(dir);
    gsl_matrix_free(m);
}

Test(chapter_dump, a_failed_write_ends_with_status_3, .exit_code = 3, .init = cr_redirect_stderr)
{
    invent_opts o = {.program = "test", .dump_dir = "/proc/no/such/dir"};
    gsl_matrix *m = gsl_matrix_calloc(1, 1);
    chapter_dump(&o, "m", m);
}
