/* Unit tests: the MLP, as two matrix products and as a key-value memory. */
#include <criterion/criterion.h>
#include <math.h>

#include "mat.h"
#include "mlp.h"
#include "rng.h"
#include "status.h"

Test(mlp, matrix_form_equals_sum_over_hidden_units)
{
    gsl_rng *r = rng_new(4);
    mlp_weights *w = mlp_new(5, 12, MLP_RELU, r);
    gsl_matrix_view b1 = gsl_matrix_view_vector(w->b1, 1, 12);
    gsl_matrix_view b2 = gsl_matrix_view_vector(w->b2, 1, 5);
    rng_fill_gaussian(&b1.matrix, r, 0.3);
    rng_fill_gaussian(&b2.matrix, r, 0.3);
    gsl_matrix *X = mat_gaussian(3, 5, 1.0, r), *Y = gsl_matrix_alloc(3, 5);
    mlp_trace *tr = mlp_trace_new(3, w);
    const gsl_matrix *Z = tr->Z;
    cr_assert_eq(mlp_forward(w, X, tr, Y), INVENT_OK);
    gsl_vector *y = gsl_vector_alloc(5), *h = gsl_vector_alloc(12);
    int some_off = 0;
    for (size_t t = 0; t < 3; t++) {
        gsl_vector_view x = gsl_matrix_row(X, t);
        cr_assert_eq(mlp_memory_read(w, &x.vector, h, y), INVENT_OK);
        for (size_t i = 0; i < 5; i++)
            cr_assert_float_eq(gsl_vector_get(y, i), gsl_matrix_get(Y, t, i), 1e-12);
        for (size_t i = 0; i < 12; i++) {
            cr_assert_float_eq(gsl_vector_get(h, i), fmax(0.0, gsl_matrix_get(Z, t, i)), 1e-12);
            cr_assert_eq(gsl_matrix_get(tr->F, t, i), fmax(0.0, gsl_matrix_get(Z, t, i)));
            some_off |= gsl_vector_get(h, i) == 0.0;
        }
    }
    cr_assert(some_off, "with random weights some ReLU units should be off");
    gsl_vector_free(y);
    gsl_vector_free(h);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    mlp_trace_free(tr);
    mlp_free(w);
    gsl_rng_free(r);
}

Test(mlp, identity_activation_is_one_linear_map)
{
    gsl_rng *r = rng_new(8);
    mlp_weights *w = mlp_new(4, 6, MLP_IDENTITY, r);
    gsl_matrix *X = mat_gaussian(2, 4, 1.0, r), *Y = gsl_matrix_alloc(2, 4);
    mlp_trace *tr = mlp_trace_new(2, w);
    cr_assert_eq(mlp_forward(w, X, tr, Y), INVENT_OK);
    mlp_trace_free(tr);
    gsl_matrix *W = mat_product(w->W2, CblasNoTrans, w->W1, CblasNoTrans);
    gsl_matrix *want = mat_product(X, CblasNoTrans, W, CblasTrans);
    cr_assert_lt(mat_max_abs_diff(Y, want), 1e-12);
    cr_assert_eq(mlp_activate(MLP_RELU, -2.0), 0.0);
    cr_assert_eq(mlp_activate(MLP_IDENTITY, -2.0), -2.0);
    gsl_matrix_free(W);
    gsl_matrix_free(want);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    mlp_free(w);
    gsl_rng_free(r);
}

Test(mlp, rejects_shapes_that_do_not_fit)
{
    gsl_rng *r = rng_new(1);
    mlp_weights *w = mlp_new(4, 6, MLP_RELU, r);
    gsl_matrix *X = gsl_matrix_calloc(2, 3), *Y = gsl_matrix_alloc(2, 4);
    mlp_trace *tr = mlp_trace_new(2, w);
    cr_assert_eq(mlp_forward(w, X, tr, Y), INVENT_ESHAPE);
    cr_assert_eq(mlp_forward(w, X, NULL, Y), INVENT_ERANGE, "no trace of its own");
    mlp_trace_free(tr);
    gsl_vector *x = gsl_vector_calloc(4), *y = gsl_vector_alloc(4), *h = gsl_vector_alloc(5);
    cr_assert_eq(mlp_memory_read(w, x, h, y), INVENT_ESHAPE);
    cr_assert_null(mlp_new(0, 6, MLP_RELU, r));
    gsl_vector_free(x);
    gsl_vector_free(y);
    gsl_vector_free(h);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    mlp_free(w);
    gsl_rng_free(r);
}
