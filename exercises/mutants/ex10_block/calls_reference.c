/* Mutant: calls the library's block instead of wiring it. Expect: calls block_forward */
#include "exercises.h"

int ex10_block(const block_weights *w, const gsl_matrix *X, gsl_matrix *Y)
{
    block_trace *tr = block_trace_new(X->size1, w);
    int status = tr ? block_forward(w, X, tr, Y) : INVENT_ENOMEM;
    block_trace_free(tr);
    return status;
}
