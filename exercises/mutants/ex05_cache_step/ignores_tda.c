/* Mutant: writes the key at c->keys->data[c->len * d + i], as if rows were d apart. Expect: tda */
#include "exercises.h"

int ex05_cache_step(kvcache *c, const gsl_matrix *A, const gsl_vector *x, gsl_vector *s)
{
    size_t d = c->keys->size2;
    if (c->len == c->keys->size1)
        return INVENT_ERANGE;
    if (A->size1 != d || A->size2 != d || x->size != d || s->size != c->len + 1)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < d; i++) {
        double v = 0.0;
        for (size_t j = 0; j < d; j++)
            v += gsl_matrix_get(A, i, j) * gsl_vector_get(x, j);
        c->keys->data[c->len * d + i] = v;
    }
    c->len++;
    return kvcache_scores(c, x, s);
}
