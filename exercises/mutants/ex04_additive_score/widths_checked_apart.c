/* Mutant: checks each product's width on its own, so W1 (h, 3) with x_i (3) and W2 (h, 2) with x_L (2) pass. Expect: the score has one width d */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex04_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    size_t h = v->size;
    if (W1->size1 != h || W2->size1 != h || W1->size2 != x_i->size || W2->size2 != x_L->size)
        return INVENT_ESHAPE;
    double sum = 0.0;
    for (size_t k = 0; k < h; k++) {
        gsl_vector_const_view a = gsl_matrix_const_row(W1, k);
        gsl_vector_const_view b = gsl_matrix_const_row(W2, k);
        double pre_i, pre_L;
        gsl_blas_ddot(&a.vector, x_i, &pre_i);
        gsl_blas_ddot(&b.vector, x_L, &pre_L);
        sum += gsl_vector_get(v, k) * tanh(pre_i + pre_L);
    }
    *score = sum;
    return INVENT_OK;
}
