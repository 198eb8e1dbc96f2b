/* Mutant: keeps the score matrix in a static variable from call to call and never frees it. Expect: kept from one call to the next */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex07b_causal_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                           double scale, gsl_matrix *out)
{
    size_t T = Q->size1;
    if (K->size1 != T || K->size2 != Q->size2 || V->size1 != T || out->size1 != T ||
        out->size2 != V->size2)
        return INVENT_ESHAPE;
    static gsl_matrix *S;
    if (!S || S->size1 != T)
        S = gsl_matrix_alloc(T, T);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, scale, Q, K, 0.0, S);
    mask_causal(S);
    int status = softmax_rows(S, 1.0);
    if (status == INVENT_OK)
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, S, V, 0.0, out);
    return status;
}
