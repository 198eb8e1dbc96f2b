/* Mutant: copies the rows into scratch vectors and returns a score's error without freeing them. Expect: memory leak */
#include "exercises.h"

int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W)
{
    size_t T = S->size1;
    if (R->size1 != T || R->size2 != S->size2 || W->size1 != T || W->size2 != T)
        return INVENT_ESHAPE;
    gsl_vector *s = gsl_vector_alloc(S->size2), *r = gsl_vector_alloc(S->size2);
    for (size_t j = 0; j < T; j++)
        for (size_t i = 0; i < T; i++) {
            gsl_matrix_get_row(s, S, i);
            gsl_matrix_get_row(r, R, j);
            double w;
            int status = attn_additive_score(a->W1, a->W2, a->v, s, r, &w);
            if (status != INVENT_OK)
                return status;
            gsl_matrix_set(W, j, i, w);
        }
    gsl_vector_free(s);
    gsl_vector_free(r);
    return INVENT_OK;
}
