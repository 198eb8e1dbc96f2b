/* Mutant: calls the library's step instead of writing one. Expect: calls rnn_step */
#include "exercises.h"

int ex01_rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next)
{
    return rnn_step(c, h, x, h_next);
}
