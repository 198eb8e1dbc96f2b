/* Mutant: calls the library's attention instead of writing it. Expect: calls attn_forward */
#include "exercises.h"

int ex07b_causal_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                           double scale, gsl_matrix *out)
{
    gsl_matrix *W = gsl_matrix_alloc(Q->size1, K->size1);
    int status = attn_forward(Q, K, V, scale, ATTN_CAUSAL, W, out);
    gsl_matrix_free(W);
    return status;
}
