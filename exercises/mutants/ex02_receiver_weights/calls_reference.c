/* Mutant: calls the library's generator instead of writing one. Expect: calls dw_weights */
#include "exercises.h"

int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W)
{
    dw_work *w = dw_work_new(S->size1, S->size2, a->W1->size1);
    int status = w ? dw_weights(a, DW_SOURCE_AND_RECEIVER, S, R, w, W) : INVENT_ENOMEM;
    dw_work_free(w);
    return status;
}
