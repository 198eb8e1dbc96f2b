/* Helpers shared by the graders: every grader compares the student's
 * function with the library's reference and, when they differ, says what was
 * expected, what came back, where, and what to look at.
 *
 * How a grade is kept honest (grade-guard.c, grade-run.c and
 * scripts/exercise.sh have the details):
 *   - each test runs in its own process with a time limit, and passes only
 *     if it reached its own last line: exit(), _exit(), quick_exit(), abort()
 *     or a crash in student code fail it, with a message that says which;
 *   - a GSL error (an index out of range, lengths that differ) fails the test
 *     with GSL's reason, the GSL function and the student's line;
 *   - a pass is grade-run's, not the grader's: a key drawn at run time
 *     reaches the grader through a pipe, each test's last line answers with
 *     it, and grade-run counts those answers itself (grade-key.h); an exit
 *     with the status below, or a rewritten count, is not a pass;
 *   - before it runs, the student's object file must keep to the symbol
 *     policy (scripts/exercise-policy.sh): its own functions only, no
 *     constructor or hook, calls only into GSL, libm, malloc/free and the
 *     helpers that the grader's line " * Allowed calls: ..." names;
 *   - inputs and outputs come as views (a stride, rows further apart than
 *     their width), surrounded by canaries that must be intact after every
 *     comparison and at the test's end;
 *   - a student's file that calls a function on its grader's line
 *     " * Refused calls: ..." fails without running. */
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

/* Exit statuses of a test's process: the first when the test reached its
 * last line (public, so not enough for a pass: grade-run also wants the
 * test's answer with its key), the others when student code ended the
 * process before that. */
enum { GRADE_REACHED_END = 86, GRADE_CALLED_EXIT = 70, GRADE_CALLED_QUICK_EXIT = 71 };

/* before every graded test: turns exit(), quick_exit() and GSL errors into
 * failures that say so, and a crash into a message with the student's line */
void grade_setup(void);

/* the last line of every graded test: answers grade-run "end KEY test" with
 * this run's key (grade-key.h), then ends its process with GRADE_REACHED_END */
void grade_end(void);

/* after a failed check, which skips grade_end(): Criterion ends the process */
void grade_teardown(void);

/* A graded test: its own process and time limit; it passes only when its
 * body returned, every view's canaries held and grade_end() ran (Criterion
 * checks the exit status, grade-run the answer). */
#define GRADE(suite, name)                                                                         \
    static void grade_body_##suite##_##name(void);                                                 \
    Test(suite, name, .timeout = GRADE_TIMEOUT, .exit_code = GRADE_REACHED_END,                    \
         .init = grade_setup, .fini = grade_teardown)                                              \
    {                                                                                              \
        grade_body_##suite##_##name();                                                             \
        grade_views("at the end of the test");                                                     \
        grade_end();                                                                               \
    }                                                                                              \
    static void grade_body_##suite##_##name(void)

/* ------------------------------------------------------------------ inputs */

/* seed -> a generator that fails the test when out of memory */
gsl_rng *grade_rng(unsigned long seed);

/* -> (rows, cols) with N(0, sigma^2) entries; fails the test when out of memory */
gsl_matrix *grade_gaussian(size_t rows, size_t cols, double sigma, gsl_rng *r);

/* -> (rows, cols) filled with NaN, so that an output never written shows */
gsl_matrix *grade_nan(size_t rows, size_t cols);

/* Views as the library makes them: a vector's entries GRADE_STRIDE apart,
 * a matrix's rows GRADE_PAD entries further apart than its width; every
 * slot of the block outside the view holds GRADE_CANARY. */
#define GRADE_STRIDE 3
#define GRADE_PAD 2
#define GRADE_CANARY (-4242.25)

/* v: (n) -> a copy with stride GRADE_STRIDE, canaries between its entries
 * and in GRADE_STRIDE slots past its end; gsl_vector_free releases it */
gsl_vector *grade_strided(const gsl_vector *v);

/* m: (rows, cols) -> a copy with tda = cols + GRADE_PAD, canaries in the
 * padding and in GRADE_PAD slots past its end; gsl_matrix_free releases it */
gsl_matrix *grade_padded(const gsl_matrix *m);

/* n (rows, cols) -> a strided vector (padded matrix) of NaN, for outputs */
gsl_vector *grade_nan_strided(size_t n);
gsl_matrix *grade_nan_padded(size_t rows, size_t cols);

/* *v, *m -> replaced by a strided (padded) copy, the old one freed: the
 * matrices inside a library structure (a cell, a score) become views too */
void grade_restride(gsl_vector **v);
void grade_repad(gsl_matrix **m);

/* room for one message */
#define GRADE_MSG 8192

/* v from grade_strided (m from grade_padded) -> 1 when every slot of its
 * block outside the view still holds the canary; else 0 and msg */
int grade_canaries_ok(char *msg, size_t size, const char *what, const gsl_vector *v);
int grade_padding_ok(char *msg, size_t size, const char *what, const gsl_matrix *m);

/* -> 1 when every view made by the functions above (inputs and outputs,
 * freed or not) still has all its canaries; else 0 and msg. Every
 * comparison below checks it after agreeing, and every test at its end. */
int grade_views_ok(char *msg, size_t size, const char *what);

/* ------------------------------------------------------------- comparisons */

/* A wrong answer that a known mistake gives on the same inputs: when the
 * student's result matches it, the hint names that mistake. */
typedef struct {
    const gsl_matrix *result;
    const char *mistake;
} grade_mistake;

/* got, want: (m, n) -> 1 when max |got - want| <= tol * max(1, max |want|)
 * (NaN agrees only with NaN); else 0 and msg: the worst entry, both matrices
 * when small, and the hint, or the mistake among the n known ones that got
 * matches */
int grade_matrix_ok(char *msg, size_t size, const char *what, const gsl_matrix *got,
                    const gsl_matrix *want, double tol, const char *hint,
                    const grade_mistake *known, size_t n);

/* the same for vectors, seen as (1, n) matrices (so are the known results) */
int grade_vector_ok(char *msg, size_t size, const char *what, const gsl_vector *got,
                    const gsl_vector *want, double tol, const char *hint,
                    const grade_mistake *known, size_t n);

/* the check whose call is under way (grade_status sets it), or NULL: a GSL
 * error or a crash during the call names it */
extern const char *grade_doing;

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
    GRADE_CHECK(grade_matrix_ok(grade_msg_, GRADE_MSG, what, got, want, tol, hint, NULL, 0))
#define grade_matrix_why(what, got, want, tol, hint, known, n)                                     \
    GRADE_CHECK(grade_matrix_ok(grade_msg_, GRADE_MSG, what, got, want, tol, hint, known, n))
#define grade_vector(what, got, want, tol, hint)                                                   \
    GRADE_CHECK(grade_vector_ok(grade_msg_, GRADE_MSG, what, got, want, tol, hint, NULL, 0))
#define grade_vector_why(what, got, want, tol, hint, known, n)                                     \
    GRADE_CHECK(grade_vector_ok(grade_msg_, GRADE_MSG, what, got, want, tol, hint, known, n))
#define grade_status(what, got, want, hint)                                                        \
    do {                                                                                           \
        grade_doing = (what);                                                                      \
        int grade_got_ = (got);                                                                    \
        grade_doing = NULL;                                                                        \
        GRADE_CHECK(grade_status_ok(grade_msg_, GRADE_MSG, what, grade_got_, want, hint));         \
    } while (0)
#define grade_canaries(what, v) GRADE_CHECK(grade_canaries_ok(grade_msg_, GRADE_MSG, what, v))
#define grade_padding(what, m) GRADE_CHECK(grade_padding_ok(grade_msg_, GRADE_MSG, what, m))
#define grade_views(what) GRADE_CHECK(grade_views_ok(grade_msg_, GRADE_MSG, what))

/* an input after the call must equal its copy from before, to the bit */
#define GRADE_HINT_CONST "your function changed an input it must only read (const): work on a copy"
#define grade_unchanged(what, now, before) grade_matrix(what, now, before, 0.0, GRADE_HINT_CONST)
#define grade_unchanged_vector(what, now, before)                                                  \
    grade_vector(what, now, before, 0.0, GRADE_HINT_CONST)

/* ------------------------------------------------------------------- leaks */

/* bytes of heap in use now (malloc arenas and mmapped blocks) */
size_t grade_heap_in_use(void);

/* calls measured; a leak of even the smallest block (32 bytes) per call
 * shows as at least GRADE_LEAK_CALLS * 32 bytes more in use */
#define GRADE_LEAK_CALLS 16

/* Evaluates `warm` once (the library's reference on the same inputs, so
 * that GSL and the BLAS hold whatever they keep for good), then `call`
 * GRADE_LEAK_CALLS times while measuring the heap; fails the test when
 * those calls left 32 bytes or more per call allocated, or anything kept
 * from the first call on (a static buffer is never freed). */
#define GRADE_NO_LEAK(warm, call, hint)                                                            \
    do {                                                                                           \
        (void)(warm);                                                                              \
        size_t grade_before_ = grade_heap_in_use();                                                \
        for (int grade_i_ = 0; grade_i_ < GRADE_LEAK_CALLS; grade_i_++)                            \
            (void)(call);                                                                          \
        size_t grade_after_ = grade_heap_in_use();                                                 \
        cr_assert(grade_after_ < grade_before_ + 32,                                               \
                  "memory leak: %d calls left %zu more bytes allocated than before them "          \
                  "(about %zu per call, or a buffer kept from one call to the next).\nHint: %s",   \
                  GRADE_LEAK_CALLS, grade_after_ - grade_before_,                                  \
                  (grade_after_ - grade_before_) / GRADE_LEAK_CALLS, (hint));                      \
    } while (0)

#endif
