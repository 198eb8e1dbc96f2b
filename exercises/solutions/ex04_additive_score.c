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
    /* BEGIN SOLUTION */
    /* stub: (void)W1; (void)W2; (void)v; (void)x_i; (void)x_L; (void)score; */
    /* stub: return INVENT_OK; */
    size_t h = v->size;
    if (W1->size1 != h || W2->size1 != h || W1->size2 != x_i->size || W2->size2 != x_L->size ||
        x_i->size != x_L->size)
        return INVENT_ESHAPE;
    double sum = 0.0;
    for (size_t k = 0; k < h; k++) {
        gsl_vector_const_view a = gsl_matrix_const_row(W1, k);
        gsl_vector_const_view b = gsl_matrix_const_row(W2, k);
        double pre_i, pre_L;
        gsl_blas_ddot(&a.vector, x_i, &pre_i);
        gsl_blas_ddot(&b.vector, x_L, &pre_L);
        sum += gsl_vector_get(v, k) * tanh(pre_i + pre_L);
    }
    *score = sum;
    return INVENT_OK;
    /* END SOLUTION */
}
