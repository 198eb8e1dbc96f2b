/* Helpers shared by the graders: every grader compares the student's
 * function with the library's reference and, when they differ, says what was
 * expected, what came back, and what to look at. Each Test runs in its own
 * process with a time limit, so a crash or an endless loop fails that one
 * test with a readable message and the others still run. */
#ifndef GRADE_H
#define GRADE_H

#include <math.h>
#include <stddef.h>

#include <criterion/criterion.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

/* seconds one test may run before it counts as an endless loop */
#define GRADE_TIMEOUT 3.0

/* exit status of a test whose code called exit() before the test ended */
#define GRADE_EXITED_EARLY 70

/* before and after every graded test: together they make a call to exit()
 * from student code fail the test (Criterion would count exit(0) a pass) */
void grade_setup(void);
void grade_teardown(void);

/* A graded test: its own process, a time limit, no way out through exit(). */
#define GRADE(suite, name)                                                                         \
    Test(suite, name, .timeout = GRADE_TIMEOUT, .init = grade_setup, .fini = grade_teardown)

/* seed -> a generator that fails the test when out of memory */
gsl_rng *grade_rng(unsigned long seed);

/* -> (rows, cols) with N(0, sigma^2) entries; fails the test when out of memory */
gsl_matrix *grade_gaussian(size_t rows, size_t cols, double sigma, gsl_rng *r);

/* -> (rows, cols) filled with NaN, so that an output never written shows */
gsl_matrix *grade_nan(size_t rows, size_t cols);

/* room for one message */
#define GRADE_MSG 8192

/* got, want: (m, n) -> 1 when max |got - want| <= tol * max(1, max |want|)
 * (NaN agrees only with NaN); else 0 and msg: the worst entry, both matrices
 * when small, and the hint */
int grade_matrix_ok(char *msg, size_t size, const char *what, const gsl_matrix *got,
                    const gsl_matrix *want, double tol, const char *hint);

/* the same for vectors */
int grade_vector_ok(char *msg, size_t size, const char *what, const gsl_vector *got,
                    const gsl_vector *want, double tol, const char *hint);

/* status codes, named by invent_strerror in msg */
int grade_status_ok(char *msg, size_t size, const char *what, int got, int want, const char *hint);

/* The assertions the graders use: the test fails, at the caller's line, with
 * the message of the check above. */
#define GRADE_CHECK(ok_call)                                                                       \
    do {                                                                                           \
        char grade_msg_[GRADE_MSG];                                                                \
        if (!(ok_call))                                                                            \
            cr_assert_fail("%s", grade_msg_);                                                      \
    } while (0)
#define grade_matrix(what, got, want, tol, hint)                                                   \
    GRADE_CHECK(grade_matrix_ok(grade_msg_, GRADE_MSG, what, got, want, tol, hint))
#define grade_vector(what, got, want, tol, hint)                                                   \
    GRADE_CHECK(grade_vector_ok(grade_msg_, GRADE_MSG, what, got, want, tol, hint))
#define grade_status(what, got, want, hint)                                                        \
    GRADE_CHECK(grade_status_ok(grade_msg_, GRADE_MSG, what, got, want, hint))

/* bytes of heap in use now (malloc arenas and mmapped blocks) */
size_t grade_heap_in_use(void);

/* calls before measuring (libraries allocate some buffers lazily, once) and
 * calls measured; a leak of even the smallest block (32 bytes) per call
 * shows as at least GRADE_LEAK_CALLS * 32 bytes more in use */
#define GRADE_WARM_CALLS 4
#define GRADE_LEAK_CALLS 16

/* Evaluates `call` GRADE_WARM_CALLS times, then GRADE_LEAK_CALLS times while
 * measuring the heap; fails the test when those calls left 32 bytes or more
 * per call allocated. */
#define GRADE_NO_LEAK(call, hint)                                                                  \
    do {                                                                                           \
        for (int grade_i_ = 0; grade_i_ < GRADE_WARM_CALLS; grade_i_++)                            \
            (void)(call);                                                                          \
        size_t grade_before_ = grade_heap_in_use();                                                \
        for (int grade_i_ = 0; grade_i_ < GRADE_LEAK_CALLS; grade_i_++)                            \
            (void)(call);                                                                          \
        size_t grade_after_ = grade_heap_in_use();                                                 \
        cr_assert(grade_after_ < grade_before_ + 32 * GRADE_LEAK_CALLS,                            \
                  "memory leak: %d calls left %zu more bytes allocated than before them "          \
                  "(about %zu per call).\nHint: %s",                                               \
                  GRADE_LEAK_CALLS, grade_after_ - grade_before_,                                  \
                  (grade_after_ - grade_before_) / GRADE_LEAK_CALLS, (hint));                      \
    } while (0)

#endif
