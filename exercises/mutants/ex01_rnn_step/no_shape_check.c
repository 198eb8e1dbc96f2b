/* Mutant: checks no size and lets gsl_blas_dgemv meet the mismatch. Expect: GSL: invalid length in gsl_blas_dgemv */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex01_rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next)
{
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->W, h, 0.0, h_next);
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->U, x, 1.0, h_next);
    if (c->activation == RNN_TANH)
        for (size_t i = 0; i < h_next->size; i++)
            gsl_vector_set(h_next, i, tanh(gsl_vector_get(h_next, i)));
    return INVENT_OK;
}
