/* Mutant: reads value i from row i of W2 instead of its column i. Expect: GSL: invalid length in gsl_blas_daxpy */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex09_memory_read(const mlp_weights *w, const gsl_vector *x, gsl_vector *y)
{
    size_t m = w->W1->size1, d = w->W1->size2;
    if (x->size != d || y->size != d || w->W2->size1 != d || w->W2->size2 != m)
        return INVENT_ESHAPE;
    gsl_vector_memcpy(y, w->b2);
    for (size_t i = 0; i < m && i < d; i++) {
        gsl_vector_const_view key = gsl_matrix_const_row(w->W1, i);
        gsl_vector_const_view value = gsl_matrix_const_row(w->W2, i);
        double match;
        gsl_blas_ddot(&key.vector, x, &match);
        gsl_blas_daxpy(mlp_activate(w->f, match + gsl_vector_get(w->b1, i)), &value.vector, y);
    }
    return INVENT_OK;
}
