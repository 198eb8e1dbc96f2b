#include "linear.h"

#include <gsl/gsl_blas.h>

#include "status.h"

int linear_forward(const gsl_matrix *X, const gsl_matrix *W, const gsl_vector *b, gsl_matrix *Y)
{
    if (X->size2 != W->size2 || Y->size1 != X->size1 || Y->size2 != W->size1 ||
        (b && b->size != W->size1))
        return INVENT_ESHAPE;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, W, 0.0, Y);
    for (size_t i = 0; b && i < Y->size1; i++) {
        gsl_vector_view row = gsl_matrix_row(Y, i);
        gsl_vector_add(&row.vector, b);
    }
    return INVENT_OK;
}
