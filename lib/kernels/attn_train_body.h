/* The training attention's work items (attn_train.h), written once for a
 * vector of VW floats and compiled by each vector path (vec_avx512.c,
 * vec_avx2.c, vec_portable.c). One item is one (sequence b, head h) pair.
 * Its products are small matrix products on gemm32's register-blocked
 * micro-kernel (gemm32_body.h, GEMM_MICRO): the head's keys and values are
 * first packed into panels of NR columns, as that kernel reads its right
 * operand (K^T and V^T by keys, K, Q, V and dO by their features), and a
 * tile of at most ATTN_TILE queries meets a tile of at most ATTN_TILE keys,
 * a block of GEMM_MR rows at a time, skipping what the causal mask hides:
 *   forward   S = Q K^T, then per query the online softmax of
 *             attn_kernels.h's contract in base 2 (P = 2^(scale log2(e) S - m),
 *             acc = acc 2^(m_old - m) + P V), ending with out_t = acc / l and
 *             lse_t = m + log2 l;
 *   backward  per tile: S = Q K^T and dP = dO V^T, then P = 2^(scale log2(e)
 *             S - lse) recomputed and dS = scale P o (dP - D); then
 *             dQ += dS K, dK += dS^T Q, dV += P^T dO, added straight into
 *             the item's own columns of dqkv (zeroed by the item first).
 * The including file defines vf, VW, vf_exp2 (x <= 0), vf_max, vf_sum, TRAIN_FORWARD_ITEM,
 * TRAIN_BACKWARD_ITEM (the items' names), and includes gemm32_body.h first. */
#include <math.h>
#include <string.h>

#include "attn_kernels.h"
#include "attn_train.h"
#include "attn_train_job.h"
#include "status.h"
#include "vec_ops.h"

#define LOG2E 1.4426950408889634f
#define ATT_NR (GEMM_NV * VW) /* columns of a packed panel, the micro-kernel's */

/* one item's pointers and buffers */
typedef struct {
    size_t T, C3, dqk, dh, see_future; /* C3: qkv's row; dqk, dh: the heads' sizes (queries
                                          and keys, values); see_future: 1 when no mask */
    const float *q, *k, *v;            /* row 0 of head h in sequence b; rows C3 apart */
    float c;                           /* scale log2(e): raw scores to base 2 */
    float *kt, *vt;       /* K^T, V^T packed by keys: (keys / NR panels, d, NR) */
    float *kp, *qp, *bp;  /* K, Q, and V (forward) or dO (backward) by features:
                             (d / NR panels, T, NR) */
    float *s, *dp;        /* (ATTN_TILE, ATTN_TILE): S then P; dP then dS */
    float *acc, *m, *l;   /* forward: (ATTN_TILE, dh) outputs; (ATTN_TILE) maxima, sums */
} head_view;

/* n columns -> panels of ATT_NR */
INLINE size_t panels_of(size_t n)
{
    return (n + ATT_NR - 1) / ATT_NR;
}

INLINE head_view head_open(const attn_train_job *j, size_t item, int worker)
{
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, dqk = j->dk, dh = s->dh, T = s->T;
    size_t keys = panels_of(T) * ATT_NR, dqkp = panels_of(dqk) * ATT_NR;
    float *w = j->scratch + (size_t)worker * j->per_worker;
    const float *base = j->qkv + b * T * j->width;
    head_view v = {.T = T, .C3 = j->width, .dqk = dqk, .dh = dh,
                   .see_future = (size_t)s->see_future, .q = base + h * dqk,
                   .k = base + (s->H + h) * dqk, .v = base + 2 * s->H * dqk + h * dh,
                   .c = j->scale * LOG2E, .kt = w};
    v.vt = v.kt + keys * dqk, v.kp = v.vt + keys * dh, v.qp = v.kp + T * dqkp;
    v.bp = v.qp + T * dqkp, v.s = v.bp + T * panels_of(dh) * ATT_NR;
    v.dp = v.s + ATTN_TILE * ATTN_TILE, v.acc = v.dp + ATTN_TILE * ATTN_TILE;
    v.m = v.acc + ATTN_TILE * dh, v.l = v.m + ATTN_TILE;
    return v;
}

/* rows: (n, d), rs apart -> out: (panels_of(d), n, NR), B = rows, zero past d */
INLINE void pack_by_features(const float *rows, size_t rs, size_t n, size_t d, float *out)
{
    for (size_t q = 0; q < panels_of(d); q++) {
        size_t cols = d - q * ATT_NR < ATT_NR ? d - q * ATT_NR : ATT_NR;
        float *panel = out + q * n * ATT_NR;
        const float *from = rows + q * ATT_NR;
        for (size_t i = 0; i < n && cols == ATT_NR; i++)
#pragma GCC unroll 4
            for (int c = 0; c < GEMM_NV; c++)
                vstore(panel + i * ATT_NR + c * VW, vload(from + i * rs + c * VW));
        for (size_t i = 0; i < n && cols < ATT_NR; i++)
            for (size_t c = 0; c < ATT_NR; c++)
                panel[i * ATT_NR + c] = c < cols ? from[i * rs + c] : 0.0f;
    }
}

/* rows: (n, d), rs apart -> out: (panels_of(n), d, NR), B = rows^T, zero past n */
INLINE void pack_by_rows(const float *rows, size_t rs, size_t n, size_t d, float *out)
{
    for (size_t q = 0; q < panels_of(n); q++) {
        size_t cols = n - q * ATT_NR < ATT_NR ? n - q * ATT_NR : ATT_NR;
        float *panel = out + q * d * ATT_NR;
        for (size_t p = 0; p < d; p++) {
            for (size_t c = 0; c < cols; c++)
                panel[p * ATT_NR + c] = rows[(q * ATT_NR + c) * rs + p];
            memset(panel + p * ATT_NR + cols, 0, (ATT_NR - cols) * sizeof(float));
        }
    }
}

/* -> keys 0..n-1 query t sees */
INLINE size_t keys_seen(const head_view *v, size_t t)
{
    return v->see_future ? v->T : t + 1;
}

/* One tile: queries q0..q0+nq-1 against keys k0..k0+nk-1 (k0 a multiple of ATTN_TILE). */
typedef struct {
    size_t q0, nq, k0, nk;
} tile_span;

/* -> the keys of the tile that query q0 + r sees */
INLINE size_t tile_keys(const head_view *v, const tile_span *ts, size_t r)
{
    size_t seen = keys_seen(v, ts->q0 + r);
    return seen <= ts->k0 ? 0 : seen - ts->k0 < ts->nk ? seen - ts->k0 : ts->nk;
}

/* a: the tile's queries' rows (a_rs apart, d long), bt: packed rows^T (pack_by_rows) ->
 * out: (nq, ATTN_TILE) = a bt over the tile's keys, where some query of the block sees them
 * (0 elsewhere) */
INLINE void tile_products(const head_view *v, const tile_span *ts, const float *a, size_t a_rs,
                        const float *bt, size_t d, float *out)
{
    memset(out, 0, ts->nq * ATTN_TILE * sizeof(float));
    for (size_t i0 = 0; i0 < ts->nq; i0 += GEMM_MR) {
        size_t mr = ts->nq - i0 < GEMM_MR ? ts->nq - i0 : GEMM_MR;
        size_t cols = tile_keys(v, ts, i0 + mr - 1);
        for (size_t q = 0; q < panels_of(cols); q++)
            GEMM_MICRO(d, a + (ts->q0 + i0) * a_rs, a_rs, 1, mr,
                       bt + (ts->k0 / ATT_NR + q) * d * ATT_NR, ATT_NR,
                       out + i0 * ATTN_TILE + q * ATT_NR, ATTN_TILE,
                       cols - q * ATT_NR < ATT_NR ? cols - q * ATT_NR : ATT_NR, 1);
    }
}

/* c: (nq rows, ldc apart; d columns) += W b over the tile's keys, W: (nq, ATTN_TILE)
 * weights (0 past what each query sees), b: packed by features (pack_by_features) */
INLINE void tile_weighted_rows(const head_view *v, const tile_span *ts, const float *W,
                               const float *b, size_t d, float *c, size_t ldc)
{
    for (size_t i0 = 0; i0 < ts->nq; i0 += GEMM_MR) {
        size_t mr = ts->nq - i0 < GEMM_MR ? ts->nq - i0 : GEMM_MR;
        size_t kc = tile_keys(v, ts, i0 + mr - 1);
        for (size_t q = 0; kc && q < panels_of(d); q++)
            GEMM_MICRO(kc, W + i0 * ATTN_TILE, ATTN_TILE, 1, mr,
                       b + q * v->T * ATT_NR + ts->k0 * ATT_NR, ATT_NR, c + i0 * ldc + q * ATT_NR,
                       ldc, d - q * ATT_NR < ATT_NR ? d - q * ATT_NR : ATT_NR, 1);
    }
}

/* c: (nk rows of keys, ldc apart; d columns) += W^T b over the tile's queries, W as
 * tile_weighted_rows', b: packed by features, its rows the queries */
INLINE void tile_weighted_keys(const head_view *v, const tile_span *ts, const float *W,
                               const float *b, size_t d, float *c, size_t ldc)
{
    for (size_t i0 = 0; i0 < ts->nk; i0 += GEMM_MR) {
        size_t mr = ts->nk - i0 < GEMM_MR ? ts->nk - i0 : GEMM_MR;
        size_t first = v->see_future || ts->k0 + i0 <= ts->q0 ? 0 : ts->k0 + i0 - ts->q0;
        if (first >= ts->nq)
            break;
        for (size_t q = 0; q < panels_of(d); q++)
            GEMM_MICRO(ts->nq - first, W + first * ATTN_TILE + i0, 1, ATTN_TILE, mr,
                       b + q * v->T * ATT_NR + (ts->q0 + first) * ATT_NR, ATT_NR,
                       c + i0 * ldc + q * ATT_NR, ldc,
                       d - q * ATT_NR < ATT_NR ? d - q * ATT_NR : ATT_NR, 1);
    }
}

/* -> lanes 0, 1, .., VW - 1 */
INLINE vf lane_index(void)
{
    vf at;
    for (int k = 0; k < VW; k++)
        at[k] = (float)k;
    return at;
}

/* s: (n, in whole vectors up to ATTN_TILE) raw scores -> the largest of c s[i] and floor */
INLINE float row_top(const float *s, size_t n, float c, float floor)
{
    vf top = vsplat(floor), at = lane_index();
    for (size_t i = 0; i < n; i += VW)
        top = vf_max(top, VSELECT(at + (float)i < (float)n, c * vload(s + i), vsplat(floor)));
    float t[VW];
    vstore(t, top);
    for (int w = VW / 2; w >= 1; w /= 2) /* a tree: log2(VW) steps deep */
        for (int k = 0; k < w; k++)
            t[k] = t[k] > t[k + w] ? t[k] : t[k + w];
    return t[0];
}

/* s: (nk <= ATTN_TILE) raw scores -> s[0..n-1] <- 2^(c s - shift), at most 1, s[n..nk-1] <- 0;
 * -> their sum (whole vectors: the row has room up to ATTN_TILE) */
INLINE float row_weights(float *s, size_t n, size_t nk, float c, float shift)
{
    vf total = vsplat(0.0f), at = lane_index();
    size_t i = 0;
    for (; i < n; i += VW) {
        vf x = c * vload(s + i) - shift, p = vf_exp2(VSELECT(x > 0.0f, vsplat(0.0f), x));
        p = VSELECT(at + (float)i < (float)n, p, vsplat(0.0f));
        vstore(s + i, p);
        total += p;
    }
    for (; i < nk; i += VW)
        vstore(s + i, vsplat(0.0f));
    return vf_sum(total);
}

/* the tile's rows of S -> P by the online softmax (m, l updated, acc rescaled) */
INLINE void tile_online_softmax(const head_view *v, const tile_span *ts)
{
    for (size_t r = 0; r < ts->nq; r++) {
        size_t n = tile_keys(v, ts, r);
        float *s = v->s + r * ATTN_TILE, top = row_top(s, n, v->c, v->m[r]);
        float sum = row_weights(s, n, ts->nk, v->c, top);
        if (n == 0)
            continue;
        float alpha = exp2f(v->m[r] - top);
        v->l[r] = v->l[r] * alpha + sum;
        vscale(v->acc + r * v->dh, alpha, v->dh);
        v->m[r] = top;
    }
}

static int TRAIN_FORWARD_ITEM(void *ctx, size_t item, int worker)
{
    const attn_train_job *j = ctx;
    head_view v = head_open(j, item, worker);
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh;
    pack_by_rows(v.k, v.C3, v.T, v.dqk, v.kt);
    pack_by_features(v.v, v.C3, v.T, v.dh, v.bp);
    tile_span ts;
    for (ts.q0 = 0; ts.q0 < v.T; ts.q0 += ATTN_TILE) {
        ts.nq = v.T - ts.q0 < ATTN_TILE ? v.T - ts.q0 : ATTN_TILE;
        memset(v.acc, 0, ts.nq * v.dh * sizeof(float));
        for (size_t r = 0; r < ts.nq; r++)
            v.m[r] = -INFINITY, v.l[r] = 0.0f;
        size_t keys = keys_seen(&v, ts.q0 + ts.nq - 1);
        for (ts.k0 = 0; ts.k0 < keys; ts.k0 += ATTN_TILE) {
            ts.nk = keys - ts.k0 < ATTN_TILE ? keys - ts.k0 : ATTN_TILE;
            tile_products(&v, &ts, v.q, v.C3, v.kt, v.dqk, v.s);
            tile_online_softmax(&v, &ts);
            tile_weighted_rows(&v, &ts, v.s, v.bp, v.dh, v.acc, v.dh);
        }
        for (size_t r = 0; r < ts.nq; r++) {
            float *out = j->o + (b * s->T + ts.q0 + r) * C + h * s->dh;
            memcpy(out, v.acc + r * v.dh, v.dh * sizeof(float));
            vscale(out, 1.0f / v.l[r], v.dh);
            j->l[(b * s->H + h) * s->T + ts.q0 + r] = v.m[r] + log2f(v.l[r]);
        }
    }
    return INVENT_OK;
}

/* the tile's S and dP -> P (in s) and dS = scale P (dP - D) (in dp) */
INLINE void tile_grads(const head_view *v, const tile_span *ts, const float *out,
                       const float *dout, size_t C, const float *lse, float scale)
{
    for (size_t r = 0; r < ts->nq; r++) {
        size_t t = ts->q0 + r, n = tile_keys(v, ts, r);
        float *P = v->s + r * ATTN_TILE, *dS = v->dp + r * ATTN_TILE;
        float D = n ? vdot(dout + t * C, out + t * C, v->dh) : 0.0f;
        row_weights(P, n, ts->nk, v->c, lse[t]);
        for (size_t i = 0; i < ts->nk; i += VW)
            vstore(dS + i, scale * (vload(P + i) * (vload(dS + i) - D)));
    }
}

static int TRAIN_BACKWARD_ITEM(void *ctx, size_t item, int worker)
{
    const attn_train_job *j = ctx;
    head_view v = head_open(j, item, worker);
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh, dh = s->dh, dqk = v.dqk;
    const float *out = j->out + b * s->T * C + h * dh, *dout = j->dout + b * s->T * C + h * dh;
    const float *lse = j->lse + (b * s->H + h) * s->T;
    float *row = j->dqkv + b * s->T * v.C3, *dq = row + h * dqk, *dk = row + (s->H + h) * dqk;
    float *dv = row + 2 * s->H * dqk + h * dh;
    for (size_t t = 0; t < v.T; t++) { /* the item's columns of dqkv, added to below */
        memset(dq + t * v.C3, 0, dqk * sizeof(float));
        memset(dk + t * v.C3, 0, dqk * sizeof(float));
        memset(dv + t * v.C3, 0, dh * sizeof(float));
    }
    pack_by_rows(v.k, v.C3, v.T, dqk, v.kt);
    pack_by_rows(v.v, v.C3, v.T, dh, v.vt);
    pack_by_features(v.k, v.C3, v.T, dqk, v.kp);
    pack_by_features(v.q, v.C3, v.T, dqk, v.qp);
    pack_by_features(dout, C, v.T, dh, v.bp);
    tile_span ts;
    for (ts.q0 = 0; ts.q0 < v.T; ts.q0 += ATTN_TILE) {
        ts.nq = v.T - ts.q0 < ATTN_TILE ? v.T - ts.q0 : ATTN_TILE;
        size_t keys = keys_seen(&v, ts.q0 + ts.nq - 1);
        for (ts.k0 = 0; ts.k0 < keys; ts.k0 += ATTN_TILE) {
            ts.nk = keys - ts.k0 < ATTN_TILE ? keys - ts.k0 : ATTN_TILE;
            tile_products(&v, &ts, v.q, v.C3, v.kt, dqk, v.s);
            tile_products(&v, &ts, dout, C, v.vt, dh, v.dp);
            tile_grads(&v, &ts, out, dout, C, lse, j->scale);
            tile_weighted_rows(&v, &ts, v.dp, v.kp, dqk, dq + ts.q0 * v.C3, v.C3);
            tile_weighted_keys(&v, &ts, v.dp, v.qp, dqk, dk + ts.k0 * v.C3, v.C3);
            tile_weighted_keys(&v, &ts, v.s, v.bp, dh, dv + ts.k0 * v.C3, v.C3);
        }
    }
    return INVENT_OK;
}

#undef LOG2E
#undef ATT_NR
