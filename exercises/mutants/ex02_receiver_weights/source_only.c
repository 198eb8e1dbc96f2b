/* Mutant: scores every source against a zero receiver, the symmetric generator of claim D1. Expect: the receiver's input is left out */
#include "exercises.h"

int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W)
{
    size_t T = S->size1;
    if (R->size1 != T || R->size2 != S->size2 || W->size1 != T || W->size2 != T)
        return INVENT_ESHAPE;
    gsl_vector *zero = gsl_vector_calloc(S->size2);
    int status = zero ? INVENT_OK : INVENT_ENOMEM;
    for (size_t j = 0; j < T && status == INVENT_OK; j++)
        for (size_t i = 0; i < T && status == INVENT_OK; i++) {
            gsl_vector_const_view s = gsl_matrix_const_row(S, i);
            double w = 0.0;
            status = attn_additive_score(a->W1, a->W2, a->v, &s.vector, zero, &w);
            gsl_matrix_set(W, j, i, w);
        }
    gsl_vector_free(zero);
    return status;
}
