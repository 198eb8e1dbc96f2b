/* Mutant: reads x_i->data[j] and x_L->data[j], as if their stride were 1. Expect: as if their stride were 1 */
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
    double sum = 0.0;
    for (size_t k = 0; k < h; k++) {
        double pre = 0.0;
        for (size_t j = 0; j < x_i->size; j++)
            pre += gsl_matrix_get(W1, k, j) * x_i->data[j] + gsl_matrix_get(W2, k, j) * x_L->data[j];
        sum += gsl_vector_get(v, k) * tanh(pre);
    }
    *score = sum;
    return INVENT_OK;
}
