/* Mutant: computes the scores as K Q^T, the transpose. Expect: the scores are transposed */
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
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, scale, K, Q, 0.0, S);
    mask_causal(S);
    int status = softmax_rows(S, 1.0);
    if (status == INVENT_OK)
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, S, V, 0.0, out);
    gsl_matrix_free(S);
    return status;
}
