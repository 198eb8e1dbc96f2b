#include "grad_rnn.h"

#include <gsl/gsl_blas.h>

#include "status.h"

static int shapes_fit(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                      const gsl_matrix *dH, const gsl_matrix *dW, const gsl_matrix *dU,
                      const gsl_matrix *dX)
{
    size_t m = c->W->size1, p = c->U->size2, n = X->size1;
    return X->size2 == p && H->size1 == n && H->size2 == m && dH->size1 == n &&
           dH->size2 == m && dW->size1 == m && dW->size2 == m && dU->size1 == m &&
           dU->size2 == p && (!dX || (dX->size1 == n && dX->size2 == p));
}

/* g: gradient at h_t -> a: gradient at the pre-activation W h_{t-1} + U x_t */
static void through_activation(const rnn_cell *c, const gsl_vector *h, const gsl_vector *g,
                               gsl_vector *a)
{
    for (size_t i = 0; i < a->size; i++) {
        double y = gsl_vector_get(h, i);
        double slope = c->activation == RNN_TANH ? 1.0 - y * y : 1.0;
        gsl_vector_set(a, i, gsl_vector_get(g, i) * slope);
    }
}

/* One step back, at time t: a = dpre_t; adds to dW, dU; writes dX row t. */
static void step_back(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H, size_t t,
                      const gsl_vector *a, gsl_matrix *dW, gsl_matrix *dU, gsl_matrix *dX)
{
    gsl_vector_const_view x = gsl_matrix_const_row(X, t);
    if (t > 0) {
        gsl_vector_const_view prev = gsl_matrix_const_row(H, t - 1);
        gsl_blas_dger(1.0, a, &prev.vector, dW);
    }
    gsl_blas_dger(1.0, a, &x.vector, dU);
    if (dX) {
        gsl_vector_view dx = gsl_matrix_row(dX, t);
        gsl_blas_dgemv(CblasTrans, 1.0, c->U, a, 0.0, &dx.vector);
    }
}

int grad_rnn_unroll(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                    const gsl_matrix *dH, gsl_matrix *dW, gsl_matrix *dU, gsl_matrix *dX)
{
    if (!shapes_fit(c, X, H, dH, dW, dU, dX))
        return INVENT_ESHAPE;
    size_t m = c->W->size1;
    gsl_vector *g = gsl_vector_calloc(m), *a = gsl_vector_alloc(m);
    if (!g || !a) {
        gsl_vector_free(g);
        gsl_vector_free(a);
        return INVENT_ENOMEM;
    }
    for (size_t t = X->size1; t-- > 0;) {
        gsl_vector_const_view dh = gsl_matrix_const_row(dH, t);
        gsl_vector_const_view h = gsl_matrix_const_row(H, t);
        gsl_vector_add(g, &dh.vector); /* from the loss at h_t and from h_{t+1} */
        through_activation(c, &h.vector, g, a);
        step_back(c, X, H, t, a, dW, dU, dX);
        gsl_blas_dgemv(CblasTrans, 1.0, c->W, a, 0.0, g);
    }
    gsl_vector_free(g);
    gsl_vector_free(a);
    return INVENT_OK;
}
