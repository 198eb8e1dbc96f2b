#include "grade.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/hooks.h>

#include "mat.h"
#include "rng.h"
#include "status.h"

/* matrices up to this many rows and columns are shown whole in a message */
enum { SHOW_MAX = 6 };

gsl_rng *grade_rng(unsigned long seed)
{
    gsl_rng *r = rng_new(seed);
    cr_assert(r != NULL, "grader: out of memory");
    return r;
}

gsl_matrix *grade_gaussian(size_t rows, size_t cols, double sigma, gsl_rng *r)
{
    gsl_matrix *m = mat_gaussian(rows, cols, sigma, r);
    cr_assert(m != NULL, "grader: out of memory");
    return m;
}

gsl_matrix *grade_nan(size_t rows, size_t cols)
{
    gsl_matrix *m = gsl_matrix_alloc(rows, cols);
    cr_assert(m != NULL, "grader: out of memory");
    gsl_matrix_set_all(m, NAN);
    return m;
}

/* appends m to buf as rows of numbers */
static void show(char *buf, size_t size, const char *label, const gsl_matrix *m)
{
    size_t used = strlen(buf);
    used += (size_t)snprintf(buf + used, size - used, "  %s:\n", label);
    for (size_t i = 0; i < m->size1 && used < size; i++) {
        used += (size_t)snprintf(buf + used, size - used, "   ");
        for (size_t j = 0; j < m->size2 && used < size; j++)
            used += (size_t)snprintf(buf + used, size - used, " %11.5g", gsl_matrix_get(m, i, j));
        if (used < size)
            used += (size_t)snprintf(buf + used, size - used, "\n");
    }
}

/* -> the largest |x| in m, NaN and infinities skipped */
static double largest(const gsl_matrix *m)
{
    double top = 0.0;
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            if (isfinite(gsl_matrix_get(m, i, j)))
                top = fmax(top, fabs(gsl_matrix_get(m, i, j)));
    return top;
}

/* -> |got - want|; equal infinities agree, and NaN agrees only with NaN */
static double gap(double got, double want)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want) ? 0.0 : INFINITY;
    if (got == want)
        return 0.0;
    return fabs(got - want);
}

int grade_matrix_ok(char *msg, size_t size, const char *what, const gsl_matrix *got,
                    const gsl_matrix *want, double tol, const char *hint)
{
    if (got->size1 != want->size1 || got->size2 != want->size2) {
        snprintf(msg, size, "%s: expected shape (%zu, %zu), got (%zu, %zu)\nHint: %s", what,
                 want->size1, want->size2, got->size1, got->size2, hint);
        return 0;
    }
    double worst = -1.0;
    size_t wi = 0, wj = 0;
    for (size_t i = 0; i < want->size1; i++)
        for (size_t j = 0; j < want->size2; j++) {
            double g = gap(gsl_matrix_get(got, i, j), gsl_matrix_get(want, i, j));
            if (g > worst) {
                worst = g;
                wi = i;
                wj = j;
            }
        }
    double bound = tol * fmax(1.0, largest(want));
    if (worst <= bound)
        return 1;
    char shown[GRADE_MSG / 2] = "";
    if (want->size1 <= SHOW_MAX && want->size2 <= SHOW_MAX) {
        show(shown, sizeof shown, "expected", want);
        show(shown, sizeof shown, "got", got);
    }
    snprintf(msg, size,
             "%s: wrong value at [%zu][%zu]: expected %.10g, got %.10g "
             "(off by %.3g, tolerance %.3g)\n%sHint: %s",
             what, wi, wj, gsl_matrix_get(want, wi, wj), gsl_matrix_get(got, wi, wj), worst, bound,
             shown, hint);
    return 0;
}

int grade_vector_ok(char *msg, size_t size, const char *what, const gsl_vector *got,
                    const gsl_vector *want, double tol, const char *hint)
{
    if (got->size != want->size) {
        snprintf(msg, size, "%s: expected length %zu, got %zu\nHint: %s", what, want->size,
                 got->size, hint);
        return 0;
    }
    gsl_matrix_const_view g = gsl_matrix_const_view_vector(got, 1, got->size);
    gsl_matrix_const_view w = gsl_matrix_const_view_vector(want, 1, want->size);
    return grade_matrix_ok(msg, size, what, &g.matrix, &w.matrix, tol, hint);
}

int grade_status_ok(char *msg, size_t size, const char *what, int got, int want, const char *hint)
{
    if (got == want)
        return 1;
    snprintf(msg, size, "%s: expected status %d (%s), got %d (%s)\nHint: %s", what, want,
             invent_strerror(want), got, invent_strerror(got), hint);
    return 0;
}

static int test_ended;

/* at exit of a test's process: if the test never reached its end, say why */
static void exited_early(void)
{
    if (test_ended)
        return;
    fprintf(stderr, "your code called exit() in the middle of a test; return a status "
                    "instead\n");
    _exit(GRADE_EXITED_EARLY);
}

void grade_setup(void)
{
    atexit(exited_early);
}

void grade_teardown(void)
{
    test_ended = 1;
}

size_t grade_heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* The hooks below run in Criterion's runner, which outlives every test's
 * process: they say in words what a crash or a timeout means, and count them. */
static size_t crashed, timed_out;

ReportHook(TEST_CRASH)(struct criterion_test_stats *stats)
{
    crashed++;
    printf("  -> %s: your code crashed (%s). Look for an index past the end of a "
           "matrix, a NULL pointer, or memory used after free.\n",
           stats->test->name, strsignal(stats->signal));
    fflush(stdout);
}

ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
    if (stats->timed_out) {
        timed_out++;
        printf("  -> %s: did not finish within %.0f s. An endless loop? Check that every "
               "loop's index moves towards its bound.\n",
               stats->test->name, GRADE_TIMEOUT);
    } else if (stats->exit_code != 0) {
        printf("  -> %s: your code called exit() instead of returning a status.\n",
               stats->test->name);
    }
    fflush(stdout);
}

/* After all tests: one line for the scoreboard (scripts/exercise.sh). */
ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    size_t tests = stats->nb_tests - stats->tests_skipped, passed = stats->tests_passed;
    printf("GRADE tests=%zu passed=%zu failed=%zu crashed=%zu timed_out=%zu\n", tests, passed,
           tests - passed - crashed - timed_out, crashed, timed_out);
    fflush(stdout);
}
