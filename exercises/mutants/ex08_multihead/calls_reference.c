/* Mutant: calls the library's multi-head attention instead of writing it. Expect: calls mha_forward */
#include "exercises.h"

int ex08_multihead(const mha_weights *w, const gsl_matrix *X, attn_mask mask, gsl_matrix *out)
{
    mha_trace *tr = mha_trace_new(X->size1, w);
    int status = tr ? mha_forward(w, X, mask, tr, out) : INVENT_ENOMEM;
    mha_trace_free(tr);
    return status;
}
