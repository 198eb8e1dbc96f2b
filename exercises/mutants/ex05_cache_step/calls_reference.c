/* Mutant: scores the new token against itself with bilinear_score, the function graded against. Expect: calls bilinear_score */
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
    c->len++;
    int status = kvcache_scores(c, x, s);
    double own;
    if (status == INVENT_OK && bilinear_score(x, A, x, &own) == INVENT_OK)
        gsl_vector_set(s, c->len - 1, own);
    return status;
}
