#include "rnn_lm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linear.h"
#include "rng.h"
#include "status.h"
#include "xent.h"

rnn_lm *rnn_lm_zeros(size_t vocab, size_t m)
{
    if (vocab == 0 || m == 0)
        return NULL;
    rnn_lm *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->vocab = vocab;
    w->E = gsl_matrix_calloc(vocab, m);
    w->cell = calloc(1, sizeof *w->cell);
    if (w->cell)
        *w->cell = (rnn_cell){gsl_matrix_calloc(m, m), gsl_matrix_calloc(m, m), RNN_TANH};
    w->Wout = gsl_matrix_calloc(vocab, m);
    w->bout = gsl_vector_calloc(vocab);
    if (!w->E || !w->cell || !w->cell->W || !w->cell->U || !w->Wout || !w->bout) {
        rnn_lm_free(w);
        return NULL;
    }
    return w;
}

rnn_lm *rnn_lm_new(size_t vocab, size_t m, gsl_rng *r)
{
    rnn_lm *w = r ? rnn_lm_zeros(vocab, m) : NULL;
    if (!w)
        return NULL;
    rng_fill_gaussian(w->E, r, 1.0); /* E, the cell, W_out: the order of the draws */
    rnn_cell_free(w->cell);
    w->cell = rnn_cell_new(m, m, RNN_TANH, r);
    if (!w->cell) {
        rnn_lm_free(w);
        return NULL;
    }
    rng_fill_gaussian(w->Wout, r, 0.02);
    return w;
}

void rnn_lm_free(rnn_lm *w)
{
    if (!w)
        return;
    gsl_matrix_free(w->E);
    rnn_cell_free(w->cell);
    gsl_matrix_free(w->Wout);
    gsl_vector_free(w->bout);
    free(w);
}

size_t rnn_lm_param_count(size_t V, size_t m)
{
    return 2 * V * m + 2 * m * m + V;
}

size_t rnn_lm_state_for(size_t V, size_t n)
{
    size_t m = 1;
    while (rnn_lm_param_count(V, m + 1) <= n)
        m++;
    size_t below = rnn_lm_param_count(V, m), above = rnn_lm_param_count(V, m + 1);
    return n > below && above - n < n - below ? m + 1 : m;
}

static tensor_ref entry(const char *name, double *value, double *grad, size_t rows, size_t cols)
{
    tensor_ref t = {.value = value, .grad = grad, .ndim = cols > 1 ? 2 : 1,
                    .shape = {rows, cols}, .size = rows * cols, .decay = cols > 1};
    strncpy(t.name, name, sizeof t.name - 1);
    return t;
}

void rnn_lm_tensors(rnn_lm *w, rnn_lm *g, tensor_ref *out)
{
    size_t V = w->vocab, m = w->E->size2;
    out[0] = entry("tok_emb", w->E->data, g ? g->E->data : NULL, V, m);
    out[1] = entry("rnn.W", w->cell->W->data, g ? g->cell->W->data : NULL, m, m);
    out[2] = entry("rnn.U", w->cell->U->data, g ? g->cell->U->data : NULL, m, m);
    out[3] = entry("Wout", w->Wout->data, g ? g->Wout->data : NULL, V, m);
    out[4] = entry("bout", w->bout->data, g ? g->bout->data : NULL, V, 1);
}

struct rnn_lm_trace {
    size_t B, T;
    gsl_matrix *X, *H;   /* (B*T, m): the embedded inputs, the states */
    gsl_matrix *Z, *dZ;  /* (B*T, V): logits and their gradient */
    gsl_matrix *dH, *dX; /* (B*T, m): gradients at the states and the inputs */
    gsl_matrix *work;    /* (2, m): rnn_unroll_backward's */
};

void rnn_lm_trace_free(rnn_lm_trace *tr)
{
    if (!tr)
        return;
    gsl_matrix *M[] = {tr->X, tr->H, tr->Z, tr->dZ, tr->dH, tr->dX, tr->work};
    for (int k = 0; k < 7; k++)
        gsl_matrix_free(M[k]);
    free(tr);
}

rnn_lm_trace *rnn_lm_trace_new(const rnn_lm *w, size_t B, size_t T)
{
    if (B == 0 || T == 0)
        return NULL;
    rnn_lm_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    size_t n = B * T, m = w->E->size2, V = w->vocab;
    *tr = (rnn_lm_trace){B, T, gsl_matrix_alloc(n, m), gsl_matrix_alloc(n, m),
                         gsl_matrix_alloc(n, V), gsl_matrix_alloc(n, V), gsl_matrix_alloc(n, m),
                         gsl_matrix_alloc(n, m), gsl_matrix_alloc(2, m)};
    if (!tr->X || !tr->H || !tr->Z || !tr->dZ || !tr->dH || !tr->dX || !tr->work) {
        rnn_lm_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* rows b*T .. b*T + T - 1 of M */
static gsl_matrix_view sequence(gsl_matrix *M, size_t b, size_t T)
{
    return gsl_matrix_submatrix(M, b * T, 0, T, M->size2);
}

int rnn_lm_forward(const rnn_lm *w, const size_t *x, const size_t *y, rnn_lm_trace *tr,
                   double *loss)
{
    size_t n = tr->B * tr->T;
    for (size_t i = 0; i < n; i++) { /* x_t = E[id_t] */
        if (x[i] >= w->vocab)
            return INVENT_ERANGE;
        gsl_vector_const_view e = gsl_matrix_const_row(w->E, x[i]);
        gsl_vector_view row = gsl_matrix_row(tr->X, i);
        gsl_vector_memcpy(&row.vector, &e.vector);
    }
    int status = INVENT_OK;
    for (size_t b = 0; status == INVENT_OK && b < tr->B; b++) { /* h_t, each sequence from 0 */
        gsl_matrix_view X = sequence(tr->X, b, tr->T), H = sequence(tr->H, b, tr->T);
        status = rnn_unroll(w->cell, &X.matrix, &H.matrix);
    }
    if (status == INVENT_OK)
        status = linear_forward(tr->H, w->Wout, w->bout, tr->Z);
    return status == INVENT_OK ? xent_forward(tr->Z, y, loss, NULL) : status;
}

int rnn_lm_backward(const rnn_lm *w, const size_t *x, const size_t *y, rnn_lm_trace *tr,
                    rnn_lm *g)
{
    gsl_matrix *scratch[] = {tr->dZ, tr->dH, tr->dX};
    for (int k = 0; k < 3; k++)
        gsl_matrix_set_zero(scratch[k]);
    /* loss = xent(Z), Z = H W_out^T + b_out */
    int status = xent_backward(tr->Z, y, tr->dZ);
    if (status == INVENT_OK)
        status = linear_backward(tr->H, w->Wout, tr->dZ, tr->dH, g->Wout, g->bout);
    /* h_t = tanh(W h_{t-1} + U x_t), back through time in each sequence */
    for (size_t b = 0; status == INVENT_OK && b < tr->B; b++) {
        gsl_matrix_view X = sequence(tr->X, b, tr->T), H = sequence(tr->H, b, tr->T),
                        dH = sequence(tr->dH, b, tr->T), dX = sequence(tr->dX, b, tr->T);
        status = rnn_unroll_backward(w->cell, &X.matrix, &H.matrix, &dH.matrix, g->cell->W,
                                     g->cell->U, &dX.matrix, tr->work);
    }
    /* x_t = E[id_t]: each row's gradient goes back to its symbol's row */
    for (size_t i = 0; status == INVENT_OK && i < tr->B * tr->T; i++) {
        gsl_vector_view e = gsl_matrix_row(g->E, x[i]);
        gsl_vector_const_view dx = gsl_matrix_const_row(tr->dX, i);
        gsl_vector_add(&e.vector, &dx.vector);
    }
    return status;
}

int rnn_lm_batch_forward(void *model, const size_t *x, const size_t *y, double *loss)
{
    rnn_lm_batch *b = model;
    return rnn_lm_forward(b->w, x, y, b->tr, loss);
}

int rnn_lm_batch_backward(void *model, const size_t *x, const size_t *y)
{
    rnn_lm_batch *b = model;
    return rnn_lm_backward(b->w, x, y, b->tr, b->g);
}
