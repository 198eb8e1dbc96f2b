/* Mutant: calls the library's backward pass instead of writing it. Expect: calls grad_softmax_rows */
#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    return grad_softmax_rows(W, dW, dS);
}
