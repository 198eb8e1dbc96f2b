#include "decode.h"

#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "kvcache.h"
#include "status.h"

/* What is made from each token: op(M) x, or x itself when M is NULL. */
typedef struct {
    const gsl_matrix *M;
    CBLAS_TRANSPOSE_t op;
} token_map;

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

/* X: (T, d), one key map, H query maps -> S[j]: (T, T), row t holds query j
 * of token t against the cached keys of tokens 0..t, zero above */
static int run(const gsl_matrix *X, token_map key, const token_map *query, size_t H,
               gsl_matrix *const *S, decode_count *n)
{
    size_t T = X->size1, d = X->size2, w = map_width(key, d);
    if (w == 0)
        return INVENT_ESHAPE;
    for (size_t j = 0; j < H; j++)
        if (map_width(query[j], d) != w || S[j]->size1 != T || S[j]->size2 != T)
            return INVENT_ESHAPE;
    kvcache *c = kvcache_new(T, w);
    gsl_vector *k = gsl_vector_alloc(w), *q = gsl_vector_alloc(w);
    int status = c && k && q ? INVENT_OK : INVENT_ENOMEM;
    *n = (decode_count){0, 0, 0, 0};
    for (size_t j = 0; j < H; j++)
        gsl_matrix_set_zero(S[j]);
    for (size_t t = 0; t < T && status == INVENT_OK; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        map_apply(key, &x.vector, k, &n->proj);
        status = kvcache_append(c, k); /* the only thing token t leaves behind */
        for (size_t j = 0; j < H && status == INVENT_OK; j++) {
            gsl_vector_view row = gsl_matrix_subrow(S[j], t, 0, t + 1);
            map_apply(query[j], &x.vector, q, &n->proj);
            status = kvcache_scores(c, q, &row.vector);
            n->scores += t + 1;
            n->pair += (uint64_t)(t + 1) * w;
        }
    }
    n->cached = c ? (uint64_t)c->len * w : 0;
    kvcache_free(c);
    gsl_vector_free(k);
    gsl_vector_free(q);
    return status;
}

int decode_bilinear(const gsl_matrix *X, const gsl_matrix *A, gsl_matrix *S, decode_count *n)
{
    token_map key = {A, CblasNoTrans}, query = {NULL, CblasNoTrans};
    return run(X, key, &query, 1, &S, n);
}

int decode_factored(const gsl_matrix *X, const gsl_matrix *Wq, const gsl_matrix *Wk,
                    gsl_matrix *S, decode_count *n)
{
    token_map key = {Wk, CblasNoTrans}, query = {Wq, CblasNoTrans};
    return run(X, key, &query, 1, &S, n);
}

int decode_shared(const gsl_matrix *X, const gsl_matrix *const *A, size_t H,
                  gsl_matrix *const *S, decode_count *n)
{
    if (H == 0)
        return INVENT_ESHAPE;
    token_map key = {NULL, CblasNoTrans}, *query = malloc(H * sizeof *query);
    if (!query)
        return INVENT_ENOMEM;
    for (size_t j = 0; j < H; j++)
        query[j] = (token_map){A[j], CblasTrans};
    int status = run(X, key, query, H, S, n);
    free(query);
    return status;
}

int decode_recomputed(const gsl_matrix *X, const gsl_matrix *const *A, size_t H,
                      gsl_matrix *const *S, decode_count *n)
{
    size_t T = X->size1, d = X->size2;
    if (H == 0)
        return INVENT_ESHAPE;
    for (size_t j = 0; j < H; j++)
        if (A[j]->size1 != d || A[j]->size2 != d || S[j]->size1 != T || S[j]->size2 != T)
            return INVENT_ESHAPE;
    kvcache *c = kvcache_new(T, d);
    gsl_vector *k = gsl_vector_alloc(d);
    int status = c && k ? INVENT_OK : INVENT_ENOMEM;
    *n = (decode_count){0, 0, 0, 0};
    for (size_t j = 0; j < H; j++)
        gsl_matrix_set_zero(S[j]);
    for (size_t t = 0; t < T && status == INVENT_OK; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        status = kvcache_append(c, &x.vector); /* the raw token */
        for (size_t j = 0; j < H && status == INVENT_OK; j++) {
            for (size_t i = 0; i <= t; i++) { /* A_j x_i again, for every new token */
                gsl_vector_const_view xi = gsl_matrix_const_row(c->keys, i);
                double score;
                map_apply((token_map){A[j], CblasNoTrans}, &xi.vector, k, &n->proj);
                gsl_blas_ddot(&x.vector, k, &score);
                gsl_matrix_set(S[j], t, i, score);
            }
            n->scores += t + 1;
            n->pair += (uint64_t)(t + 1) * d;
        }
    }
    n->cached = c ? (uint64_t)c->len * d : 0;
    kvcache_free(c);
    gsl_vector_free(k);
    return status;
}
