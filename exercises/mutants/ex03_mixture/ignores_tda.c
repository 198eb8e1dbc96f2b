/* Mutant: walks M and V_j through ->data[row * size2 + col], as if rows were size2 apart. Expect: tda */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex03_mixture(const gsl_vector *c, gsl_matrix *const *V, gsl_matrix *M)
{
    for (size_t j = 0; j < c->size; j++)
        if (V[j]->size1 != M->size1 || V[j]->size2 != M->size2)
            return INVENT_ESHAPE;
    gsl_matrix_set_zero(M);
    for (size_t j = 0; j < c->size; j++)
        for (size_t k = 0; k < M->size1 * M->size2; k++)
            M->data[k] += gsl_vector_get(c, j) * V[j]->data[k];
    return INVENT_OK;
}
