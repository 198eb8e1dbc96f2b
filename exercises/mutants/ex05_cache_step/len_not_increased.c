/* Mutant: stores the key but never adds one to c->len. Expect: add one to c->len */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex05_cache_step(kvcache *c, const gsl_matrix *A, const gsl_vector *x, gsl_vector *s)
{
    size_t d = c->keys->size2;
    if (c->len == c->keys->size1)
        return INVENT_ERANGE;
    if (A->size1 != d || A->size2 != d || x->size != d || s->size != c->len + 1)
        return INVENT_ESHAPE;
    gsl_vector_view key = gsl_matrix_row(c->keys, c->len);
    bilinear_key(A, x, &key.vector);
    gsl_vector_set(s, c->len, 0.0);
    for (size_t i = 0; i <= c->len; i++) {
        gsl_vector_const_view k = gsl_matrix_const_row(c->keys, i);
        double dot;
        gsl_blas_ddot(x, &k.vector, &dot);
        gsl_vector_set(s, i, dot);
    }
    return INVENT_OK;
}
