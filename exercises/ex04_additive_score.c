/* Your file: write the part marked TODO. Grade it: make exercise4
 * To start over: make reset 4 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 4 (chapter 4): the additive tanh score.
 *
 * Bahdanau et al. (2015) scored a token x_i for a receiver whose own input
 * is x_L with a small network of h hidden units:
 *
 *     score = v . tanh(W1 x_i + W2 x_L)        W1, W2: (h, d), v: (h)
 *
 * Chapter 4 shows that it is only weakly interacting: inside the tanh the
 * two arguments are merely added.
 *
 * Contract of ex04_additive_score(W1, W2, v, x_i, x_L, score):
 *   - any h >= 1 and d >= 1; writes v . tanh(W1 x_i + W2 x_L) into *score and
 *     returns INVENT_OK;
 *   - returns INVENT_ESHAPE, leaving *score untouched, when the shapes do not
 *     fit together (W1, W2 not (h, d) with h = v's size, x_i or x_L not (d));
 *   - allocates nothing (use row views and gsl_blas_ddot);
 *   - W1 and W2 may be views whose rows lie further apart than their width
 *     (a tda), v, x_i and x_L views with a stride.
 * Write it yourself: the grade refuses calls to attn_additive_score and
 * score_additive; and to every library function that does the same work (found
 * by walking the library's call graph: each calls one of them, or is one of
 * them wrapped): dw_coefficients, dw_weights.
 * Grade: make exercise4   Hints: make hint 4 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex04_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)W1; (void)W2; (void)v; (void)x_i; (void)x_L; (void)score;
    return INVENT_OK;
}
