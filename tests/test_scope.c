/* Unit tests: a scope frees what it owns, newest first. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "scope.h"

static int order[4], n_freed;

static void note_free(int *tag)
{
    order[n_freed++] = *tag;
}

Test(scope, frees_every_object_newest_first)
{
    int tags[3] = {1, 2, 3};
    n_freed = 0;
    scope *s = scope_open();
    for (int i = 0; i < 3; i++)
        cr_assert_eq(SCOPE_KEEP(s, &tags[i], note_free), &tags[i]);
    scope_close(s);
    cr_assert_eq(n_freed, 3);
    cr_assert_eq(order[0], 3);
    cr_assert_eq(order[2], 1);
}

Test(scope, gives_zeroed_matrices_and_vectors_that_survive_growth)
{
    scope *s = scope_open();
    gsl_matrix *first = scope_matrix(s, 3, 4);
    for (int i = 0; i < 100; i++) /* more than the first block of entries */
        scope_vector(s, 5);
    cr_assert_eq(first->size1, 3);
    cr_assert_eq(gsl_matrix_max(first), 0.0);
    cr_assert_eq(gsl_matrix_min(first), 0.0);
    scope_close(s);
}

Test(scope, running_out_of_memory_exits_with_status_3, .exit_code = 3, .init = cr_redirect_stderr)
{
    scope *s = scope_open();
    scope_keep_matrix(s, NULL); /* what a failed allocation hands over */
}
