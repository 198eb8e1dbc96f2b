/* The key cache: when tokens arrive one at a time, every past token's key
 * (A x_i for a bilinear score, W_k x_i for a factored one) is computed once,
 * kept, and scored against each later query. Also the accounting: how many
 * bytes such a cache takes and what scoring costs, counted exactly in 64 bits
 * (count.h), so that a model-sized sum cannot silently wrap around. */
#ifndef INVENT_KVCACHE_H
#define INVENT_KVCACHE_H

#include <stdint.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

typedef struct {
    gsl_matrix *keys; /* (capacity, width): row i holds the key of token i */
    size_t len;       /* how many tokens are cached so far */
} kvcache;

/* capacity, width >= 1 -> an empty cache, or NULL when out of memory or a size is 0 */
kvcache *kvcache_new(size_t capacity, size_t width);

/* c: a cache from kvcache_new, or NULL -> released */
void kvcache_free(kvcache *c);

/* key: (width) -> copied into row len, len grows by one; INVENT_ERANGE when full */
int kvcache_append(kvcache *c, const gsl_vector *key);

/* query: (width), s: (len) -> s_i = query . key_i for every cached token i */
int kvcache_scores(const kvcache *c, const gsl_vector *query, gsl_vector *s);

/* What one model caches: per token, per layer, per score function, one
 * vector of `width` numbers of `bytes_each` bytes. */
typedef struct {
    uint64_t tokens, layers, funcs, width, bytes_each;
} kvcache_shape;

/* shape -> *bytes = tokens * layers * funcs * width * bytes_each;
 * INVENT_EOVERFLOW (and *bytes untouched) when it exceeds 2^64 - 1 */
int kvcache_bytes(const kvcache_shape *shape, uint64_t *bytes);

/* The cost of scoring T tokens causally, one at a time (token t against the
 * t + 1 cached keys 0..t, so T (T + 1) / 2 dot products in all). */
typedef struct {
    uint64_t madds;  /* multiply-adds: projections plus dot products */
    uint64_t cached; /* numbers held in the cache after the last token */
} kvcache_cost;

/* T tokens of size d, one (d, d) matrix A, caching A x_i (width d) -> *cost:
 * madds = T d^2 + d T(T+1)/2, cached = T d; INVENT_EOVERFLOW past 2^64 - 1 */
int kvcache_cost_bilinear(uint64_t T, uint64_t d, kvcache_cost *cost);

/* T tokens of size d, W_q and W_k of shape (r, d), caching W_k x_i (width r)
 * -> *cost: madds = 2 T r d + r T(T+1)/2, cached = T r; INVENT_EOVERFLOW */
int kvcache_cost_factored(uint64_t T, uint64_t d, uint64_t r, kvcache_cost *cost);

#endif
