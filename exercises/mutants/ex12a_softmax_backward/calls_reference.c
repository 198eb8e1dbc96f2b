/* Mutant: calls the library's backward pass instead of writing it. Expect: calls softmax_rows_backward */
#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    return softmax_rows_backward(W, dW, dS);
}
