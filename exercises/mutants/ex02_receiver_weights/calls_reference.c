/* Mutant: calls the library's generator instead of writing one. Expect: calls dw_weights */
#include "exercises.h"

int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W)
{
    return dw_weights(a, DW_SOURCE_AND_RECEIVER, S, R, W);
}
