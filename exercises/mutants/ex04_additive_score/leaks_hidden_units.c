/* Mutant: keeps the hidden units in a vector it never frees. Expect: memory leak */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex04_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    size_t h = v->size;
    if (W1->size1 != h || W2->size1 != h || W1->size2 != x_i->size || W2->size2 != x_L->size ||
        x_i->size != x_L->size)
        return INVENT_ESHAPE;
    gsl_vector *z = gsl_vector_alloc(h);
    gsl_blas_dgemv(CblasNoTrans, 1.0, W1, x_i, 0.0, z);
    gsl_blas_dgemv(CblasNoTrans, 1.0, W2, x_L, 1.0, z);
    double sum = 0.0;
    for (size_t k = 0; k < h; k++)
        sum += gsl_vector_get(v, k) * tanh(gsl_vector_get(z, k));
    *score = sum;
    return INVENT_OK;
}
