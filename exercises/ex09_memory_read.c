/* Your file: write the part marked TODO. Grade it: make exercise9
 * To start over: make reset 9 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 9 (chapter 9): the MLP as a key-value memory.
 *
 * Read row i of W1 as a key k_i and column i of W2 as the value v_i it
 * stores. Then the MLP y = W2 f(W1 x + b1) + b2 is a lookup: every hidden
 * unit measures how well x matches its key and writes its value in
 * proportion (Geva et al., 2021):
 *
 *     y = sum_i f(k_i . x + b1_i) v_i + b2
 *
 * Contract of ex09_memory_read(w, x, y):
 *   - w: the weights of lib/model/mlp.h (W1: (m, d), b1: (m), W2: (d, m), b2: (d),
 *     w->f the activation, applied with mlp_activate); x: (d); y: (d);
 *   - writes the sum above into y, one hidden unit at a time, and returns
 *     INVENT_OK; returns INVENT_ESHAPE when x or y is not of size d, the size
 *     W1 and W2 agree on; allocates nothing;
 *   - W1 and W2 may be views whose rows lie further apart than their width
 *     (a tda), b1, b2, x and y views with a stride.
 * Write it yourself: the grade refuses calls to mlp_memory_read, mlp_forward
 * and block_forward.
 * Grade: make exercise9   Hints: make hint 9 (then LEVEL=2, LEVEL=3) */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex09_memory_read(const mlp_weights *w, const gsl_vector *x, gsl_vector *y)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)w; (void)x; (void)y;
    return INVENT_OK;
}
