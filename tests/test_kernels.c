/* Unit tests: the float attention kernels (naive against the double sum form
 * of chapter 7, blas, tiled and the sparse kernels against naive, on every
 * vector path this CPU can run), the vectorised exponential, the worker
 * threads and the environment the kernels read. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_matrix.h>

#include "attention.h"
#include "attn_decode.h"
#include "attn_kernels.h"
#include "attn_sparse.h"
#include "cpu_caches.h"
#include "decode_measure.h"
#include "growth.h"
#include "machine.h"
#include "mask.h"
#include "mat.h"
#include "rng.h"
#include "simd.h"
#include "softmax.h"
#include "sparse_measure.h"
#include "status.h"
#include "stopwatch.h"
#include "vexp.h"
#include "workers.h"

#define REL_TOL 1e-5

/* Q, K, V as (T, H*dh) double matrices and the same numbers as floats */
typedef struct {
    attn_shape s;
    gsl_matrix *Q, *K, *V;
    float *q, *k, *v;
} inputs;

static float *to_float(const gsl_matrix *m)
{
    float *f = malloc(m->size1 * m->size2 * sizeof *f);
    cr_assert_not_null(f);
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            f[i * m->size2 + j] = (float)gsl_matrix_get(m, i, j);
    return f;
}

static void round_to_float(gsl_matrix *m)
{
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            gsl_matrix_set(m, i, j, (float)gsl_matrix_get(m, i, j));
}

static inputs make_inputs(size_t T, size_t H, size_t dh, size_t window, unsigned long seed)
{
    inputs in = {{T, H, dh, window, (float)(1.0 / sqrt((double)dh))}, NULL, NULL, NULL,
                 NULL, NULL, NULL};
    gsl_rng *r = rng_new(seed);
    in.Q = mat_gaussian(T, H * dh, 1.0, r);
    in.K = mat_gaussian(T, H * dh, 1.0, r);
    in.V = mat_gaussian(T, H * dh, 1.0, r);
    gsl_rng_free(r);
    cr_assert(in.Q && in.K && in.V);
    round_to_float(in.Q); /* the double reference sees exactly the float inputs */
    round_to_float(in.K);
    round_to_float(in.V);
    in.q = to_float(in.Q), in.k = to_float(in.K), in.v = to_float(in.V);
    return in;
}

static void free_inputs(inputs *in)
{
    gsl_matrix_free(in->Q), gsl_matrix_free(in->K), gsl_matrix_free(in->V);
    free(in->q), free(in->k), free(in->v);
}

/* head h of a (T, H*dh) matrix, as a view */
static _gsl_matrix_const_view head(const gsl_matrix *m, size_t h, size_t dh)
{
    return gsl_matrix_const_submatrix(m, 0, h * dh, m->size1, dh);
}

/* one head in double with a sliding window: softmax(scale Q K^T + M_w) V */
static void windowed_head(const inputs *in, size_t h, gsl_matrix *out)
{
    size_t T = in->s.T, dh = in->s.dh;
    gsl_matrix_const_view q = head(in->Q, h, dh), k = head(in->K, h, dh),
                          v = head(in->V, h, dh);
    gsl_matrix *S = gsl_matrix_alloc(T, T);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, in->s.scale, &q.matrix, &k.matrix, 0.0, S);
    cr_assert_eq(mask_window(S, in->s.window), INVENT_OK);
    cr_assert_eq(softmax_rows(S, 1.0), INVENT_OK);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, S, &v.matrix, 0.0, out);
    gsl_matrix_free(S);
}

/* the double-precision reference of chapter 7, head by head -> (T, H, dh) floats */
static float *reference(const inputs *in)
{
    size_t T = in->s.T, H = in->s.H, dh = in->s.dh;
    gsl_matrix *all = gsl_matrix_alloc(T, H * dh);
    gsl_matrix *one = gsl_matrix_alloc(T, dh);
    gsl_vector *scores = gsl_vector_alloc(T);
    for (size_t h = 0; h < H; h++) {
        gsl_matrix_const_view q = head(in->Q, h, dh), k = head(in->K, h, dh),
                              v = head(in->V, h, dh);
        if (in->s.window)
            windowed_head(in, h, one);
        else
            cr_assert_eq(attn_sum_form(&q.matrix, &k.matrix, &v.matrix, in->s.scale,
                                       ATTN_CAUSAL, scores, one), INVENT_OK);
        gsl_matrix_view dst = gsl_matrix_submatrix(all, 0, h * dh, T, dh);
        gsl_matrix_memcpy(&dst.matrix, one);
    }
    float *f = to_float(all);
    gsl_matrix_free(all);
    gsl_matrix_free(one);
    gsl_vector_free(scores);
    return f;
}

enum { NAIVE, BLAS, TILED }; /* attn_kernels' order */

/* bytes -> a fresh workspace of that size */
static attn_work work_of(size_t bytes)
{
    attn_work w;
    cr_assert_eq(attn_work_new(bytes, &w), INVENT_OK);
    return w;
}

/* kernel k of attn_kernels on in, with a workspace of the size it asks for -> out */
static float *run(int k, const inputs *in, attn_cost *cost)
{
    float *out = malloc(in->s.T * in->s.H * in->s.dh * sizeof *out);
    cr_assert_not_null(out);
    attn_work w;
    cr_assert_eq(attn_work_for(attn_kernels[k].work, &in->s, &w), INVENT_OK);
    cr_assert_eq(attn_kernels[k].run(&in->s, in->q, in->k, in->v, out, &w, cost), INVENT_OK);
    attn_work_free(&w);
    return out;
}

/* s, keys -> a workspace for the tiled and both sparse kernels */
static attn_work fast_work(const attn_shape *s, const attn_key_list *keys)
{
    size_t tiled, sparse;
    cr_assert_eq(attn_tiled_work(s, &tiled), INVENT_OK);
    cr_assert_eq(attn_sparse_keys_work(s, keys, &sparse), INVENT_OK);
    return work_of(tiled > sparse ? tiled : sparse);
}

/* every kernel on one shape: naive against double, the others against naive */
static void check_shape(const inputs *in)
{
    size_t n = in->s.T * in->s.H * in->s.dh;
    float *want = reference(in);
    attn_cost cost;
    float *naive = run(NAIVE, in, &cost);
    double e = attn_rel_diff(naive, want, n);
    cr_assert(e <= REL_TOL, "naive vs double sum form, T=%zu H=%zu dh=%zu w=%zu: %.3g",
              in->s.T, in->s.H, in->s.dh, in->s.window, e);
    for (int k = 1; k < attn_kernels_count; k++) {
        float *got = run(k, in, &cost);
        e = attn_rel_diff(got, naive, n);
        cr_assert(e <= REL_TOL, "%s vs naive, T=%zu H=%zu dh=%zu w=%zu: %.3g",
                  attn_kernels[k].name, in->s.T, in->s.H, in->s.dh, in->s.window, e);
        cr_assert_geq(cost.madds, attn_useful_madds(&in->s), "%s skipped work",
                      attn_kernels[k].name);
        free(got);
    }
    free(naive);
    free(want);
}

static void check_shapes(const size_t *T, int nT, const size_t *dh, int nd, size_t H,
                         size_t window)
{
    for (int i = 0; i < nT; i++)
        for (int j = 0; j < nd; j++) {
            inputs in = make_inputs(T[i], H, dh[j], window, 7 + i * 31 + j);
            check_shape(&in);
            free_inputs(&in);
        }
}

Test(kernels, agree_on_small_odd_and_ragged_shapes)
{
    /* T = 1, odd T, T around and off the tile size; dh odd, below and above 16 */
    const size_t T[] = {1, 2, 7, 63, 64, 65, 131};
    const size_t dh[] = {1, 5, 16, 24};
    check_shapes(T, 7, dh, 4, 3, 0);
}

Test(kernels, agree_on_the_benchmark_head_size)
{
    const size_t T[] = {200, 257};
    const size_t dh[] = {64};
    check_shapes(T, 2, dh, 1, 4, 0);
}

Test(kernels, agree_with_a_sliding_window)
{
    const size_t T[] = {1, 9, 100, 150};
    const size_t dh[] = {8, 33};
    const size_t w[] = {1, 5, 64, 70, 1000};
    for (int i = 0; i < 5; i++)
        check_shapes(T, 4, dh, 2, 2, w[i]);
}

Test(kernels, agree_on_the_portable_simd_path_and_one_thread)
{
    setenv("INVENT_SIMD", "portable", 1);
    setenv("INVENT_THREADS", "1", 1);
    const size_t T[] = {1, 65, 130};
    const size_t dh[] = {7, 64};
    check_shapes(T, 3, dh, 2, 2, 0);
    check_shapes(T, 3, dh, 2, 1, 20);
}

/* every key listed: the sparse kernels' patterns for f = 1 */
static void full_lists(size_t T, attn_key_list *keys, attn_block_list *blocks)
{
    gsl_rng *r = rng_new(1);
    cr_assert_eq(attn_key_list_random(T, 1.0, r, keys), INVENT_OK);
    cr_assert_eq(attn_block_list_random(T, 1.0, r, blocks), INVENT_OK);
    gsl_rng_free(r);
}

/* the fast kernels on one shape against naive (want), on the path in use */
static void check_fast_kernels(const inputs *in, const float *want, const char *path)
{
    size_t n = in->s.T * in->s.H * in->s.dh;
    attn_key_list keys;
    attn_block_list blocks;
    full_lists(in->s.T, &keys, &blocks);
    float *got = malloc(n * sizeof *got);
    cr_assert_not_null(got);
    attn_work w = fast_work(&in->s, &keys);
    const char *name[3] = {"tiled", "sparse keys (all listed)", "sparse blocks (all listed)"};
    for (int k = 0; k < 3; k++) {
        int status = k == 0   ? attn_tiled(&in->s, in->q, in->k, in->v, got, &w, NULL)
                     : k == 1 ? attn_sparse_keys(&in->s, &keys, in->q, in->k, in->v, got, &w,
                                                 NULL)
                              : attn_sparse_blocks(&in->s, &blocks, in->q, in->k, in->v, got,
                                                   &w, NULL);
        cr_assert_eq(status, INVENT_OK);
        double e = attn_rel_diff(got, want, n);
        cr_assert(e <= REL_TOL, "%s on path %s vs naive, T=%zu dh=%zu: %.3g", name[k], path,
                  in->s.T, in->s.dh, e);
    }
    attn_work_free(&w);
    free(got);
    attn_key_list_free(&keys);
    attn_block_list_free(&blocks);
}

/* The sizes of issue 14's list, ragged against every tile and vector width,
 * on every path this CPU can run, forced with INVENT_SIMD. */
Test(kernels, agree_on_ragged_sizes_on_every_vector_path, .timeout = 120)
{
    const size_t T[] = {1, 63, 65, 1000};
    const size_t dh[] = {1, 3, 80, 128};
    for (int i = 0; i < 4; i++)
        for (int d = 0; d < 4; d++) {
            inputs in = make_inputs(T[i], 2, dh[d], 0, 5 + i * 7 + d);
            unsetenv("INVENT_SIMD");
            float *want = run(NAIVE, &in, NULL);
            for (int level = SIMD_PORTABLE; level <= (int)simd_best(); level++) {
                setenv("INVENT_SIMD", simd_name((simd_level)level), 1);
                check_fast_kernels(&in, want, simd_name((simd_level)level));
            }
            free(want);
            free_inputs(&in);
        }
}

/* blocks -> the same pattern key by key (the causal mask inside diagonal
 * blocks applied) */
static void expand_blocks(const attn_block_list *blocks, size_t T, attn_key_list *keys)
{
    *keys = (attn_key_list){T, malloc((T + 1) * sizeof(size_t)),
                            malloc(attn_block_list_pairs(blocks, T) * sizeof(uint32_t))};
    cr_assert(keys->start && keys->key);
    keys->start[0] = 0;
    size_t e = 0;
    for (size_t t = 0; t < T; t++) {
        size_t b = t / ATTN_TILE;
        for (size_t i = blocks->start[b]; i < blocks->start[b + 1]; i++)
            for (size_t k = blocks->key[i] * (size_t)ATTN_TILE;
                 k < (blocks->key[i] + 1) * (size_t)ATTN_TILE && k <= t; k++)
                keys->key[e++] = (uint32_t)k;
        keys->start[t + 1] = e;
    }
}

/* Two independent kernels on the same sparse pattern: the tiles over listed
 * blocks against the gathered keys, on every path. */
Test(kernels, sparse_blocks_and_keys_agree_on_a_random_pattern)
{
    const size_t T[] = {100, 300};
    for (int i = 0; i < 2; i++) {
        inputs in = make_inputs(T[i], 3, 24, 0, 19 + i);
        gsl_rng *r = rng_new(4);
        attn_block_list blocks;
        attn_key_list keys;
        cr_assert_eq(attn_block_list_random(T[i], 0.4, r, &blocks), INVENT_OK);
        gsl_rng_free(r);
        expand_blocks(&blocks, T[i], &keys);
        cr_assert_eq(attn_key_list_check(&in.s, &keys), INVENT_OK);
        cr_assert_eq(attn_key_list_pairs(&keys), attn_block_list_pairs(&blocks, T[i]));
        size_t n = T[i] * 3 * 24;
        float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        for (int level = SIMD_PORTABLE; level <= (int)simd_best(); level++) {
            setenv("INVENT_SIMD", simd_name((simd_level)level), 1);
            attn_cost cost;
            attn_work w = fast_work(&in.s, &keys);
            cr_assert_eq(attn_sparse_blocks(&in.s, &blocks, in.q, in.k, in.v, a, &w, &cost), 0);
            cr_assert_geq(cost.madds, 2 * 3 * 24 * attn_block_list_pairs(&blocks, T[i]));
            cr_assert_eq(attn_sparse_keys(&in.s, &keys, in.q, in.k, in.v, b, &w, &cost), 0);
            attn_work_free(&w);
            cr_assert_eq(cost.madds, 2 * 3 * 24 * attn_key_list_pairs(&keys));
            cr_assert(attn_rel_diff(a, b, n) <= REL_TOL, "path %s: %.3g",
                      simd_name((simd_level)level), attn_rel_diff(a, b, n));
        }
        free(a), free(b);
        attn_block_list_free(&blocks);
        attn_key_list_free(&keys);
        free_inputs(&in);
    }
}

Test(kernels, sparse_patterns_keep_the_fraction_asked_for)
{
    gsl_rng *r = rng_new(2);
    attn_key_list keys;
    attn_block_list blocks;
    cr_assert_eq(attn_key_list_random(2000, 0.1, r, &keys), INVENT_OK);
    double visible = 2000.0 * 2001.0 / 2.0;
    cr_assert_float_eq(attn_key_list_pairs(&keys) / visible, 0.1, 0.002);
    cr_assert_eq(attn_block_list_random(4096, 0.25, r, &blocks), INVENT_OK);
    cr_assert_float_eq(attn_block_list_pairs(&blocks, 4096) / (4096.0 * 4097.0 / 2.0), 0.25,
                       0.02);
    attn_key_list_free(&keys);
    attn_block_list_free(&blocks);
    cr_assert_eq(attn_key_list_random(10, 0.0, r, &keys), INVENT_ERANGE);
    cr_assert_eq(attn_block_list_random(0, 0.5, r, &blocks), INVENT_ERANGE);
    gsl_rng_free(r);
}

Test(kernels, sparse_kernels_refuse_bad_patterns)
{
    float x[64] = {0};
    attn_shape s = {4, 1, 2, 0, 1.0f};
    size_t start[5] = {0, 1, 3, 5, 7};
    uint32_t good[7] = {0, 0, 1, 0, 2, 1, 3};
    uint32_t unsorted[7] = {0, 0, 1, 2, 2, 1, 3}; /* query 2 lists key 2 twice */
    uint32_t no_self[7] = {0, 0, 1, 0, 1, 1, 3};  /* query 2 ends on key 1 */
    attn_key_list list = {4, start, good};
    attn_work w = work_of(1 << 16); /* room enough: only the pattern can be refused */
    cr_assert_eq(attn_sparse_keys(&s, &list, x, x, x, x, &w, NULL), INVENT_OK);
    list.key = unsorted;
    cr_assert_eq(attn_sparse_keys(&s, &list, x, x, x, x, &w, NULL), INVENT_ERANGE);
    list.key = no_self;
    cr_assert_eq(attn_sparse_keys(&s, &list, x, x, x, x, &w, NULL), INVENT_ERANGE);
    list.key = good;
    s.window = 2;
    cr_assert_eq(attn_sparse_keys(&s, &list, x, x, x, x, &w, NULL), INVENT_ERANGE);
    s.window = 0, s.T = 3;
    cr_assert_eq(attn_sparse_keys(&s, &list, x, x, x, x, &w, NULL), INVENT_ERANGE);
    size_t bstart[2] = {0, 1};
    uint32_t bkey[1] = {1};
    attn_block_list blocks = {1, bstart, bkey}; /* block 0 lists block 1 */
    cr_assert_eq(attn_sparse_blocks(&s, &blocks, x, x, x, x, &w, NULL), INVENT_ERANGE);
    attn_work_free(&w);
}

/* q: (H, dh), K, V: (T, Hkv, dh) -> out: (H, dh), the decode step in
 * double, written as the sum form: the reference for attn_decode */
static void decode_reference(const attn_decode_shape *s, const float *q, const float *K,
                             const float *V, float *out)
{
    double *w = malloc(s->T * sizeof *w);
    cr_assert_not_null(w);
    for (size_t h = 0; h < s->H; h++) {
        size_t g = h / (s->H / s->Hkv);
        double max = -INFINITY, sum = 0.0;
        for (size_t i = 0; i < s->T; i++) {
            double dot = 0.0;
            for (size_t d = 0; d < s->dh; d++)
                dot += (double)q[h * s->dh + d] * K[(i * s->Hkv + g) * s->dh + d];
            w[i] = s->scale * dot;
            max = fmax(max, w[i]);
        }
        for (size_t i = 0; i < s->T; i++)
            sum += w[i] = exp(w[i] - max);
        for (size_t d = 0; d < s->dh; d++) {
            double o = 0.0;
            for (size_t i = 0; i < s->T; i++)
                o += w[i] * V[(i * s->Hkv + g) * s->dh + d];
            out[h * s->dh + d] = (float)(o / sum);
        }
    }
    free(w);
}

static float *uniform_floats(size_t n, gsl_rng *r)
{
    float *f = malloc(n * sizeof *f);
    cr_assert_not_null(f);
    for (size_t i = 0; i < n; i++)
        f[i] = (float)(4.0 * gsl_rng_uniform(r) - 2.0);
    return f;
}

/* one decode shape, K == V when shared, on the path in use */
static void check_decode(size_t T, size_t H, size_t Hkv, size_t dh, int shared, gsl_rng *r)
{
    attn_decode_shape s = {T, H, Hkv, dh, (float)(1.0 / sqrt((double)dh))};
    float *q = uniform_floats(H * dh, r), *K = uniform_floats(T * Hkv * dh, r);
    float *V = shared ? K : uniform_floats(T * Hkv * dh, r);
    float *want = malloc(H * dh * sizeof *want), *got = malloc(H * dh * sizeof *got);
    decode_reference(&s, q, K, V, want);
    attn_cost cost;
    size_t bytes;
    cr_assert_eq(attn_decode_work(&s, &bytes), INVENT_OK);
    attn_work w = work_of(bytes);
    cr_assert_eq(attn_decode(&s, q, K, V, got, &w, &cost), INVENT_OK);
    attn_work_free(&w);
    double e = attn_rel_diff(got, want, H * dh);
    cr_assert(e <= REL_TOL, "decode T=%zu H=%zu Hkv=%zu dh=%zu shared=%d: %.3g", T, H, Hkv, dh,
              shared, e);
    cr_assert_eq(cost.madds, 2ull * T * H * dh);
    free(q), free(K), free(want), free(got);
    if (!shared)
        free(V);
}

Test(kernels, decode_agrees_with_the_sum_form_on_every_vector_path, .timeout = 120)
{
    const size_t T[] = {1, 31, 33, 1000};
    const size_t dh[] = {1, 3, 80, 128};
    gsl_rng *r = rng_new(8);
    for (int level = SIMD_PORTABLE; level <= (int)simd_best(); level++) {
        setenv("INVENT_SIMD", simd_name((simd_level)level), 1);
        for (int i = 0; i < 4; i++)
            for (int d = 0; d < 4; d++) {
                check_decode(T[i], 3, 3, dh[d], 0, r); /* a key-value head per head */
                check_decode(T[i], 6, 2, dh[d], 0, r); /* three heads per key-value head */
                check_decode(T[i], 5, 1, dh[d], 1, r); /* C1: one shared cache, K == V */
            }
    }
    gsl_rng_free(r);
}

Test(kernels, decode_refuses_bad_shapes_and_counts_bytes)
{
    float x[8] = {0};
    const attn_decode_shape bad[] = {
        {0, 1, 1, 1, 1.0f}, {1, 0, 1, 1, 1.0f}, {1, 4, 3, 1, 1.0f}, {1, 1, 1, 0, 1.0f},
        {1, 1, 1, 1, INFINITY}, {SIZE_MAX / 4, 2, 2, 4, 1.0f},
    };
    attn_work w = work_of(1 << 16); /* room enough: only the shape can be refused */
    for (int i = 0; i < 6; i++)
        cr_assert_eq(attn_decode(&bad[i], x, x, x, x, &w, NULL), INVENT_ERANGE, "shape %d", i);
    attn_work_free(&w);
    attn_decode_shape s = {1000, 20, 20, 200, 1.0f};
    cr_assert_eq(attn_decode_bytes(&s, 0), 2ull * 1000 * 20 * 200 * 4 + 20 * 200 * 4);
    s.Hkv = 1, s.dh = 1000;
    cr_assert_eq(attn_decode_bytes(&s, 1), 1000ull * 1000 * 4 + 20 * 1000 * 4);
}

/* Scores of exactly +-1e4 (and ties): integer entries, scale 2500, so
 * every kernel computes the same exact scores and only the softmax's
 * stability is tested. */
Test(kernels, stay_finite_and_agree_with_scores_of_1e4)
{
    const size_t T = 97, H = 2, dh = 4;
    inputs in = make_inputs(T, H, dh, 0, 11);
    for (size_t i = 0; i < T; i++)
        for (size_t j = 0; j < H * dh; j++) {
            gsl_matrix_set(in.Q, i, j, (i + j) % 3 ? 1.0 : -1.0);
            gsl_matrix_set(in.K, i, j, (i * 7 + j) % 5 < 2 ? 1.0 : -1.0);
        }
    free(in.q), free(in.k);
    in.q = to_float(in.Q), in.k = to_float(in.K);
    in.s.scale = 2500.0f;
    check_shape(&in);
    free_inputs(&in);
}

/* Q, K <- integers in [-50, 50], so that scores q.k up to +-1e4 are exact
 * in float32 */
static void set_exact_integers(inputs *in, unsigned long seed)
{
    gsl_rng *r = rng_new(seed);
    for (size_t i = 0; i < in->s.T; i++)
        for (size_t j = 0; j < in->s.H * in->s.dh; j++) {
            gsl_matrix_set(in->Q, i, j, (double)gsl_rng_uniform_int(r, 101) - 50.0);
            gsl_matrix_set(in->K, i, j, (double)gsl_rng_uniform_int(r, 101) - 50.0);
        }
    gsl_rng_free(r);
    free(in->q), free(in->k);
    in->q = to_float(in->Q), in->k = to_float(in->K);
}

/* the order the tiled kernel used before issue 28, in double but for its
 * roundings: each score (q times scale log2(e), then q.k) rounded to float
 * before the maximum is subtracted -> out: (T, H, dh) floats, causal */
static float *scaled_before_the_maximum(const inputs *in)
{
    size_t T = in->s.T, ld = in->s.H * in->s.dh, dh = in->s.dh;
    float factor = in->s.scale * 1.44269504088896341f, *out = calloc(T * ld, sizeof *out);
    double *score = malloc(T * sizeof *score);
    cr_assert(out && score);
    for (size_t h = 0; h < in->s.H; h++)
        for (size_t t = 0; t < T; t++) {
            double m = -INFINITY, l = 0.0;
            for (size_t i = 0; i <= t; i++) {
                float dot = 0.0f;
                for (size_t d = 0; d < dh; d++)
                    dot += (factor * in->q[t * ld + h * dh + d]) * in->k[i * ld + h * dh + d];
                score[i] = dot, m = fmax(m, dot);
            }
            for (size_t i = 0; i <= t; i++)
                l += score[i] = exp2(score[i] - m);
            for (size_t d = 0; d < dh; d++) {
                double o = 0.0;
                for (size_t i = 0; i <= t; i++)
                    o += score[i] * in->v[i * ld + h * dh + d];
                out[t * ld + h * dh + d] = (float)(o / l);
            }
        }
    free(score);
    return out;
}

/* every query t of in through the decode kernel, as generation meets it (a
 * cache of tokens 0..t, a key-value head per head) -> out: (T, H, dh) */
static void decode_every_query(const inputs *in, float *out)
{
    size_t ld = in->s.H * in->s.dh;
    for (size_t t = 0; t < in->s.T; t++) {
        attn_decode_shape d = {t + 1, in->s.H, in->s.H, in->s.dh, in->s.scale};
        size_t bytes;
        cr_assert_eq(attn_decode_work(&d, &bytes), INVENT_OK);
        attn_work w = work_of(bytes);
        cr_assert_eq(attn_decode(&d, in->q + t * ld, in->k, in->v, out + t * ld, &w, NULL),
                     INVENT_OK);
        attn_work_free(&w);
    }
}

/* the tiled, both sparse (every key listed) and the decode kernel on exact
 * inputs against the double sum form (want), on the path in use */
static void check_exact_kernels(const inputs *in, const float *want, const char *path)
{
    size_t n = in->s.T * in->s.H * in->s.dh;
    attn_key_list keys;
    attn_block_list blocks;
    full_lists(in->s.T, &keys, &blocks);
    float *got = malloc(n * sizeof *got);
    cr_assert_not_null(got);
    attn_work w = fast_work(&in->s, &keys);
    const char *name[4] = {"tiled", "sparse keys", "sparse blocks", "decode"};
    for (int k = 0; k < 4; k++) {
        int status = k == 0   ? attn_tiled(&in->s, in->q, in->k, in->v, got, &w, NULL)
                     : k == 1 ? attn_sparse_keys(&in->s, &keys, in->q, in->k, in->v, got, &w,
                                                 NULL)
                     : k == 2 ? attn_sparse_blocks(&in->s, &blocks, in->q, in->k, in->v, got,
                                                   &w, NULL)
                              : (decode_every_query(in, got), INVENT_OK);
        cr_assert_eq(status, INVENT_OK);
        double e = attn_rel_diff(got, want, n);
        cr_assert(e <= REL_TOL, "%s (%s) vs double at scale %g: %.3g", name[k], path,
                  in->s.scale, e);
    }
    attn_work_free(&w);
    free(got);
    attn_key_list_free(&keys);
    attn_block_list_free(&blocks);
}

/* Issue 28: where the scores are exact (integer inputs, scores up to
 * +-1e4, scale 1 or a power of two), every kernel agrees with the double
 * sum form to 1e-5: the tiled, sparse and decode kernels subtract the
 * running maximum before they scale. The control is the order they used
 * before (scores rounded after scaling, then the maximum subtracted): on the
 * same inputs it is more than 1e-5 away, so these inputs tell the two
 * orders apart. */
Test(kernels, exact_scores_of_1e4_stay_exact_in_every_kernel)
{
    const size_t T = 400, H = 4, dh = 4;
    const float scale[2] = {1.0f, 0.5f};
    for (int k = 0; k < 2; k++) {
        inputs in = make_inputs(T, H, dh, 0, 5 + k);
        in.s.scale = scale[k];
        set_exact_integers(&in, 17 + k);
        check_shape(&in);
        float *want = reference(&in);
        for (int level = SIMD_PORTABLE; level <= (int)simd_best(); level++) {
            setenv("INVENT_SIMD", simd_name((simd_level)level), 1);
            check_exact_kernels(&in, want, simd_name((simd_level)level));
        }
        unsetenv("INVENT_SIMD");
        float *old = scaled_before_the_maximum(&in);
        double e_old = attn_rel_diff(old, want, T * H * dh);
        cr_assert(e_old > REL_TOL, "control at scale %g: the old order is within %.3g",
                  scale[k], e_old);
        free(want), free(old);
        free_inputs(&in);
    }
}

Test(kernels, count_work_and_memory)
{
    inputs small = make_inputs(64, 2, 16, 0, 3), large = make_inputs(640, 2, 16, 0, 3);
    attn_cost c_small, c_large;
    free(run(TILED, &small, &c_small));
    free(run(TILED, &large, &c_large));
    cr_assert_eq(c_small.scratch_bytes, c_large.scratch_bytes,
                 "the tiled kernel's memory must not grow with T");
    free(run(BLAS, &large, &c_large));
    cr_assert_eq(c_large.scratch_bytes, 640 * 640 * sizeof(float));
    free(run(NAIVE, &large, &c_large));
    cr_assert_eq(c_large.madds, attn_useful_madds(&large.s), "naive does only useful work");
    cr_assert_eq(attn_useful_madds(&large.s), 2ull * 16 * 2 * 640 * 641 / 2);
    free_inputs(&small);
    free_inputs(&large);
}

/* One problem for every kernel: the dense ones, both sparse ones on full
 * lists, and decode on the last query against the whole cache. */
typedef struct {
    inputs in;
    attn_key_list keys;
    attn_block_list blocks;
    attn_decode_shape d;
} any_problem;

enum { ANY_KEYS = 3, ANY_BLOCKS, ANY_DECODE, ANY_KERNELS }; /* after attn_kernels' three */

/* kernel k of any_problem's -> bytes: the workspace it asks for */
static int any_work(const any_problem *p, int k, size_t *bytes)
{
    return k < attn_kernels_count ? attn_kernels[k].work(&p->in.s, bytes)
           : k == ANY_KEYS        ? attn_sparse_keys_work(&p->in.s, &p->keys, bytes)
           : k == ANY_BLOCKS      ? attn_tiled_work(&p->in.s, bytes)
                                  : attn_decode_work(&p->d, bytes);
}

/* kernel k on p with workspace w -> out and its status */
static int any_run(const any_problem *p, int k, float *out, attn_work *w, attn_cost *cost)
{
    const inputs *in = &p->in;
    return k < attn_kernels_count ? attn_kernels[k].run(&in->s, in->q, in->k, in->v, out, w, cost)
           : k == ANY_KEYS ? attn_sparse_keys(&in->s, &p->keys, in->q, in->k, in->v, out, w, cost)
           : k == ANY_BLOCKS
               ? attn_sparse_blocks(&in->s, &p->blocks, in->q, in->k, in->v, out, w, cost)
               : attn_decode(&p->d, in->q, in->k, in->v, out, w, cost);
}

/* Every kernel runs in the workspace its size function asks for, reports
 * using all of it, and refuses one a byte smaller (the near miss: a size
 * function that forgot a buffer or its alignment) or none at all;
 * attn_kernels_work is the largest of naive's, blas's and tiled's. */
Test(kernels, run_in_the_workspace_they_ask_for_and_refuse_a_byte_less)
{
    any_problem p = {make_inputs(130, 3, 24, 0, 9), {0}, {0}, {130, 3, 3, 24, 0.2f}};
    full_lists(p.in.s.T, &p.keys, &p.blocks);
    float *out = malloc(p.in.s.T * p.in.s.H * p.in.s.dh * sizeof *out);
    size_t most = 0, all, bytes;
    for (int k = 0; k < ANY_KERNELS; k++) {
        cr_assert_eq(any_work(&p, k, &bytes), INVENT_OK);
        most = k < attn_kernels_count && bytes > most ? bytes : most;
        attn_work w = work_of(bytes);
        for (size_t room = bytes; room + 1 >= bytes; room--) {
            w.bytes = room;
            attn_cost cost = {0, 0};
            cr_assert_eq(any_run(&p, k, out, &w, &cost), room == bytes ? INVENT_OK : INVENT_ERANGE,
                         "kernel %d in %zu of the %zu bytes it asks for", k, room, bytes);
            if (room == bytes)
                cr_assert_eq(cost.scratch_bytes, bytes, "kernel %d", k);
        }
        cr_assert_eq(any_run(&p, k, out, NULL, NULL), INVENT_ERANGE, "kernel %d, no workspace", k);
        attn_work_free(&w);
    }
    cr_assert_eq(attn_kernels_work(&p.in.s, &all), INVENT_OK);
    cr_assert_eq(all, most, "one workspace for naive, blas and tiled: the largest");
    free(out);
    attn_key_list_free(&p.keys);
    attn_block_list_free(&p.blocks);
    free_inputs(&p.in);
}

Test(kernels, count_visible_pairs_with_a_window)
{
    attn_shape s = {10, 1, 1, 3, 1.0f};
    cr_assert_eq(attn_visible_pairs(&s), 1 + 2 + 3 * 8);
    s.window = 0;
    cr_assert_eq(attn_visible_pairs(&s), 55);
    s.window = 50;
    cr_assert_eq(attn_visible_pairs(&s), 55);
    cr_assert_eq(attn_first_key(&(attn_shape){10, 1, 1, 3, 1.0f}, 9), 7);
}

Test(kernels, refuse_bad_shapes)
{
    float x[4] = {0};
    const attn_shape bad[] = {
        {0, 1, 1, 0, 1.0f}, {1, 0, 1, 0, 1.0f}, {1, 1, 0, 0, 1.0f}, {1, 1, 1, 0, NAN},
        {SIZE_MAX / 2, 4, 4, 0, 1.0f},
    };
    attn_work w = work_of(1 << 16); /* room enough: only the shape can be refused */
    size_t bytes;
    for (int k = 0; k < attn_kernels_count; k++)
        for (int i = 0; i < 5; i++) {
            cr_assert_eq(attn_kernels[k].run(&bad[i], x, x, x, x, &w, NULL), INVENT_ERANGE,
                         "%s accepted bad shape %d", attn_kernels[k].name, i);
            cr_assert_eq(attn_kernels[k].work(&bad[i], &bytes), INVENT_ERANGE,
                         "%s sized bad shape %d", attn_kernels[k].name, i);
        }
    attn_work_free(&w);
}

Test(kernels, measure_relative_differences)
{
    const float want[3] = {1.0f, -4.0f, 2.0f}, got[3] = {1.0f, -3.0f, 2.0f};
    cr_assert_float_eq(attn_rel_diff(got, want, 3), 0.25, 1e-12);
    const float zero[2] = {0.0f, 0.0f}, small[2] = {0.5f, 0.0f}, bad[2] = {NAN, 0.0f};
    cr_assert_float_eq(attn_rel_diff(small, zero, 2), 0.5, 1e-12);
    cr_assert(isinf(attn_rel_diff(bad, zero, 2)));
}

Test(vexp, matches_expf_and_masks_to_zero)
{
    float x[203];
    for (int i = 0; i < 203; i++)
        x[i] = -100.0f + i * 0.9f;
    x[5] = -INFINITY;
    float got[203];
    for (int i = 0; i < 203; i++)
        got[i] = x[i];
    float sum = vexp_shifted(got, 203, 2.0f), want_sum = 0.0f;
    for (int i = 0; i < 203; i++) {
        float want = expf(x[i] - 2.0f);
        want_sum += want;
        cr_assert(fabsf(got[i] - want) <= 1e-6f * want + 1e-37f, "exp(%g): %g vs %g",
                  x[i] - 2.0f, got[i], want);
    }
    cr_assert_eq(got[5], 0.0f);
    cr_assert(fabsf(sum - want_sum) <= 1e-5f * want_sum);
}

static int mark(void *ctx, size_t item, int worker)
{
    int *seen = ctx;
    __atomic_fetch_add(&seen[item], 1, __ATOMIC_RELAXED);
    return worker >= 0 && item == 17 ? INVENT_ENUMERIC : INVENT_OK;
}

Test(workers, run_every_item_once_and_report_a_failure)
{
    int seen[100] = {0};
    cr_assert_eq(workers_run(100, 3, mark, seen), INVENT_ENUMERIC);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(seen[i], 1, "item %d ran %d times", i, seen[i]);
    cr_assert_eq(workers_run(5, 0, mark, seen), INVENT_ERANGE);
    cr_assert_geq(workers_count(), 1);
}

/* an item that counts itself (ctx: one counter per item) */
static int mark_ok(void *ctx, size_t item, int worker)
{
    (void)worker;
    __atomic_fetch_add(&((int *)ctx)[item], 1, __ATOMIC_RELAXED);
    return INVENT_OK;
}

/* an item that runs a whole inner run of 10 items (ctx: 100 counters) */
static int nested(void *ctx, size_t item, int worker)
{
    (void)worker;
    int *seen = ctx;
    return workers_run(10, 2, mark_ok, seen + 10 * item);
}

/* one thread's 200 runs of 100 items, each item counted */
static void *many_runs(void *ctx)
{
    for (int r = 0; r < 200; r++)
        if (workers_run(100, 4, mark_ok, ctx) != INVENT_OK)
            return ctx;
    return NULL;
}

/* The pool of kept threads: back-to-back runs, a run inside an item, and
 * runs from two threads at once each run every item exactly once. */
Test(workers, the_kept_threads_serve_repeated_nested_and_concurrent_runs)
{
    int seen[2][100] = {{0}}, inner[100] = {0};
    cr_assert_eq(workers_run(10, 3, nested, inner), INVENT_OK);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(inner[i], 1, "nested item %d ran %d times", i, inner[i]);
    pthread_t other;
    cr_assert_eq(pthread_create(&other, NULL, many_runs, seen[1]), 0);
    void *failed = many_runs(seen[0]), *failed_other;
    pthread_join(other, &failed_other);
    cr_assert_null(failed);
    cr_assert_null(failed_other);
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 100; i++)
            cr_assert_eq(seen[t][i], 200, "thread %d item %d ran %d times", t, i, seen[t][i]);
}

/* Issue 14: a bad INVENT_THREADS or INVENT_SIMD is refused with a reason,
 * by the check a program calls first and by every kernel. */
Test(kernels, refuse_a_bad_environment_with_a_reason)
{
    const char *threads[] = {"0", "abc", "1000", "-3", "4abc", "", " 2", "65"};
    float x[4] = {1, 2, 3, 4};
    attn_shape s = {2, 1, 2, 0, 1.0f};
    char why[160];
    attn_work w = work_of(1 << 16); /* room enough: only the environment can be refused */
    for (int i = 0; i < 8; i++) {
        setenv("INVENT_THREADS", threads[i], 1);
        cr_assert_eq(attn_env_check(why, sizeof why), INVENT_ERANGE, "'%s'", threads[i]);
        cr_assert(strstr(why, "INVENT_THREADS") != NULL, "%s", why);
        for (int k = 0; k < attn_kernels_count; k++)
            cr_assert_eq(attn_kernels[k].run(&s, x, x, x, x, &w, NULL), INVENT_ERANGE,
                         "%s ran with INVENT_THREADS='%s'", attn_kernels[k].name, threads[i]);
    }
    setenv("INVENT_THREADS", "64", 1);
    cr_assert_eq(attn_env_check(why, sizeof why), INVENT_OK);
    int count;
    cr_assert_eq(workers_get(&count), INVENT_OK);
    cr_assert_eq(count, 64);
    setenv("INVENT_SIMD", "sse9", 1);
    cr_assert_eq(attn_env_check(why, sizeof why), INVENT_ERANGE);
    cr_assert(strstr(why, "INVENT_SIMD") != NULL, "%s", why);
    cr_assert_eq(attn_tiled(&s, x, x, x, x, &w, NULL), INVENT_ERANGE);
    setenv("INVENT_SIMD", "portable", 1);
    cr_assert_eq(attn_env_check(why, sizeof why), INVENT_OK);
    attn_work_free(&w);
}

Test(kernels, refuse_a_vector_path_the_cpu_lacks)
{
    if (simd_best() == SIMD_AVX512)
        cr_skip_test("this CPU runs every vector path");
    char why[160];
    setenv("INVENT_SIMD", "avx512", 1);
    cr_assert_eq(simd_env_check(why, sizeof why), INVENT_ERANGE);
    cr_assert(strstr(why, "cannot run") != NULL, "%s", why);
}

/* The measurements run and refuse bad arguments; what they measure is the
 * benchmark's business (no timing is asserted here). */
Test(machine, measures_and_refuses_bad_arguments)
{
    double rate = 0.0;
    cr_assert_eq(machine_fma_peak(0.001, &rate), INVENT_OK);
    cr_assert_gt(rate, 0.0);
    cr_assert_eq(machine_fma_peak(0.0, &rate), INVENT_ERANGE);
    float buf[1000];
    for (int i = 0; i < 1000; i++)
        buf[i] = 1.0f;
    cr_assert_eq(machine_read_bandwidth(buf, 1000, 2, &rate), INVENT_OK);
    cr_assert_gt(rate, 0.0);
    cr_assert_eq(machine_read_bandwidth(buf, 0, 2, &rate), INVENT_ERANGE);
    cr_assert_eq(machine_read_bandwidth(buf, 1000, 0, &rate), INVENT_ERANGE);
    cr_assert_geq(cpu_cache_bytes(2), cpu_cache_bytes(1));
    cr_assert_eq(cpu_cache_bytes(4), 0);
}

Test(machine, decode_and_sparse_measurements_run_on_small_problems)
{
    attn_decode_shape s = {64, 4, 2, 8, 0.35f};
    float arena[4096];
    for (int i = 0; i < 4096; i++)
        arena[i] = (float)(i % 17) / 17.0f;
    decode_point d;
    cr_assert_eq(decode_measure(&s, 0, arena, 4096, 2, &d), INVENT_OK);
    cr_assert_eq(d.layers, 4096 / (2 * 64 * 2 * 8));
    cr_assert_eq(d.bytes, (double)attn_decode_bytes(&s, 0));
    cr_assert_eq(decode_measure(&s, 0, arena, 100, 2, &d), INVENT_ERANGE, "arena too small");
    attn_shape a = {200, 2, 8, 0, 0.35f};
    const double f[2] = {0.3, 1.0};
    sparse_point p[2];
    double diff;
    cr_assert_eq(sparse_measure(&a, f, 2, 1, 7, p, &diff), INVENT_OK);
    cr_assert(diff <= REL_TOL, "sparse at f = 1 against dense: %.3g", diff);
    cr_assert_float_eq(p[1].key_fraction, 1.0, 1e-12);
    cr_assert_lt(p[0].key_fraction, 0.5);
    const double bad[1] = {0.0};
    cr_assert_eq(sparse_measure(&a, bad, 1, 1, 7, p, &diff), INVENT_ERANGE);
}

Test(stopwatch, median_of_odd_and_even_counts)
{
    double odd[] = {5.0, 1.0, 3.0}, even[] = {4.0, 1.0, 3.0, 2.0};
    cr_assert_eq(stopwatch_median(odd, 3), 3.0);
    cr_assert_eq(stopwatch_median(even, 4), 2.5);
    double t0 = stopwatch_now();
    cr_assert_geq(stopwatch_now(), t0);
}

Test(growth, recovers_the_exponent_of_a_power_law)
{
    double n[] = {64, 128, 256, 512}, quad[4], flat[4] = {3, 3, 3, 3}, p;
    for (int i = 0; i < 4; i++)
        quad[i] = 5.0 * n[i] * n[i];
    cr_assert_eq(growth_exponent(n, quad, 4, &p), INVENT_OK);
    cr_assert_float_eq(p, 2.0, 1e-12);
    cr_assert_eq(growth_exponent(n, flat, 4, &p), INVENT_OK);
    cr_assert_float_eq(p, 0.0, 1e-12);
    double bad[] = {1, 0, 2, 3};
    cr_assert_eq(growth_exponent(n, bad, 4, &p), INVENT_ERANGE);
    cr_assert_eq(growth_exponent(n, quad, 1, &p), INVENT_ERANGE);
    double same[] = {8, 8, 8, 8};
    cr_assert_eq(growth_exponent(same, quad, 4, &p), INVENT_ERANGE);
}
