/* Decoding one token at a time: each new token is scored against a cache of
 * what was kept for every earlier token (and itself), in three forms. Each
 * keeps a tally as it runs, adding the size of every product its loops
 * perform: bookkeeping of the loops that ran (how many products of which
 * size), not a count of machine instructions, so that the forms' costs come
 * from what runs rather than from a formula:
 *   bilinear  one (d, d) matrix A: keys A x_i cached, d numbers a token;
 *   factored  W_q, W_k of shape (r, d): keys W_k x_i cached, r numbers;
 *   shared    H free matrices A_j and one cache of the raw tokens x_i for all
 *             of them: the query A_j^T x_t gives (A_j^T x_t) . x_i =
 *             x_t^T A_j x_i, d numbers a token whatever H is;
 *   recomputed  the same cache of raw tokens, each key A_j x_i computed again
 *             for every new token: the same scores for far more work. */
#ifndef INVENT_DECODE_H
#define INVENT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "kvcache.h"

/* What one decode's loops performed, tallied as they ran. */
typedef struct {
    uint64_t scores; /* query . key dot products */
    uint64_t proj;   /* multiply-adds that made queries and keys */
    uint64_t pair;   /* multiply-adds of the dot products */
    uint64_t cached; /* numbers held in the cache after the last token */
} decode_count;

/* What a decode works in, made once by the caller: the cache its loops fill
 * and one key and one query, all of the cached width (d for A x_i and for raw
 * tokens, r for W_k x_i). Each decode empties the cache first. */
typedef struct {
    kvcache *cache;    /* (capacity, width) */
    gsl_vector *key;   /* (width) */
    gsl_vector *query; /* (width) */
} decode_work;

/* capacity, width >= 1 -> the workspace of decodes of up to capacity tokens
 * whose cached vectors hold width numbers, or NULL (no memory, a size of 0) */
decode_work *decode_work_new(size_t capacity, size_t width);
void decode_work_free(decode_work *w);

/* X: (T, d), A: (d, d), w: width d -> S: (T, T), S[t][i] = x_t . (A x_i) for
 * i <= t and 0 above the diagonal, from a cache of keys A x_i; *n: what it took */
int decode_bilinear(const gsl_matrix *X, const gsl_matrix *A, decode_work *w, gsl_matrix *S,
                    decode_count *n);

/* X: (T, d), W_q, W_k: (r, d), w: width r -> S: (T, T), S[t][i] = (W_q x_t) .
 * (W_k x_i) for i <= t, 0 above, from a cache of keys W_k x_i; *n: what it took */
int decode_factored(const gsl_matrix *X, const gsl_matrix *Wq, const gsl_matrix *Wk,
                    decode_work *w, gsl_matrix *S, decode_count *n);

/* X: (T, d), A[0..H-1]: (d, d), w: width d -> S[j]: (T, T), S[j][t][i] =
 * (A_j^T x_t) . x_i for i <= t, 0 above, from one cache of the raw tokens
 * shared by all H functions; *n: what it took, all functions together */
int decode_shared(const gsl_matrix *X, const gsl_matrix *const *A, size_t H, decode_work *w,
                  gsl_matrix *const *S, decode_count *n);

/* X: (T, d), A[0..H-1]: (d, d), w: width d -> S[j] as decode_shared, from one
 * cache of the raw tokens, but with each key A_j x_i recomputed from its raw
 * token for every new token instead of A_j moved into the query: token t costs
 * (t + 1) (d^2 + d) per function; *n: what it took */
int decode_recomputed(const gsl_matrix *X, const gsl_matrix *const *A, size_t H,
                      decode_work *w, gsl_matrix *const *S, decode_count *n);

#endif
