#include "grad_linear.h"

#include <gsl/gsl_blas.h>

#include "status.h"

static int shapes_fit(const gsl_matrix *X, const gsl_matrix *W, const gsl_matrix *dY,
                      const gsl_matrix *dW, const gsl_vector *db, const gsl_matrix *dX)
{
    return X->size2 == W->size2 && dY->size1 == X->size1 && dY->size2 == W->size1 &&
           (!dW || (dW->size1 == W->size1 && dW->size2 == W->size2)) &&
           (!db || db->size == W->size1) &&
           (!dX || (dX->size1 == X->size1 && dX->size2 == X->size2));
}

int grad_linear(const gsl_matrix *X, const gsl_matrix *W, const gsl_matrix *dY, gsl_matrix *dW,
                gsl_vector *db, gsl_matrix *dX)
{
    if (!shapes_fit(X, W, dY, dW, db, dX))
        return INVENT_ESHAPE;
    if (dW)
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, dY, X, 1.0, dW);
    for (size_t i = 0; db && i < dY->size1; i++) {
        gsl_vector_const_view row = gsl_matrix_const_row(dY, i);
        gsl_vector_add(db, &row.vector);
    }
    if (dX)
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, dY, W, 0.0, dX);
    return INVENT_OK;
}
