/* Mutant: calls the library's multi-head attention instead of writing it. Expect: calls mha_forward */
#include "exercises.h"

int ex08_multihead(const mha_weights *w, const gsl_matrix *X, attn_mask mask, gsl_matrix *out)
{
    return mha_forward(w, X, mask, NULL, out);
}
