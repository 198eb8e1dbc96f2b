#include "kvcache.h"

#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "count.h"
#include "status.h"

kvcache *kvcache_new(size_t capacity, size_t width)
{
    if (capacity == 0 || width == 0)
        return NULL;
    kvcache *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->keys = gsl_matrix_alloc(capacity, width);
    c->len = 0;
    if (!c->keys) {
        free(c);
        return NULL;
    }
    return c;
}

void kvcache_free(kvcache *c)
{
    if (!c)
        return;
    gsl_matrix_free(c->keys);
    free(c);
}

int kvcache_append(kvcache *c, const gsl_vector *key)
{
    if (key->size != c->keys->size2)
        return INVENT_ESHAPE;
    if (c->len == c->keys->size1)
        return INVENT_ERANGE;
    gsl_matrix_set_row(c->keys, c->len++, key);
    return INVENT_OK;
}

int kvcache_scores(const kvcache *c, const gsl_vector *query, gsl_vector *s)
{
    if (query->size != c->keys->size2 || s->size != c->len || c->len == 0)
        return INVENT_ESHAPE;
    gsl_matrix_const_view seen = gsl_matrix_const_submatrix(c->keys, 0, 0, c->len, c->keys->size2);
    gsl_blas_dgemv(CblasNoTrans, 1.0, &seen.matrix, query, 0.0, s);
    return INVENT_OK;
}

int kvcache_bytes(const kvcache_shape *shape, uint64_t *bytes)
{
    const uint64_t f[] = {shape->tokens, shape->layers, shape->funcs, shape->width,
                          shape->bytes_each};
    return count_product(f, 5, bytes);
}

/* T tokens, proj multiply-adds per token to make its query and key, keys of
 * `width` numbers -> cost of scoring all T(T+1)/2 causal pairs */
static int causal_cost(uint64_t T, uint64_t proj, uint64_t width, kvcache_cost *cost)
{
    /* T (T + 1) / 2 without overflowing first: halve the even factor
     * ((T + 1) / 2 = T / 2 + 1 when T is odd, and cannot overflow) */
    uint64_t pairs, dots, projections;
    int bad = T % 2 == 0 ? count_mul(T / 2, T + 1, &pairs) : count_mul(T, T / 2 + 1, &pairs);
    bad = bad || count_mul(pairs, width, &dots) || count_mul(T, proj, &projections);
    kvcache_cost c;
    bad = bad || count_add(projections, dots, &c.madds) || count_mul(T, width, &c.cached);
    if (bad)
        return INVENT_EOVERFLOW;
    *cost = c;
    return INVENT_OK;
}

int kvcache_cost_bilinear(uint64_t T, uint64_t d, kvcache_cost *cost)
{
    uint64_t proj;
    if (count_mul(d, d, &proj))
        return INVENT_EOVERFLOW;
    return causal_cost(T, proj, d, cost);
}

int kvcache_cost_factored(uint64_t T, uint64_t d, uint64_t r, kvcache_cost *cost)
{
    const uint64_t f[] = {2, r, d};
    uint64_t proj;
    if (count_product(f, 3, &proj))
        return INVENT_EOVERFLOW;
    return causal_cost(T, proj, r, cost);
}
