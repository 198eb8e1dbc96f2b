#include "grad_softmax.h"

#include "status.h"

int grad_softmax_rows(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < W->size1; i++) {
        double mean = 0.0; /* the weighted mean of the row's incoming gradient */
        for (size_t k = 0; k < W->size2; k++)
            mean += gsl_matrix_get(dW, i, k) * gsl_matrix_get(W, i, k);
        for (size_t k = 0; k < W->size2; k++) {
            double w = gsl_matrix_get(W, i, k);
            gsl_matrix_set(dS, i, k, w * (gsl_matrix_get(dW, i, k) - mean));
        }
    }
    return INVENT_OK;
}
