/* Unit tests: --dump in chapter programs, which ends the program when a
 * file cannot be written. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <unistd.h>

#include "chapter.h"
#include "private_dir.h"

Test(chapter_dump, nothing_without_the_flag)
{
    invent_opts o = {.program = "test", .dump_dir = NULL};
    gsl_matrix *m = gsl_matrix_calloc(2, 2);
    chapter_dump(&o, "m", m); /* returns: nothing to write */
    gsl_matrix_free(m);
}

Test(chapter_dump, writes_the_file, .init = private_dir_make, .fini = private_dir_remove)
{
    char path[PATH_MAX];
    invent_opts o = {.program = "test", .dump_dir = private_dir};
    gsl_matrix *m = gsl_matrix_calloc(2, 3);
    chapter_dump(&o, "m", m);
    cr_assert_eq(access(private_path(path, sizeof path, "m.npy"), R_OK), 0);
    gsl_matrix_free(m);
}

Test(chapter_dump, a_failed_write_ends_with_status_3, .exit_code = 3, .init = cr_redirect_stderr)
{
    invent_opts o = {.program = "test", .dump_dir = "/proc/no/such/dir"};
    gsl_matrix *m = gsl_matrix_calloc(1, 1);
    chapter_dump(&o, "m", m);
}
