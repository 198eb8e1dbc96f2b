/* Mutant: writes dS's row while it still sums the mean, which breaks when dS is dW. Expect: compute the row's weighted mean before writing any entry */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < W->size1; i++) {
        gsl_vector_const_view w = gsl_matrix_const_row(W, i), dw = gsl_matrix_const_row(dW, i);
        gsl_vector_view ds = gsl_matrix_row(dS, i);
        gsl_vector_memcpy(&ds.vector, &dw.vector);
        double mean;
        gsl_blas_ddot(&dw.vector, &w.vector, &mean);
        for (size_t k = 0; k < W->size2; k++) {
            double wk = gsl_vector_get(&w.vector, k);
            gsl_vector_set(&ds.vector, k, wk * (gsl_vector_get(&dw.vector, k) - mean));
            gsl_blas_ddot(&dw.vector, &w.vector, &mean);
        }
    }
    return INVENT_OK;
}
