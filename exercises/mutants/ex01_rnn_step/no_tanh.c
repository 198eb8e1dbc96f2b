/* Mutant: leaves tanh out, as if every cell were linear. Expect: tanh is missing */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex01_rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next)
{
    size_t m = c->W->size1;
    if (h->size != m || h_next->size != m || x->size != c->U->size2 || h == h_next)
        return INVENT_ESHAPE;
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->W, h, 0.0, h_next);
    gsl_blas_dgemv(CblasNoTrans, 1.0, c->U, x, 1.0, h_next);
    return INVENT_OK;
}
