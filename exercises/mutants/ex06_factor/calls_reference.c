/* Mutant: calls the library's factoring instead of writing one. Expect: calls factor_svd */
#include "exercises.h"

int ex06_factor(const gsl_matrix *A, gsl_matrix *Wq, gsl_matrix *Wk)
{
    return factor_svd(A, Wq, Wk);
}
