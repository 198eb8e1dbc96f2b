/* Mutant: runs its inner loop to j <= d, one entry past the end of x_i. Expect: GSL: index out of range in gsl_vector_get */
#include <math.h>

#include "exercises.h"

int ex04_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    size_t h = v->size, d = x_i->size;
    if (W1->size1 != h || W2->size1 != h || W1->size2 != d || W2->size2 != x_L->size ||
        x_L->size != d)
        return INVENT_ESHAPE;
    double sum = 0.0;
    for (size_t k = 0; k < h; k++) {
        double pre = 0.0;
        for (size_t j = 0; j <= d; j++) {
            double xi = gsl_vector_get(x_i, j), xL = gsl_vector_get(x_L, j);
            pre += gsl_matrix_get(W1, k, j) * xi + gsl_matrix_get(W2, k, j) * xL;
        }
        sum += gsl_vector_get(v, k) * tanh(pre);
    }
    *score = sum;
    return INVENT_OK;
}
