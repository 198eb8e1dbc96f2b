/* Grader for exercise 1: one recurrent step, against rnn_step. The
 * student's vectors are views with a stride, and W and U have a tda.
 * Refused calls: rnn_step rnn_unroll */
#include <math.h>
#include <stdlib.h>

#include "exercises.h"
#include "grade.h"

static const char *HINT_VALUES = "h_next = act(W h + U x): two gsl_blas_dgemv calls "
                                 "(beta 0, then beta 1), then tanh entry by entry for RNN_TANH";

/* m, p -> a cell with Gaussian W (variance 1/m) and U (1/p), both views
 * with a tda; rnn_cell_free releases it */
static rnn_cell *padded_cell(size_t m, size_t p, rnn_activation act, gsl_rng *r)
{
    rnn_cell *c = malloc(sizeof *c);
    cr_assert(c != NULL, "grader: out of memory");
    c->W = grade_gaussian(m, m, 1.0 / sqrt((double)m), r);
    c->U = grade_gaussian(m, p, 1.0 / sqrt((double)p), r);
    c->activation = act;
    grade_repad(&c->W);
    grade_repad(&c->U);
    return c;
}

/* c, h, x -> what two known mistakes give, as (1, m) matrices: tanh left
 * out, and W used transposed */
static void mistaken_steps(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x,
                           gsl_matrix *out[2])
{
    size_t m = h->size;
    rnn_cell linear = *c, transposed = *c;
    linear.activation = RNN_LINEAR;
    transposed.W = gsl_matrix_alloc(m, m);
    gsl_matrix_transpose_memcpy(transposed.W, c->W);
    out[0] = grade_nan(1, m), out[1] = grade_nan(1, m);
    gsl_vector_view o0 = gsl_matrix_row(out[0], 0), o1 = gsl_matrix_row(out[1], 0);
    rnn_step(&linear, h, x, &o0.vector);
    rnn_step(&transposed, h, x, &o1.vector);
    gsl_matrix_free(transposed.W);
}

/* the student's step on strided copies of a random (h, x) and rnn_step on
 * plain ones must agree; h, x, W and U must come back unchanged */
static void compare_step(size_t m, size_t p, rnn_activation act, double scale, unsigned long seed,
                         const char *what)
{
    gsl_rng *r = grade_rng(seed);
    rnn_cell *c = padded_cell(m, p, act, r);
    gsl_matrix *H = grade_gaussian(1, m, scale, r), *X = grade_gaussian(1, p, scale, r);
    gsl_matrix *W0 = mat_clone(c->W), *U0 = mat_clone(c->U), *known[2];
    gsl_vector_view h0 = gsl_matrix_row(H, 0), x0 = gsl_matrix_row(X, 0);
    gsl_vector *h = grade_strided(&h0.vector), *x = grade_strided(&x0.vector);
    gsl_vector *got = grade_nan_strided(m), *want = gsl_vector_alloc(m);
    cr_assert_eq(rnn_step(c, &h0.vector, &x0.vector, want), INVENT_OK);
    mistaken_steps(c, &h0.vector, &x0.vector, known);
    const grade_mistake mistakes[] = {
        {known[0], "tanh is missing: with RNN_TANH, apply tanh to every entry of h_next"},
        {known[1], "W is used transposed: W h is gsl_blas_dgemv(CblasNoTrans, 1.0, c->W, ...)"}};
    grade_status(what, ex01_rnn_step(c, h, x, got), INVENT_OK,
                 "return INVENT_OK when every size fits");
    grade_canaries(what, got);
    grade_vector_why(what, got, want, 1e-12, HINT_VALUES, mistakes, 2);
    grade_unchanged_vector("h after the call", h, &h0.vector);
    grade_unchanged_vector("x after the call", x, &x0.vector);
    grade_unchanged("W after the call", c->W, W0);
    grade_unchanged("U after the call", c->U, U0);
    gsl_vector_free(h), gsl_vector_free(x), gsl_vector_free(got), gsl_vector_free(want);
    gsl_matrix_free(H), gsl_matrix_free(X), gsl_matrix_free(W0), gsl_matrix_free(U0);
    gsl_matrix_free(known[0]), gsl_matrix_free(known[1]);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

GRADE(ex01, linear_cell)
{
    compare_step(8, 3, RNN_LINEAR, 1.0, 11, "h_next of a linear cell, m = 8, p = 3");
}

GRADE(ex01, tanh_cell)
{
    compare_step(8, 3, RNN_TANH, 1.0, 12, "h_next of a tanh cell, m = 8, p = 3");
}

GRADE(ex01, size_one)
{
    compare_step(1, 1, RNN_TANH, 1.0, 13, "h_next for m = p = 1");
}

GRADE(ex01, large_magnitudes_saturate_tanh)
{
    compare_step(16, 4, RNN_TANH, 1e6, 14, "h_next for h and x ~1e6 (tanh saturates)");
}

GRADE(ex01, two_sizes_and_a_large_state)
{
    compare_step(5, 2, RNN_TANH, 1.0, 18, "h_next for m = 5");
    compare_step(1000, 7, RNN_TANH, 1.0, 19, "h_next for m = 1000, after m = 5");
    compare_step(3, 3, RNN_LINEAR, 1.0, 20, "h_next for m = 3, after m = 1000");
}

GRADE(ex01, unrolled_steps_match_rnn_unroll)
{
    size_t m = 6, p = 2, n = 10;
    gsl_rng *r = grade_rng(15);
    rnn_cell *c = padded_cell(m, p, RNN_TANH, r), linear = *c;
    linear.activation = RNN_LINEAR;
    gsl_matrix *X = grade_gaussian(n, p, 1.0, r), *want = grade_nan(n, m), *got = grade_nan(n, m);
    gsl_matrix *no_tanh = grade_nan(n, m);
    cr_assert_eq(rnn_unroll(c, X, want), INVENT_OK);
    cr_assert_eq(rnn_unroll(&linear, X, no_tanh), INVENT_OK);
    gsl_vector *h = gsl_vector_calloc(m);
    for (size_t t = 0; t < n; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        gsl_vector_view out = gsl_matrix_row(got, t);
        ex01_rnn_step(c, h, &x.vector, &out.vector);
        gsl_vector_memcpy(h, &out.vector);
    }
    const grade_mistake mistakes[] = {
        {no_tanh, "tanh is missing: with RNN_TANH, apply tanh to every entry of h_next"}};
    grade_matrix_why("states h_1..h_10 from h_0 = 0", got, want, 1e-10,
                     "each step is act(W h + U x) from the h it is given, nothing kept "
                     "from the step before",
                     mistakes, 1);
    gsl_vector_free(h);
    gsl_matrix_free(X), gsl_matrix_free(want), gsl_matrix_free(got), gsl_matrix_free(no_tanh);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

GRADE(ex01, wrong_sizes_are_refused)
{
    gsl_rng *r = grade_rng(16);
    rnn_cell *c = padded_cell(4, 2, RNN_LINEAR, r);
    gsl_vector *h = gsl_vector_calloc(4), *x = gsl_vector_calloc(2), *out = gsl_vector_alloc(4);
    gsl_vector *short_h = gsl_vector_calloc(3), *long_x = gsl_vector_calloc(3);
    gsl_vector *sevens = gsl_vector_alloc(4);
    gsl_vector_set_all(out, 7.0), gsl_vector_set_all(sevens, 7.0);
    const char *hint = "compare h->size and h_next->size with c->W->size1, x->size with "
                       "c->U->size2, and h with h_next, before any product";
    grade_status("h of size 3 for m = 4", ex01_rnn_step(c, short_h, x, out), INVENT_ESHAPE, hint);
    grade_status("x of size 3 for p = 2", ex01_rnn_step(c, h, long_x, out), INVENT_ESHAPE, hint);
    grade_status("h_next of size 3", ex01_rnn_step(c, h, x, short_h), INVENT_ESHAPE, hint);
    grade_status("h_next the same vector as h", ex01_rnn_step(c, h, x, h), INVENT_ESHAPE, hint);
    grade_vector("h_next after refused calls", out, sevens, 0.0,
                 "a refused call writes nothing: check first, then compute");
    GRADE_NO_LEAK(0, ex01_rnn_step(c, short_h, x, out), "free what you allocate on every path");
    gsl_vector_free(h), gsl_vector_free(x), gsl_vector_free(out), gsl_vector_free(sevens);
    gsl_vector_free(short_h), gsl_vector_free(long_x);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

GRADE(ex01, no_memory_leak)
{
    gsl_rng *r = grade_rng(17);
    rnn_cell *c = padded_cell(8, 3, RNN_TANH, r);
    gsl_vector *h = gsl_vector_calloc(8), *x = gsl_vector_calloc(3), *out = gsl_vector_calloc(8);
    GRADE_NO_LEAK(rnn_step(c, h, x, out), ex01_rnn_step(c, h, x, out),
                  "free every vector you allocate, and keep none from one call to the next");
    gsl_vector_free(h), gsl_vector_free(x), gsl_vector_free(out);
    rnn_cell_free(c);
    gsl_rng_free(r);
}
