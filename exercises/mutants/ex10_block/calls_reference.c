/* Mutant: calls the library's block instead of wiring it. Expect: calls block_forward */
#include "exercises.h"

int ex10_block(const block_weights *w, const gsl_matrix *X, gsl_matrix *Y)
{
    return block_forward(w, X, NULL, Y);
}
