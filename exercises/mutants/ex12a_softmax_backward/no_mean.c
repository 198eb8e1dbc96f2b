/* Mutant: multiplies dW by W and forgets the weighted mean. Expect: the weighted mean is missing */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2)
        return INVENT_ESHAPE;
    gsl_matrix_memcpy(dS, dW);
    gsl_matrix_mul_elements(dS, W);
    return INVENT_OK;
}
