/* Mutant: calls the library's mixture instead of writing one. Expect: calls dw_mixture */
#include "exercises.h"

int ex03_mixture(const gsl_vector *c, gsl_matrix *const *V, gsl_matrix *M)
{
    return dw_mixture(c, V, M);
}
