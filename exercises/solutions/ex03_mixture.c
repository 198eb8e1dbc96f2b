/* Exercise 3 (chapter 3): a dynamic weight as a mixture of a few static ones.
 *
 * A fully dynamic d x d weight needs d^2 scalar functions. Keeping H learned
 * matrices V_1 .. V_H fixed and generating only their H coefficients gives
 *
 *     M = sum_j c_j V_j             c: (H) from the score functions
 *
 * With V_k the one-hot matrix E_k (a single 1 at (k, k)) and H = d this is
 * exactly the diagonal weight diag(c) (claim F2).
 *
 * Contract of ex03_mixture(c, V, M):
 *   - c: (H), V: an array of H matrices, each (d, d'); M: (d, d') receives
 *     sum_j c_j V_j (M's old contents do not matter) and INVENT_OK is returned;
 *   - returns INVENT_ESHAPE, leaving M untouched, when some V_j is not of M's shape.
 *   - the V_j and M may be views whose rows lie further apart than their
 *     width (a tda), c a view with a stride.
 * Use gsl_matrix_set_zero and one BLAS call per V_j (gsl_blas_daxpy on a
 * row view, or gsl_matrix_scale/add on a copy) rather than loops over entries.
 * Write it yourself: the grade refuses calls to dw_mixture, dw_diagonal and
 * dw_onehot_sum.
 * Grade: make exercise3   Hints: make hint 3 (then LEVEL=2, LEVEL=3) */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex03_mixture(const gsl_vector *c, gsl_matrix *const *V, gsl_matrix *M)
{
    /* BEGIN SOLUTION */
    /* stub: (void)c; (void)V; (void)M; */
    /* stub: return INVENT_OK; */
    for (size_t j = 0; j < c->size; j++)
        if (V[j]->size1 != M->size1 || V[j]->size2 != M->size2)
            return INVENT_ESHAPE;
    gsl_matrix_set_zero(M);
    for (size_t j = 0; j < c->size; j++)
        for (size_t row = 0; row < M->size1; row++) {
            gsl_vector_const_view from = gsl_matrix_const_row(V[j], row);
            gsl_vector_view to = gsl_matrix_row(M, row);
            gsl_blas_daxpy(gsl_vector_get(c, j), &from.vector, &to.vector);
        }
    return INVENT_OK;
    /* END SOLUTION */
}
