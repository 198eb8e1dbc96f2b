/* Mutant: calls the library's score instead of writing one. Expect: calls attn_additive_score */
#include "exercises.h"

int ex04_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    return attn_additive_score(W1, W2, v, x_i, x_L, score);
}
