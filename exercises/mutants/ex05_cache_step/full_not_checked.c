/* Mutant: never checks for room, so a full cache gets a row past its end. Expect: GSL: row index is out of range in gsl_matrix_row */
#include "exercises.h"

int ex05_cache_step(kvcache *c, const gsl_matrix *A, const gsl_vector *x, gsl_vector *s)
{
    size_t d = c->keys->size2;
    if (A->size1 != d || A->size2 != d || x->size != d || s->size != c->len + 1)
        return INVENT_ESHAPE;
    gsl_vector_view key = gsl_matrix_row(c->keys, c->len);
    bilinear_key(A, x, &key.vector);
    c->len++;
    return kvcache_scores(c, x, s);
}
