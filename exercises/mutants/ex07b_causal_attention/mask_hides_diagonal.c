/* Mutant: masks the diagonal too, so position t sees only 0..t-1. Expect: the mask hides the diagonal too */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex07b_causal_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                           double scale, gsl_matrix *out)
{
    size_t T = Q->size1;
    if (K->size1 != T || K->size2 != Q->size2 || V->size1 != T || out->size1 != T ||
        out->size2 != V->size2)
        return INVENT_ESHAPE;
    gsl_matrix *S = gsl_matrix_alloc(T, T);
    if (!S)
        return INVENT_ENOMEM;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, scale, Q, K, 0.0, S);
    for (size_t t = 0; t < T; t++)
        for (size_t i = t; i < T; i++)
            gsl_matrix_set(S, t, i, -INFINITY);
    int status = softmax_rows(S, 1.0);
    if (status == INVENT_OK)
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, S, V, 0.0, out);
    gsl_matrix_free(S);
    return status;
}
