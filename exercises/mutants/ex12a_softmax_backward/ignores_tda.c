/* Mutant: reads dW through dW->data[i * W->size2 + k], as if its rows were size2 apart. Expect: but its rows lie tda apart */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < W->size1; i++) {
        double mean = 0.0;
        for (size_t k = 0; k < W->size2; k++)
            mean += dW->data[i * W->size2 + k] * gsl_matrix_get(W, i, k);
        for (size_t k = 0; k < W->size2; k++)
            gsl_matrix_set(dS, i, k, gsl_matrix_get(W, i, k) * (dW->data[i * W->size2 + k] - mean));
    }
    return INVENT_OK;
}
