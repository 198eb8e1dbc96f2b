/* Mutant: ignores the status of attn_additive_score, so a score of the wrong width passes. Expect: return the status attn_additive_score gives you */
#include "exercises.h"

int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W)
{
    size_t T = S->size1;
    if (R->size1 != T || R->size2 != S->size2 || W->size1 != T || W->size2 != T)
        return INVENT_ESHAPE;
    for (size_t j = 0; j < T; j++)
        for (size_t i = 0; i < T; i++) {
            gsl_vector_const_view s = gsl_matrix_const_row(S, i);
            gsl_vector_const_view r = gsl_matrix_const_row(R, j);
            double w = 0.0;
            attn_additive_score(a->W1, a->W2, a->v, &s.vector, &r.vector, &w);
            gsl_matrix_set(W, j, i, w);
        }
    return INVENT_OK;
}
