/* Unit tests: the recurrent cell, its unrolling, step counts, recall probe. */
#include <criterion/criterion.h>
#include <math.h>

#include "mat.h"
#include "recall.h"
#include "rng.h"
#include "rnn.h"
#include "status.h"

Test(rnn, one_step_is_W_h_plus_U_x)
{
    gsl_rng *r = rng_new(1);
    rnn_cell *c = rnn_cell_new(3, 2, RNN_LINEAR, r);
    gsl_vector *h = gsl_vector_alloc(3), *x = gsl_vector_alloc(2), *next = gsl_vector_alloc(3);
    gsl_vector_set_all(h, 0.5);
    gsl_vector_set(x, 0, 1.0);
    gsl_vector_set(x, 1, -2.0);
    cr_assert_eq(rnn_step(c, h, x, next), INVENT_OK);
    for (size_t i = 0; i < 3; i++) {
        double want = 0.0;
        for (size_t j = 0; j < 3; j++)
            want += gsl_matrix_get(c->W, i, j) * 0.5;
        want += gsl_matrix_get(c->U, i, 0) * 1.0 - 2.0 * gsl_matrix_get(c->U, i, 1);
        cr_assert_float_eq(gsl_vector_get(next, i), want, 1e-14);
    }
    c->activation = RNN_TANH;
    cr_assert_eq(rnn_step(c, h, x, next), INVENT_OK);
    for (size_t i = 0; i < 3; i++)
        cr_assert_lt(fabs(gsl_vector_get(next, i)), 1.0);
    cr_assert_eq(rnn_step(c, h, x, h), INVENT_ESHAPE, "output may not alias the state");
    cr_assert_eq(rnn_step(c, h, h, next), INVENT_ESHAPE, "input of the wrong size");
    gsl_vector_free(h);
    gsl_vector_free(x);
    gsl_vector_free(next);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

Test(rnn, unroll_matches_repeated_steps)
{
    gsl_rng *r = rng_new(2);
    rnn_cell *c = rnn_cell_new(4, 2, RNN_TANH, r);
    gsl_matrix *X = mat_gaussian(5, 2, 1.0, r), *H = gsl_matrix_alloc(5, 4);
    cr_assert_eq(rnn_unroll(c, X, H), INVENT_OK);
    gsl_vector *h = gsl_vector_calloc(4), *next = gsl_vector_alloc(4);
    for (size_t t = 0; t < 5; t++) {
        gsl_vector_view x = gsl_matrix_row(X, t);
        rnn_step(c, h, &x.vector, next);
        gsl_vector_memcpy(h, next);
        for (size_t i = 0; i < 4; i++)
            cr_assert_float_eq(gsl_matrix_get(H, t, i), gsl_vector_get(h, i), 1e-15);
    }
    gsl_matrix *bad = gsl_matrix_alloc(5, 3);
    cr_assert_eq(rnn_unroll(c, X, bad), INVENT_ESHAPE);
    gsl_matrix_free(bad);
    gsl_matrix_free(X);
    gsl_matrix_free(H);
    gsl_vector_free(h);
    gsl_vector_free(next);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

Test(rnn, the_state_matrix_is_a_rotation)
{
    gsl_rng *r = rng_new(4);
    rnn_cell *c = rnn_cell_new(5, 1, RNN_LINEAR, r);
    gsl_matrix *WtW = mat_product(c->W, CblasTrans, c->W, CblasNoTrans);
    gsl_matrix *I = gsl_matrix_alloc(5, 5);
    gsl_matrix_set_identity(I);
    cr_assert_lt(mat_max_abs_diff(WtW, I), 1e-12);
    gsl_matrix_free(WtW);
    gsl_matrix_free(I);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

Test(rnn, sequential_steps_on_the_dependency_grid)
{
    uint64_t s;
    cr_assert_eq(sequential_steps(4, 2, STEPS_RECURRENT, &s), INVENT_OK);
    cr_assert_eq(s, 5);
    cr_assert_eq(sequential_steps(4, 2, STEPS_STACKED, &s), INVENT_OK);
    cr_assert_eq(s, 2);
    cr_assert_eq(sequential_steps(1, 1, STEPS_RECURRENT, &s), INVENT_OK);
    cr_assert_eq(s, 1);
    cr_assert_eq(sequential_steps(1000, 12, STEPS_RECURRENT, &s), INVENT_OK);
    cr_assert_eq(s, 1011);
    cr_assert_eq(sequential_steps(0, 2, STEPS_RECURRENT, &s), INVENT_ERANGE);
    cr_assert_eq(sequential_steps(3, 0, STEPS_STACKED, &s), INVENT_ERANGE);
}

Test(rnn, the_near_misses_of_the_step_count_cost_n_times_l)
{
    uint64_t s;
    cr_assert_eq(sequential_steps(4, 2, STEPS_LAYER_BY_LAYER, &s), INVENT_OK);
    cr_assert_eq(s, 8, "layers one after the other: N L, not N + L - 1");
    cr_assert_eq(sequential_steps(4, 2, STEPS_GENERATED, &s), INVENT_OK);
    cr_assert_eq(s, 8, "each token produced before the next: N L, not L");
    cr_assert_eq(sequential_steps(1, 3, STEPS_GENERATED, &s), INVENT_OK);
    cr_assert_eq(s, 3, "one token: the same as the stack");
    cr_assert_eq(sequential_steps(0, 2, STEPS_GENERATED, &s), INVENT_ERANGE);
}

Test(recall, exact_within_capacity_and_lossy_beyond)
{
    gsl_rng *r = rng_new(6);
    rnn_cell *c = rnn_cell_new(6, 2, RNN_LINEAR, r);
    double e;
    cr_assert_eq(recall_error(c, 3, MEMORY_FINAL_STATE, r, &e), INVENT_OK);
    cr_assert_lt(e, 1e-8, "3 inputs of size 2 fit a state of size 6, got %g", e);
    cr_assert_eq(recall_error(c, 6, MEMORY_FINAL_STATE, r, &e), INVENT_OK);
    cr_assert_gt(e, 0.5, "12 numbers cannot fit in 6, got %g", e);
    cr_assert_eq(recall_error(c, 6, MEMORY_EVERY_STATE, r, &e), INVENT_OK);
    cr_assert_lt(e, 1e-8, "keeping every state loses nothing, got %g", e);
    cr_assert_eq(recall_error(c, 0, MEMORY_EVERY_STATE, r, &e), INVENT_ERANGE);
    rnn_cell_free(c);
    gsl_rng_free(r);
}
