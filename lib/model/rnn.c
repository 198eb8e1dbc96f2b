#include "rnn.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "mat.h"
#include "status.h"

rnn_cell *rnn_cell_new(size_t m, size_t p, rnn_activation act, gsl_rng *r)
{
    rnn_cell *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->activation = act;
    c->W = gsl_matrix_alloc(m, m);
    c->U = mat_gaussian(m, p, 1.0 / sqrt((double)p), r);
    if (!c->W || !c->U || mat_random_orthogonal(c->W, r) != INVENT_OK) {
        rnn_cell_free(c);
        return NULL;
    }
    return c;
}

void rnn_cell_free(rnn_cell *c)
{
    if (!c)
        return;
    gsl_matrix_free(c->W);
    gsl_matrix_free(c->U);
    free(c);
}

int rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next)
{
    size_t m = c->W->size1;
    if (h->size != m || h_next->size != m || x->size != c->U->size2 || h == h_next)
        return INVENT_ESHAPE;
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->W, h, 0.0, h_next);
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->U, x, 1.0, h_next);
    if (c->activation == RNN_TANH)
        for (size_t i = 0; i < m; i++)
            gsl_vector_set(h_next, i, tanh(gsl_vector_get(h_next, i)));
    return INVENT_OK;
}

int rnn_unroll(const rnn_cell *c, const gsl_matrix *X, gsl_matrix *H)
{
    size_t m = c->W->size1;
    if (X->size2 != c->U->size2 || H->size1 != X->size1 || H->size2 != m)
        return INVENT_ESHAPE;
    for (size_t t = 0; t < X->size1; t++) { /* h_t = act(W h_{t-1} + U x_t), h_{-1} = 0 */
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        gsl_vector_view h = gsl_matrix_row(H, t);
        gsl_vector_set_zero(&h.vector);
        if (t > 0) {
            gsl_vector_const_view prev = gsl_matrix_const_row(H, t - 1);
            gsl_blas_dgemv(CblasNoTrans, 1.0, c->W, &prev.vector, 0.0, &h.vector);
        }
        gsl_blas_dgemv(CblasNoTrans, 1.0, c->U, &x.vector, 1.0, &h.vector);
        if (c->activation == RNN_TANH)
            for (size_t i = 0; i < m; i++)
                gsl_vector_set(&h.vector, i, tanh(gsl_vector_get(&h.vector, i)));
    }
    return INVENT_OK;
}

static int backward_shapes_fit(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                               const gsl_matrix *dH, const gsl_matrix *dW,
                               const gsl_matrix *dU, const gsl_matrix *dX,
                               const gsl_matrix *work)
{
    size_t m = c->W->size1, p = c->U->size2, n = X->size1;
    return X->size2 == p && H->size1 == n && H->size2 == m && dH->size1 == n &&
           dH->size2 == m && dW->size1 == m && dW->size2 == m && dU->size1 == m &&
           dU->size2 == p && (!dX || (dX->size1 == n && dX->size2 == p)) &&
           work->size1 == 2 && work->size2 == m;
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

/* One step back, at time t: a = dpre_t; adds to dW, dU and row t of dX. */
static void step_backward(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                          size_t t, const gsl_vector *a, gsl_matrix *dW, gsl_matrix *dU,
                          gsl_matrix *dX)
{
    gsl_vector_const_view x = gsl_matrix_const_row(X, t);
    if (t > 0) {
        gsl_vector_const_view prev = gsl_matrix_const_row(H, t - 1);
        gsl_blas_dger(1.0, a, &prev.vector, dW);
    }
    gsl_blas_dger(1.0, a, &x.vector, dU);
    if (dX) {
        gsl_vector_view dx = gsl_matrix_row(dX, t);
        gsl_blas_dgemv(CblasTrans, 1.0, c->U, a, 1.0, &dx.vector);
    }
}

int rnn_unroll_backward(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                        const gsl_matrix *dH, gsl_matrix *dW, gsl_matrix *dU, gsl_matrix *dX,
                        gsl_matrix *work)
{
    if (!backward_shapes_fit(c, X, H, dH, dW, dU, dX, work))
        return INVENT_ESHAPE;
    gsl_vector_view g = gsl_matrix_row(work, 0), a = gsl_matrix_row(work, 1);
    gsl_vector_set_zero(&g.vector);
    for (size_t t = X->size1; t-- > 0;) {
        gsl_vector_const_view dh = gsl_matrix_const_row(dH, t);
        gsl_vector_const_view h = gsl_matrix_const_row(H, t);
        gsl_vector_add(&g.vector, &dh.vector); /* from the loss at h_t and from h_{t+1} */
        through_activation(c, &h.vector, &g.vector, &a.vector);
        step_backward(c, X, H, t, &a.vector, dW, dU, dX);
        gsl_blas_dgemv(CblasTrans, 1.0, c->W, &a.vector, 0.0, &g.vector);
    }
    return INVENT_OK;
}

/* depth[t] of layer l from layer l-1's depth, in place, under a layer-major rule */
static void next_layer(uint64_t *depth, uint64_t tokens, step_rule rule)
{
    uint64_t widest = 0, left = 0;
    for (uint64_t t = 0; t < tokens; t++)
        widest = depth[t] > widest ? depth[t] : widest;
    for (uint64_t t = 0; t < tokens; t++) {
        uint64_t below = rule == STEPS_RECURRENT ? depth[t] : widest;
        uint64_t wait = rule == STEPS_STACKED || below > left ? below : left;
        depth[t] = wait + 1;
        left = depth[t];
    }
}

/* depth[l] of token t from token t-1's column, in place (generation): layer l
 * waits for layer l-1 of the tokens so far, whose deepest is token t's own (the
 * depths grow with t), and the first layer for the last layer of token t-1 */
static void next_token(uint64_t *depth, uint64_t layers)
{
    uint64_t below = depth[layers - 1];
    for (uint64_t l = 0; l < layers; l++) {
        depth[l] = below + 1;
        below = depth[l];
    }
}

int sequential_steps(uint64_t tokens, uint64_t layers, step_rule rule, uint64_t *steps)
{
    if (tokens == 0 || layers == 0)
        return INVENT_ERANGE;
    int generated = rule == STEPS_GENERATED;
    uint64_t cells = generated ? layers : tokens;
    if (cells > SIZE_MAX / sizeof(uint64_t))
        return INVENT_EOVERFLOW;
    uint64_t *depth = calloc((size_t)cells, sizeof *depth);
    if (!depth)
        return INVENT_ENOMEM;
    for (uint64_t k = 0; k < (generated ? tokens : layers); k++) {
        if (generated)
            next_token(depth, layers);
        else
            next_layer(depth, tokens, rule);
    }
    *steps = depth[cells - 1];
    free(depth);
    return INVENT_OK;
}
