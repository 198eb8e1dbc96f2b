/* Exercise 1 (chapter 1): one step of a recurrent network.
 *
 * The state h has a fixed size m; every input x of size p is folded into it:
 *
 *     h_next = act(W h + U x)       W: (m, m), U: (m, p), act = identity or tanh
 *
 * Contract of ex01_rnn_step(c, h, x, h_next):
 *   - c->W is (m, m), c->U is (m, p), c->activation is RNN_LINEAR or RNN_TANH;
 *   - h: (m), x: (p), h_next: (m); writes act(W h + U x) into h_next and
 *     returns INVENT_OK;
 *   - if a size does not fit (h or h_next not of size m, x not of size p) or
 *     h_next is the same vector as h, returns INVENT_ESHAPE and writes nothing.
 *   - h, x and h_next may be views (entries a stride apart), W and U views
 *     whose rows lie further apart than their width (a tda): index them
 *     with gsl_vector_get/set and the BLAS, not through ->data.
 * Use the BLAS (gsl_blas_dgemv), not hand-written loops over W.
 * Write it yourself: the grade refuses calls to rnn_step and rnn_unroll.
 * Grade: make exercise1   Hints: make hint 1 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex01_rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next)
{
    /* BEGIN SOLUTION */
    /* stub: (void)c; (void)h; (void)x; (void)h_next; */
    /* stub: return INVENT_OK; */
    size_t m = c->W->size1;
    if (h->size != m || h_next->size != m || x->size != c->U->size2 || h == h_next)
        return INVENT_ESHAPE;
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->W, h, 0.0, h_next);
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->U, x, 1.0, h_next);
    if (c->activation == RNN_TANH)
        for (size_t i = 0; i < m; i++)
            gsl_vector_set(h_next, i, tanh(gsl_vector_get(h_next, i)));
    return INVENT_OK;
    /* END SOLUTION */
}
