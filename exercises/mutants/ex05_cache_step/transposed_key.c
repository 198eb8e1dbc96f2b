/* Mutant: caches A^T x instead of the key A x. Expect: the key is A^T x */
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
    gsl_blas_dgemv(CblasTrans, 1.0, A, x, 0.0, &key.vector);
    c->len++;
    return kvcache_scores(c, x, s);
}
