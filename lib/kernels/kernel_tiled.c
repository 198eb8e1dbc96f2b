/* The tiled kernel: attention without the T x T matrix. Work items are
 * (head, query tile) pairs, shared between the worker threads; each worker
 * packs its query tile once, then streams the visible key tiles through a
 * running (online) softmax, as the contract in attn_kernels.h describes.
 * The two products on a tile are small register-blocked GEMMs written with
 * GCC vector extensions (8 floats at a time), compiled twice: for AVX2+FMA
 * and for any CPU, chosen at run time. They are not cblas_sgemm calls: at
 * 64 x 64 x 64 a library call costs more in packing and dispatch than the
 * product, and OpenBLAS would start its own threads inside ours. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn_kernels.h"
#include "simd.h"
#include "status.h"
#include "vexp.h"
#include "workers.h"

#define B ATTN_TILE

typedef struct {
    const attn_shape *s;
    const float *Q, *K, *V;
    float *out;
    size_t tiles;       /* query tiles per head */
    size_t dhp;         /* dh rounded up to 16 (two vectors) */
    size_t per_worker;  /* floats of scratch per worker */
    float *scratch;     /* workers * per_worker floats, 64-byte aligned */
    uint64_t *madds;    /* one counter per worker */
} tiled_job;

/* one worker's tiles, carved out of its scratch. Scores are kept with keys
 * down and queries across, so the running maximum and sum of every query
 * are plain lane-wise vector operations. */
typedef struct {
    float *qt;    /* (dh, B) the query tile, transposed (packed once) */
    float *k;     /* (B, dh) the key tile */
    float *v;     /* (B, dhp) the value tile */
    float *p;     /* (B keys, B queries) scores, then exp(score - m) */
    float *acc;   /* (B, dhp) unnormalised output */
    float *m;     /* (B) running maximum per query */
    float *l;     /* (B) running sum per query */
    float *alpha; /* (B) rescaling of this step per query */
} tiles;

#define INLINE static inline __attribute__((always_inline))

INLINE vexp_f8 load8(const float *p)
{
    vexp_f8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

INLINE void store8(float *p, vexp_f8 v) { memcpy(p, &v, sizeof v); }

/* k: (B, dh), qt: (dh, B) -> p: (B, B) = scale k qt, 4 keys x 16 queries
 * of accumulators at a time */
INLINE void tile_scores(const tiles *w, size_t dh, float scale)
{
    for (size_t r = 0; r < B; r += 4)
        for (size_t c = 0; c < B; c += 16) {
            vexp_f8 a[4][2] = {{{0}}};
            for (size_t d = 0; d < dh; d++) {
                vexp_f8 q0 = load8(w->qt + d * B + c), q1 = load8(w->qt + d * B + c + 8);
#pragma GCC unroll 4
                for (int i = 0; i < 4; i++) {
                    float k = w->k[(r + i) * dh + d];
                    a[i][0] += k * q0;
                    a[i][1] += k * q1;
                }
            }
#pragma GCC unroll 4
            for (int i = 0; i < 4; i++) {
                store8(w->p + (r + i) * B + c, a[i][0] * scale);
                store8(w->p + (r + i) * B + c + 8, a[i][1] * scale);
            }
        }
}

/* p: (keys, B), v: (keys, dhp) -> acc: (B, dhp) = alpha acc + p^T v */
INLINE void tile_values(const tiles *w, size_t dhp, size_t keys)
{
    for (size_t r = 0; r < B; r += 4)
        for (size_t c = 0; c < dhp; c += 16) {
            vexp_f8 a[4][2];
#pragma GCC unroll 4
            for (int i = 0; i < 4; i++) {
                a[i][0] = load8(w->acc + (r + i) * dhp + c) * w->alpha[r + i];
                a[i][1] = load8(w->acc + (r + i) * dhp + c + 8) * w->alpha[r + i];
            }
            for (size_t j = 0; j < keys; j++) {
                vexp_f8 v0 = load8(w->v + j * dhp + c), v1 = load8(w->v + j * dhp + c + 8);
#pragma GCC unroll 4
                for (int i = 0; i < 4; i++) {
                    float p = w->p[j * B + r + i];
                    a[i][0] += p * v0;
                    a[i][1] += p * v1;
                }
            }
#pragma GCC unroll 4
            for (int i = 0; i < 4; i++) {
                store8(w->acc + (r + i) * dhp + c, a[i][0]);
                store8(w->acc + (r + i) * dhp + c + 8, a[i][1]);
            }
        }
}

/* p: (B keys, B queries) <- -INFINITY where query i0+c may not see key
 * j0+r (causal, window, or past the end of the sequence) */
INLINE void tile_mask(const attn_shape *s, float *p, size_t i0, size_t j0)
{
    int full = j0 + B <= i0 + 1 && j0 + B <= s->T &&
               (!s->window || i0 + B - 1 - j0 < s->window);
    if (full)
        return;
    for (size_t r = 0; r < B; r++)
        for (size_t c = 0; c < B; c++) {
            size_t t = i0 + c, i = j0 + r;
            if (i > t || i >= s->T || (s->window && t - i >= s->window))
                p[r * B + c] = -INFINITY;
        }
}

/* The online step for 8 queries (columns c..c+7) over `keys` keys: p <-
 * exp(score - m'), l <- alpha l + sum, m <- m', alpha = exp(m - m'). A query
 * that has seen no key yet keeps m = -inf, l = 0 and gets p = 0. */
INLINE void online_columns(tiles *w, size_t c, size_t keys)
{
    const vexp_f8 zero = {0};
    vexp_f8 m_old = load8(w->m + c), m_new = m_old;
    for (size_t j = 0; j < keys; j++)
        m_new = vexp_max(m_new, load8(w->p + j * B + c));
    vexp_i8 none = m_new == zero - __builtin_inff();
    vexp_f8 shift = vexp_select(none, zero, m_new);
    vexp_f8 sum = zero;
    for (size_t j = 0; j < keys; j++) {
        vexp_f8 e = vexp8(load8(w->p + j * B + c) - shift);
        store8(w->p + j * B + c, e);
        sum += e;
    }
    vexp_f8 alpha = vexp_select(none, zero + 1.0f, vexp8(m_old - shift));
    store8(w->alpha + c, alpha);
    store8(w->l + c, alpha * load8(w->l + c) + sum);
    store8(w->m + c, m_new);
}

/* rows i0.. of head h (src: (T, H, dh)) -> dst: (B, width), zero-padded */
INLINE void pack_rows(const tiled_job *j, const float *src, size_t h, size_t i0, float *dst,
                      size_t width)
{
    const attn_shape *s = j->s;
    memset(dst, 0, B * width * sizeof *dst);
    for (size_t r = 0; r < B && i0 + r < s->T; r++)
        memcpy(dst + r * width, src + ((i0 + r) * s->H + h) * s->dh, s->dh * sizeof *dst);
}

/* queries i0.. of head h -> qt: (dh, B), transposed, zero-padded */
INLINE void pack_queries_transposed(const tiled_job *j, size_t h, size_t i0, float *qt)
{
    const attn_shape *s = j->s;
    memset(qt, 0, s->dh * B * sizeof *qt);
    for (size_t c = 0; c < B && i0 + c < s->T; c++) {
        const float *q = j->Q + ((i0 + c) * s->H + h) * s->dh;
        for (size_t d = 0; d < s->dh; d++)
            qt[d * B + c] = q[d];
    }
}

INLINE tiles carve(const tiled_job *j, int worker)
{
    float *f = j->scratch + (size_t)worker * j->per_worker;
    size_t sq = B * j->dhp;
    return (tiles){f, f + sq, f + 2 * sq, f + 3 * sq, f + 3 * sq + B * B,
                   f + 4 * sq + B * B, f + 4 * sq + B * B + B, f + 4 * sq + B * B + 2 * B};
}

INLINE int tiled_item(void *ctx, size_t item, int worker)
{
    const tiled_job *j = ctx;
    const attn_shape *s = j->s;
    size_t h = item % s->H, qt = j->tiles - 1 - item / s->H; /* heaviest tiles first */
    size_t i0 = qt * B;
    tiles w = carve(j, worker);
    pack_queries_transposed(j, h, i0, w.qt);
    memset(w.acc, 0, B * j->dhp * sizeof *w.acc);
    for (size_t r = 0; r < B; r++)
        w.m[r] = -INFINITY, w.l[r] = 0.0f;
    for (size_t kt = attn_first_key(s, i0) / B; kt <= qt; kt++) {
        size_t j0 = kt * B, keys = s->T - j0 < B ? s->T - j0 : B;
        pack_rows(j, j->K, h, j0, w.k, s->dh);
        pack_rows(j, j->V, h, j0, w.v, j->dhp);
        tile_scores(&w, s->dh, s->scale);
        tile_mask(s, w.p, i0, j0);
        for (size_t c = 0; c < B; c += 8)
            online_columns(&w, c, keys);
        tile_values(&w, j->dhp, keys);
        j->madds[worker] += 2 * (uint64_t)B * keys * s->dh;
    }
    for (size_t r = 0; r < B && i0 + r < s->T; r++) {
        float *o = j->out + ((i0 + r) * s->H + h) * s->dh;
        for (size_t d = 0; d < s->dh; d++)
            o[d] = w.acc[r * j->dhp + d] / w.l[r];
    }
    return INVENT_OK;
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma"))) static int item_avx2(void *ctx, size_t item, int worker)
{
    return tiled_item(ctx, item, worker);
}
#endif

static int item_portable(void *ctx, size_t item, int worker)
{
    return tiled_item(ctx, item, worker);
}

static workers_fn pick_item(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (simd_detect() == SIMD_AVX2_FMA)
        return item_avx2;
#endif
    return item_portable;
}

int attn_tiled(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
               attn_cost *cost)
{
    int status = attn_shape_check(s);
    if (status != INVENT_OK)
        return status;
    int workers = workers_count();
    size_t tiles_per_head = (s->T + B - 1) / B, dhp = (s->dh + 15) / 16 * 16;
    if (s->H > SIZE_MAX / tiles_per_head || dhp > (SIZE_MAX / sizeof(float) - 3 * B) / (4 * B))
        return INVENT_ERANGE;
    size_t per_worker = 4 * B * dhp + B * B + 3 * B;
    tiled_job j = {s, Q, K, V, out, tiles_per_head, dhp, per_worker, NULL, NULL};
    size_t bytes = (size_t)workers * per_worker * sizeof(float);
    j.scratch = aligned_alloc(64, (bytes + 63) / 64 * 64);
    j.madds = calloc((size_t)workers, sizeof *j.madds);
    if (j.scratch && j.madds)
        status = workers_run(tiles_per_head * s->H, workers, pick_item(), &j);
    else
        status = INVENT_ENOMEM;
    uint64_t madds = 0;
    for (int w = 0; j.madds && w < workers; w++)
        madds += j.madds[w];
    free(j.scratch);
    free(j.madds);
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, bytes + (size_t)workers * sizeof *j.madds};
    return status;
}
