/* Mutant: adds the mixture onto whatever M held, without clearing it first. Expect: you added the mixture onto what M held */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex03_mixture(const gsl_vector *c, gsl_matrix *const *V, gsl_matrix *M)
{
    for (size_t j = 0; j < c->size; j++)
        if (V[j]->size1 != M->size1 || V[j]->size2 != M->size2)
            return INVENT_ESHAPE;
    for (size_t j = 0; j < c->size; j++)
        for (size_t row = 0; row < M->size1; row++) {
            gsl_vector_const_view from = gsl_matrix_const_row(V[j], row);
            gsl_vector_view to = gsl_matrix_row(M, row);
            gsl_blas_daxpy(gsl_vector_get(c, j), &from.vector, &to.vector);
        }
    return INVENT_OK;
}
