#include "bilinear.h"

#include <gsl/gsl_blas.h>

#include "status.h"

int bilinear_score(const gsl_vector *x_L, const gsl_matrix *A, const gsl_vector *x_i,
                   double *s)
{
    if (A->size1 != x_L->size || A->size2 != x_i->size)
        return INVENT_ESHAPE;
    gsl_vector *key = gsl_vector_alloc(A->size1);
    if (!key)
        return INVENT_ENOMEM;
    gsl_blas_dgemv(CblasNoTrans, 1.0, A, x_i, 0.0, key);
    gsl_blas_ddot(x_L, key, s);
    gsl_vector_free(key);
    return INVENT_OK;
}

int bilinear_scores(const gsl_matrix *X, const gsl_matrix *A, gsl_matrix *S)
{
    return bilinear_cross_scores(X, X, A, S);
}

int bilinear_cross_scores(const gsl_matrix *Y, const gsl_matrix *X, const gsl_matrix *A,
                          gsl_matrix *S)
{
    size_t Tq = Y->size1, Tk = X->size1;
    if (A->size1 != Y->size2 || A->size2 != X->size2 || S->size1 != Tq || S->size2 != Tk)
        return INVENT_ESHAPE;
    gsl_matrix *YA = gsl_matrix_alloc(Tq, A->size2);
    if (!YA)
        return INVENT_ENOMEM;
    /* row t of Y A is y_t^T A; its dot product with x_i is the score */
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Y, A, 0.0, YA);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, YA, X, 0.0, S);
    gsl_matrix_free(YA);
    return INVENT_OK;
}

int bilinear_key(const gsl_matrix *A, const gsl_vector *x_i, gsl_vector *key)
{
    if (A->size2 != x_i->size || A->size1 != key->size)
        return INVENT_ESHAPE;
    gsl_blas_dgemv(CblasNoTrans, 1.0, A, x_i, 0.0, key);
    return INVENT_OK;
}
