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

static int backward_shapes_fit(const gsl_matrix *X, const gsl_matrix *W, const gsl_matrix *dY,
                               const gsl_matrix *dX, const gsl_matrix *dW, const gsl_vector *db)
{
    return X->size2 == W->size2 && dY->size1 == X->size1 && dY->size2 == W->size1 &&
           (!dX || (dX->size1 == X->size1 && dX->size2 == X->size2)) &&
           (!dW || (dW->size1 == W->size1 && dW->size2 == W->size2)) &&
           (!db || db->size == W->size1);
}

int linear_backward(const gsl_matrix *X, const gsl_matrix *W, const gsl_matrix *dY,
                    gsl_matrix *dX, gsl_matrix *dW, gsl_vector *db)
{
    if (!backward_shapes_fit(X, W, dY, dX, dW, db))
        return INVENT_ESHAPE;
    if (dX) /* Y_ij = sum_k X_ik W_jk: each input entry reaches every output through W */
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, dY, W, 1.0, dX);
    if (dW)
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, dY, X, 1.0, dW);
    for (size_t i = 0; db && i < dY->size1; i++) { /* b is added to every row */
        gsl_vector_const_view row = gsl_matrix_const_row(dY, i);
        gsl_vector_add(db, &row.vector);
    }
    return INVENT_OK;
}
