#include "decode.h"

#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "status.h"

decode_work *decode_work_new(size_t capacity, size_t width)
{
    decode_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->cache = kvcache_new(capacity, width);
    w->key = width ? gsl_vector_alloc(width) : NULL;
    w->query = width ? gsl_vector_alloc(width) : NULL;
    if (!w->cache || !w->key || !w->query) {
        decode_work_free(w);
        return NULL;
    }
    return w;
}

void decode_work_free(decode_work *w)
{
    if (!w)
        return;
    kvcache_free(w->cache);
    gsl_vector_free(w->key);
    gsl_vector_free(w->query);
    free(w);
}

/* What is made from each token: op(M) x, or x itself when M is NULL. */
typedef struct {
    const gsl_matrix *M;
    CBLAS_TRANSPOSE_t op;
} token_map;

/* H query maps: op(M[j]) x for function j, or x itself for each when M is NULL */
typedef struct {
    const gsl_matrix *const *M;
    CBLAS_TRANSPOSE_t op;
    size_t H;
} query_maps;

static token_map query_map(query_maps q, size_t j)
{
    return (token_map){q.M ? q.M[j] : NULL, q.op};
}

/* f, tokens of size d -> the size of what f makes from a token, or 0 when
 * f cannot take a token of size d */
static size_t map_width(token_map f, size_t d)
{
    if (!f.M)
        return d;
    size_t in = f.op == CblasNoTrans ? f.M->size2 : f.M->size1;
    return in == d ? (f.op == CblasNoTrans ? f.M->size1 : f.M->size2) : 0;
}

/* x: (d) -> y = op(M) x, its multiply-adds added to *madds */
static void map_apply(token_map f, const gsl_vector *x, gsl_vector *y, uint64_t *madds)
{
    if (!f.M) {
        gsl_vector_memcpy(y, x);
        return;
    }
    gsl_blas_dgemv(f.op, 1.0, f.M, x, 0.0, y);
    *madds += (uint64_t)f.M->size1 * f.M->size2;
}

/* w: a workspace, T tokens of vectors of width -> whether it holds them */
static int work_fits(const decode_work *w, size_t T, size_t width)
{
    return w->cache->keys->size1 >= T && w->cache->keys->size2 == width &&
           w->key->size == width && w->query->size == width;
}

/* X: (T, d), S[0..H-1] -> whether every S[j] is (T, T); then zeroed, with the
 * cache emptied and the tally cleared */
static int start(const gsl_matrix *X, size_t H, decode_work *w, gsl_matrix *const *S,
                 decode_count *n)
{
    for (size_t j = 0; j < H; j++)
        if (S[j]->size1 != X->size1 || S[j]->size2 != X->size1)
            return 0;
    for (size_t j = 0; j < H; j++)
        gsl_matrix_set_zero(S[j]);
    w->cache->len = 0;
    *n = (decode_count){0, 0, 0, 0};
    return 1;
}

/* X: (T, d), one key map, the query maps -> S[j]: (T, T), row t holds query j
 * of token t against the cached keys of tokens 0..t, zero above */
static int run(const gsl_matrix *X, token_map key, query_maps query, decode_work *w,
               gsl_matrix *const *S, decode_count *n)
{
    size_t T = X->size1, d = X->size2, width = map_width(key, d);
    if (width == 0 || query.H == 0 || !work_fits(w, T, width))
        return INVENT_ESHAPE;
    for (size_t j = 0; j < query.H; j++)
        if (map_width(query_map(query, j), d) != width)
            return INVENT_ESHAPE;
    if (!start(X, query.H, w, S, n))
        return INVENT_ESHAPE;
    int status = INVENT_OK;
    for (size_t t = 0; t < T && status == INVENT_OK; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        map_apply(key, &x.vector, w->key, &n->proj);
        status = kvcache_append(w->cache, w->key); /* the only thing token t leaves behind */
        for (size_t j = 0; j < query.H && status == INVENT_OK; j++) {
            gsl_vector_view row = gsl_matrix_subrow(S[j], t, 0, t + 1);
            map_apply(query_map(query, j), &x.vector, w->query, &n->proj);
            status = kvcache_scores(w->cache, w->query, &row.vector);
            n->scores += t + 1;
            n->pair += (uint64_t)(t + 1) * width;
        }
    }
    n->cached = (uint64_t)w->cache->len * width;
    return status;
}

int decode_bilinear(const gsl_matrix *X, const gsl_matrix *A, decode_work *w, gsl_matrix *S,
                    decode_count *n)
{
    token_map key = {A, CblasNoTrans};
    return run(X, key, (query_maps){NULL, CblasNoTrans, 1}, w, &S, n);
}

int decode_factored(const gsl_matrix *X, const gsl_matrix *Wq, const gsl_matrix *Wk,
                    decode_work *w, gsl_matrix *S, decode_count *n)
{
    token_map key = {Wk, CblasNoTrans};
    return run(X, key, (query_maps){&Wq, CblasNoTrans, 1}, w, &S, n);
}

int decode_shared(const gsl_matrix *X, const gsl_matrix *const *A, size_t H, decode_work *w,
                  gsl_matrix *const *S, decode_count *n)
{
    token_map key = {NULL, CblasNoTrans};
    return run(X, key, (query_maps){A, CblasTrans, H}, w, S, n);
}

/* token t against the raw tokens 0..t cached in w: S[j][t][i] = x_t . (A_j x_i),
 * every key A_j x_i computed again */
static void recompute_row(const gsl_vector *x, const gsl_matrix *A, size_t t, decode_work *w,
                          gsl_matrix *S, decode_count *n)
{
    for (size_t i = 0; i <= t; i++) {
        gsl_vector_const_view xi = gsl_matrix_const_row(w->cache->keys, i);
        double score;
        map_apply((token_map){A, CblasNoTrans}, &xi.vector, w->key, &n->proj);
        gsl_blas_ddot(x, w->key, &score);
        gsl_matrix_set(S, t, i, score);
    }
    n->scores += t + 1;
    n->pair += (uint64_t)(t + 1) * x->size;
}

int decode_recomputed(const gsl_matrix *X, const gsl_matrix *const *A, size_t H,
                      decode_work *w, gsl_matrix *const *S, decode_count *n)
{
    size_t T = X->size1, d = X->size2;
    if (H == 0 || !work_fits(w, T, d))
        return INVENT_ESHAPE;
    for (size_t j = 0; j < H; j++)
        if (A[j]->size1 != d || A[j]->size2 != d)
            return INVENT_ESHAPE;
    if (!start(X, H, w, S, n))
        return INVENT_ESHAPE;
    int status = INVENT_OK;
    for (size_t t = 0; t < T && status == INVENT_OK; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        status = kvcache_append(w->cache, &x.vector); /* the raw token */
        for (size_t j = 0; j < H && status == INVENT_OK; j++)
            recompute_row(&x.vector, A[j], t, w, S[j], n);
    }
    n->cached = (uint64_t)w->cache->len * d;
    return status;
}
