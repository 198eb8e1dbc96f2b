/* Your file: write the part marked TODO. Grade it: make exercise1
 * To start over: make reset 1 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
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
    /* TODO: replace this placeholder with your code (contract above). */
    (void)c; (void)h; (void)x; (void)h_next;
    return INVENT_OK;
}
