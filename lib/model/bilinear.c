#include "bilinear.h"

#include <gsl/gsl_blas.h>

#include "status.h"

int bilinear_score(const gsl_vector *x_L, const gsl_matrix *A, const gsl_vector *x_i,
                   double *s)
{
    if (A->size1 != x_L->size || A->size2 != x_i->size)
        return INVENT_ESHAPE;
    /* x_L . (A x_i), one entry of the key A x_i at a time: nothing to keep */
    double sum = 0.0;
    for (size_t j = 0; j < A->size1; j++) {
        gsl_vector_const_view row = gsl_matrix_const_row(A, j);
        double key_j;
        gsl_blas_ddot(&row.vector, x_i, &key_j);
        sum += gsl_vector_get(x_L, j) * key_j;
    }
    *s = sum;
    return INVENT_OK;
}

int bilinear_scores(const gsl_matrix *X, const gsl_matrix *A, gsl_matrix *keys, gsl_matrix *S)
{
    return bilinear_cross_scores(X, X, A, keys, S);
}

int bilinear_cross_scores(const gsl_matrix *Y, const gsl_matrix *X, const gsl_matrix *A,
                          gsl_matrix *keys, gsl_matrix *S)
{
    size_t Tq = Y->size1, Tk = X->size1;
    if (A->size1 != Y->size2 || A->size2 != X->size2 || S->size1 != Tq || S->size2 != Tk ||
        keys->size1 != Tk || keys->size2 != A->size1)
        return INVENT_ESHAPE;
    /* row i of X A^T is the key A x_i; its dot product with y_t is the score */
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, A, 0.0, keys);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, Y, keys, 0.0, S);
    return INVENT_OK;
}

int bilinear_key(const gsl_matrix *A, const gsl_vector *x_i, gsl_vector *key)
{
    if (A->size2 != x_i->size || A->size1 != key->size)
        return INVENT_ESHAPE;
    gsl_blas_dgemv(CblasNoTrans, 1.0, A, x_i, 0.0, key);
    return INVENT_OK;
}
