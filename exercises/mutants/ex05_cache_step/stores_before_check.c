/* Mutant: stores the key before checking s, so a refused step has changed the cache. Expect: after refused steps */
#include "exercises.h"

int ex05_cache_step(kvcache *c, const gsl_matrix *A, const gsl_vector *x, gsl_vector *s)
{
    size_t d = c->keys->size2;
    if (c->len == c->keys->size1)
        return INVENT_ERANGE;
    if (A->size1 != d || A->size2 != d || x->size != d)
        return INVENT_ESHAPE;
    gsl_vector_view key = gsl_matrix_row(c->keys, c->len);
    bilinear_key(A, x, &key.vector);
    if (s->size != c->len + 1)
        return INVENT_ESHAPE;
    c->len++;
    return kvcache_scores(c, x, s);
}
