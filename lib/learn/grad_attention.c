#include "grad_attention.h"

#include <gsl/gsl_blas.h>

#include "grad_softmax.h"
#include "status.h"

static int same_shape(const gsl_matrix *A, const gsl_matrix *B)
{
    return A->size1 == B->size1 && A->size2 == B->size2;
}

static int shapes_fit(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                      const gsl_matrix *W, const gsl_matrix *dOut)
{
    return Q->size2 == K->size2 && V->size1 == K->size1 && W->size1 == Q->size1 &&
           W->size2 == K->size1 && dOut->size1 == Q->size1 && dOut->size2 == V->size2;
}

int grad_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                   const gsl_matrix *W, double scale, const gsl_matrix *dOut, gsl_matrix *dQ,
                   gsl_matrix *dK, gsl_matrix *dV)
{
    if (!shapes_fit(Q, K, V, W, dOut) || !same_shape(Q, dQ) || !same_shape(K, dK) ||
        !same_shape(V, dV))
        return INVENT_ESHAPE;
    gsl_matrix *dS = gsl_matrix_alloc(W->size1, W->size2);
    if (!dS)
        return INVENT_ENOMEM;
    /* out = W V: dV = W^T dOut and dW = dOut V^T */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, W, dOut, 0.0, dV);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, dOut, V, 0.0, dS);
    int status = grad_softmax_rows(W, dS, dS);
    /* S = scale Q K^T: dQ = scale dS K and dK = scale dS^T Q */
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, scale, dS, K, 0.0, dQ);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, scale, dS, Q, 0.0, dK);
    gsl_matrix_free(dS);
    return status;
}
