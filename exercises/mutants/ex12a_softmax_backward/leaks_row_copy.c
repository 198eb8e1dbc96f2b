/* Mutant: copies each row of dW into a vector it never frees. Expect: memory leak */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < W->size1; i++) {
        gsl_vector *dw = gsl_vector_alloc(W->size2);
        gsl_matrix_get_row(dw, dW, i);
        gsl_vector_const_view w = gsl_matrix_const_row(W, i);
        double mean;
        gsl_blas_ddot(dw, &w.vector, &mean);
        for (size_t k = 0; k < W->size2; k++)
            gsl_matrix_set(dS, i, k, gsl_vector_get(&w.vector, k) * (gsl_vector_get(dw, k) - mean));
    }
    return INVENT_OK;
}
