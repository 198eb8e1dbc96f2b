/* Mutant: calls the library's attention instead of writing it. Expect: calls attn_matrix_form */
#include "exercises.h"

int ex07b_causal_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                           double scale, gsl_matrix *out)
{
    return attn_matrix_form(Q, K, V, scale, ATTN_CAUSAL, out);
}
