/* Mutant: adds each value into y->data[k], as if y's stride were 1. Expect: stride */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex09_memory_read(const mlp_weights *w, const gsl_vector *x, gsl_vector *y)
{
    size_t m = w->W1->size1, d = w->W1->size2;
    if (x->size != d || y->size != d || w->W2->size1 != d || w->W2->size2 != m)
        return INVENT_ESHAPE;
    for (size_t k = 0; k < d; k++)
        y->data[k] = gsl_vector_get(w->b2, k);
    for (size_t i = 0; i < m; i++) {
        gsl_vector_const_view key = gsl_matrix_const_row(w->W1, i);
        double match;
        gsl_blas_ddot(&key.vector, x, &match);
        double a = mlp_activate(w->f, match + gsl_vector_get(w->b1, i));
        for (size_t k = 0; k < d; k++)
            y->data[k] += a * gsl_matrix_get(w->W2, k, i);
    }
    return INVENT_OK;
}
