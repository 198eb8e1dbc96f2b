/* Grader for exercise 1: one recurrent step, against rnn_step. */
#include "exercises.h"
#include "grade.h"

static const char *HINT_VALUES = "h_next = act(W h + U x): two gsl_blas_dgemv calls "
                                 "(beta 0, then beta 1), then tanh entry by entry for RNN_TANH";

/* the student's step and rnn_step on one random (h, x) must agree */
static void compare_step(size_t m, size_t p, rnn_activation act, double scale, unsigned long seed)
{
    gsl_rng *r = grade_rng(seed);
    rnn_cell *c = rnn_cell_new(m, p, act, r);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_matrix *h = grade_gaussian(1, m, scale, r), *x = grade_gaussian(1, p, scale, r);
    gsl_matrix *got = grade_nan(1, m), *want = grade_nan(1, m);
    gsl_vector_view hv = gsl_matrix_row(h, 0), xv = gsl_matrix_row(x, 0);
    gsl_vector_view gv = gsl_matrix_row(got, 0), wv = gsl_matrix_row(want, 0);
    cr_assert_eq(rnn_step(c, &hv.vector, &xv.vector, &wv.vector), INVENT_OK);
    grade_status("ex01_rnn_step on fitting sizes",
                 ex01_rnn_step(c, &hv.vector, &xv.vector, &gv.vector), INVENT_OK,
                 "return INVENT_OK when every size fits");
    grade_vector("h_next", &gv.vector, &wv.vector, 1e-12, HINT_VALUES);
    gsl_matrix_free(h), gsl_matrix_free(x), gsl_matrix_free(got), gsl_matrix_free(want);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

GRADE(ex01, linear_cell)
{
    compare_step(8, 3, RNN_LINEAR, 1.0, 11);
}

GRADE(ex01, tanh_cell)
{
    compare_step(8, 3, RNN_TANH, 1.0, 12);
}

GRADE(ex01, size_one)
{
    compare_step(1, 1, RNN_TANH, 1.0, 13);
}

GRADE(ex01, large_magnitudes_saturate_tanh)
{
    compare_step(16, 4, RNN_TANH, 1e6, 14);
}

GRADE(ex01, unrolled_steps_match_rnn_unroll)
{
    size_t m = 6, p = 2, n = 10;
    gsl_rng *r = grade_rng(15);
    rnn_cell *c = rnn_cell_new(m, p, RNN_TANH, r);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_matrix *X = grade_gaussian(n, p, 1.0, r), *want = grade_nan(n, m), *got = grade_nan(n, m);
    cr_assert_eq(rnn_unroll(c, X, want), INVENT_OK);
    gsl_vector *h = gsl_vector_calloc(m);
    for (size_t t = 0; t < n; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        gsl_vector_view out = gsl_matrix_row(got, t);
        ex01_rnn_step(c, h, &x.vector, &out.vector);
        gsl_vector_memcpy(h, &out.vector);
    }
    grade_matrix("states h_1..h_10 from h_0 = 0", got, want, 1e-10,
                 "each step must use the h it is given, not a stored one");
    gsl_vector_free(h);
    gsl_matrix_free(X), gsl_matrix_free(want), gsl_matrix_free(got);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

GRADE(ex01, wrong_sizes_are_refused)
{
    gsl_rng *r = grade_rng(16);
    rnn_cell *c = rnn_cell_new(4, 2, RNN_LINEAR, r);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_vector *h = gsl_vector_calloc(4), *x = gsl_vector_calloc(2), *out = gsl_vector_calloc(4);
    gsl_vector *short_h = gsl_vector_calloc(3), *long_x = gsl_vector_calloc(3);
    const char *hint = "compare h->size and h_next->size with c->W->size1, x->size with "
                       "c->U->size2, and h with h_next, before any product";
    grade_status("h of size 3 for m = 4", ex01_rnn_step(c, short_h, x, out), INVENT_ESHAPE, hint);
    grade_status("x of size 3 for p = 2", ex01_rnn_step(c, h, long_x, out), INVENT_ESHAPE, hint);
    grade_status("h_next of size 3", ex01_rnn_step(c, h, x, short_h), INVENT_ESHAPE, hint);
    grade_status("h_next the same vector as h", ex01_rnn_step(c, h, x, h), INVENT_ESHAPE, hint);
    gsl_vector_free(h), gsl_vector_free(x), gsl_vector_free(out);
    gsl_vector_free(short_h), gsl_vector_free(long_x);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

GRADE(ex01, no_memory_leak)
{
    gsl_rng *r = grade_rng(17);
    rnn_cell *c = rnn_cell_new(8, 3, RNN_TANH, r);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_vector *h = gsl_vector_calloc(8), *x = gsl_vector_calloc(3), *out = gsl_vector_calloc(8);
    GRADE_NO_LEAK(ex01_rnn_step(c, h, x, out), "free every vector you allocate");
    gsl_vector_free(h), gsl_vector_free(x), gsl_vector_free(out);
    rnn_cell_free(c);
    gsl_rng_free(r);
}
