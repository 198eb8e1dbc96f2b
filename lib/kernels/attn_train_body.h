/* The training attention's work items (attn_train.h), written once for a
 * vector of VW floats and compiled by each vector path (vec_avx512.c,
 * vec_avx2.c, vec_portable.c). One item is one (sequence b, head h) pair:
 * the head's keys (and, backward, values) are copied transposed, (dh, T),
 * so that the scores of one query against a tile of keys come out a vector
 * of keys at a time; each query then visits the key tiles its mask leaves,
 * at most ATTN_TILE keys each:
 *   forward   the online softmax of attn_kernels.h's contract, in base 2,
 *             ending with out_t = acc / l and lse_t = m + log2 l;
 *   backward  per tile of queries and keys: P = 2^(S - lse) recomputed row
 *             by row, dP = dO V_tile^T, dS = P o (dP - D); then dQ += dS K,
 *             dK += dS^T Q, dV += P^T dO, each output vector held in a
 *             register over the tile; dK, dV are the item's own until its end.
 * The including file defines vf, vu, VW, vf_exp2 (x <= 0), vf_sum and
 * TRAIN_FORWARD_ITEM, TRAIN_BACKWARD_ITEM (the items' names). */
#include <math.h>
#include <string.h>

#include "attn_kernels.h"
#include "attn_train.h"
#include "attn_train_job.h"
#include "status.h"
#include "vec_ops.h"

#define LOG2E 1.4426950408889634f

/* one item's pointers and buffers */
typedef struct {
    size_t T, C3, dqk, dh, tpad, see_future; /* C3: qkv's row; dqk, dh: the heads' sizes
                                                (queries and keys, values); see_future: 1
                                                when no mask */
    const float *q, *k, *v;               /* row 0 of head h in sequence b; rows C3 apart */
    float *kt, *vt, *dk, *dv, *s, *dp, *qs, *acc;
    float *ptile, *dstile; /* backward: (ATTN_TILE, ATTN_TILE) a tile's weights and dS */
} head_view;

INLINE head_view head_open(const attn_train_job *j, size_t item, int worker)
{
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, dqk = j->dk, dh = s->dh, tp = j->tpad;
    float *w = j->scratch + (size_t)worker * j->per_worker, *rows = w + 2 * (dqk + dh) * tp;
    const float *base = j->qkv + b * s->T * j->width;
    return (head_view){.T = s->T, .C3 = j->width, .dqk = dqk, .dh = dh, .tpad = tp,
                       .see_future = (size_t)s->see_future, .q = base + h * dqk,
                       .k = base + (s->H + h) * dqk, .v = base + 2 * s->H * dqk + h * dh,
                       .kt = w, .vt = w + dqk * tp, .dk = w + (dqk + dh) * tp,
                       .dv = w + (2 * dqk + dh) * tp, .s = rows, .dp = rows + tp,
                       .qs = rows + 2 * tp, .acc = rows + 2 * tp + dqk,
                       .ptile = rows + 2 * tp + dqk + dh,
                       .dstile = rows + 2 * tp + dqk + dh + ATTN_TILE * ATTN_TILE};
}

/* rows: (T, dh), C3 apart -> t: (dh, tpad), zero past T */
INLINE void transpose_rows(const float *rows, size_t C3, size_t T, size_t dh, size_t tpad,
                           float *t)
{
    for (size_t d = 0; d < dh; d++) {
        for (size_t i = 0; i < T; i++)
            t[d * tpad + i] = rows[i * C3 + d];
        memset(t + d * tpad + T, 0, (tpad - T) * sizeof(float));
    }
}

/* -> keys 0..n-1 query t sees */
INLINE size_t keys_seen(const head_view *v, size_t t)
{
    return v->see_future ? v->T : t + 1;
}

#define ROW_VECS (ATTN_TILE / VW) /* vectors of one row of a tile */

/* x: (dh), t: (dh, tpad) transposed rows, keys j0 .. j0+n-1 <= ATTN_TILE ->
 * out[0..n-1] = x . t[., j0 + i], whole vectors held in registers over dh
 * (lanes past n hold products with the zero padding or later keys, unused) */
INLINE void row_products(const float *x, const float *t, size_t dh, size_t tpad, size_t j0,
                         size_t n, float *out)
{
    size_t nv = (n + VW - 1) / VW;
    vf acc[ROW_VECS];
#pragma GCC unroll 16
    for (size_t c = 0; c < ROW_VECS; c++)
        acc[c] = vsplat(0.0f);
    for (size_t d = 0; d < dh; d++) {
        vf q = x[d] - (vf){0};
        const float *row = t + d * tpad + j0;
#pragma GCC unroll 16
        for (size_t c = 0; c < ROW_VECS; c++)
            if (c < nv)
                acc[c] += q * vload(row + c * VW);
    }
#pragma GCC unroll 16
    for (size_t c = 0; c < ROW_VECS; c++)
        if (c < nv)
            vstore(out + c * VW, acc[c]);
}

/* qs: (dh) the scaled query, keys j0 .. j0+n-1 -> s[0..n-1]: base-2 scores */
INLINE void row_scores(const head_view *v, size_t j0, size_t n, float *s)
{
    row_products(v->qs, v->kt, v->dqk, v->tpad, j0, n, s);
}

/* q: (dh) -> qs = q scale log2(e), so that scores come out in base 2 */
INLINE void scale_query(const head_view *v, const float *q, float scale)
{
    for (size_t d = 0; d < v->dqk; d++)
        v->qs[d] = q[d] * scale * LOG2E;
}

/* s: (n) base-2 scores -> s <- 2^(s - shift) in place, at most 1 */
INLINE void row_weights(float *s, size_t n, float shift)
{
    size_t i = 0;
    for (; i + VW <= n; i += VW) {
        vf x = vload(s + i) - shift;
        vstore(s + i, vf_exp2(VSELECT(x > 0.0f, vsplat(0.0f), x)));
    }
    for (; i < n; i++)
        s[i] = exp2f(fminf(s[i] - shift, 0.0f));
}

/* query t of the head -> out_t, lse_t by the online softmax over its key tiles */
INLINE void forward_row(const head_view *v, size_t t, float scale, float *out, float *lse)
{
    size_t n_all = keys_seen(v, t);
    float m = -INFINITY, l = 0.0f;
    scale_query(v, v->q + t * v->C3, scale);
    memset(v->acc, 0, v->dh * sizeof(float));
    for (size_t j0 = 0; j0 < n_all; j0 += ATTN_TILE) {
        size_t n = n_all - j0 < ATTN_TILE ? n_all - j0 : ATTN_TILE;
        row_scores(v, j0, n, v->s);
        float top = m;
        for (size_t i = 0; i < n; i++)
            top = fmaxf(top, v->s[i]);
        float alpha = exp2f(m - top);
        l = l * alpha + vexp2_shifted(v->s, n, top);
        vscale(v->acc, alpha, v->dh);
        for (size_t i = 0; i < n; i++)
            vaxpy(v->acc, v->s[i], v->v + (j0 + i) * v->C3, v->dh);
        m = top;
    }
    for (size_t d = 0; d < v->dh; d++)
        out[d] = v->acc[d] / l;
    *lse = m + log2f(l);
}

static int TRAIN_FORWARD_ITEM(void *ctx, size_t item, int worker)
{
    const attn_train_job *j = ctx;
    head_view v = head_open(j, item, worker);
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh;
    transpose_rows(v.k, v.C3, v.T, v.dqk, v.tpad, v.kt);
    for (size_t t = 0; t < v.T; t++)
        forward_row(&v, t, j->scale, j->o + (b * s->T + t) * C + h * s->dh,
                    j->l + (b * s->H + h) * s->T + t);
    return INVENT_OK;
}

/* dp[0..n-1] = dO_t . v_{j0+i} */
INLINE void row_value_grads(const head_view *v, const float *dout, size_t j0, size_t n)
{
    row_products(dout, v->vt, v->dh, v->tpad, j0, n, v->dp);
}

/* out: (dh) += scale sum_j coef[j cs] rows[j rs ..]: one vector of out at a time, held in
 * two registers (even and odd j, two chains in flight) over the n rows */
INLINE void add_rows(float *out, const float *coef, size_t cs, const float *rows, size_t rs,
                     size_t n, size_t dh, float scale)
{
    size_t c = 0;
    for (; c + VW <= dh; c += VW) {
        vf even = vsplat(0.0f), odd = vsplat(0.0f);
        size_t j = 0;
        for (; j + 2 <= n; j += 2) {
            even += (coef[j * cs] - (vf){0}) * vload(rows + j * rs + c);
            odd += (coef[(j + 1) * cs] - (vf){0}) * vload(rows + (j + 1) * rs + c);
        }
        if (j < n)
            even += (coef[j * cs] - (vf){0}) * vload(rows + j * rs + c);
        vstore(out + c, vload(out + c) + scale * (even + odd));
    }
    for (; c < dh; c++) {
        float acc = 0.0f;
        for (size_t j = 0; j < n; j++)
            acc += coef[j * cs] * rows[j * rs + c];
        out[c] += scale * acc;
    }
}

/* Where one tile of the backward pass reads and writes. */
typedef struct {
    size_t q0, nq, k0, nk;         /* its queries and keys */
    const float *out, *dout, *lse; /* head h of sequence b: rows C apart, (T) */
    size_t C;
} tile_span;

/* the tile's weights P and dS = P (dP - D), (nq, ATTN_TILE) each, row by row from
 * each query's log-sum-exp; entries past what a query sees are 0 */
INLINE void tile_grads(const head_view *v, const tile_span *ts, float scale)
{
    for (size_t r = 0; r < ts->nq; r++) {
        size_t t = ts->q0 + r, seen = keys_seen(v, t);
        size_t n = seen <= ts->k0 ? 0 : seen - ts->k0 < ts->nk ? seen - ts->k0 : ts->nk;
        float *P = v->ptile + r * ATTN_TILE, *dS = v->dstile + r * ATTN_TILE;
        memset(P, 0, ts->nk * sizeof(float));
        memset(dS, 0, ts->nk * sizeof(float));
        if (n == 0)
            continue;
        const float *dout = ts->dout + t * ts->C;
        float D = vdot(dout, ts->out + t * ts->C, v->dh);
        scale_query(v, v->q + t * v->C3, scale);
        row_scores(v, ts->k0, n, v->s);
        row_weights(v->s, n, ts->lse[t]);
        row_value_grads(v, dout, ts->k0, n);
        for (size_t i = 0; i < n; i++)
            P[i] = v->s[i], dS[i] = v->s[i] * (v->dp[i] - D);
    }
}

/* one tile: dQ rows += scale dS K, dK rows += dS^T Q, dV rows += P^T dO */
INLINE void tile_backward(const head_view *v, const tile_span *ts, float *dq, float scale)
{
    tile_grads(v, ts, scale);
    for (size_t r = 0; r < ts->nq; r++)
        add_rows(dq + (ts->q0 + r) * v->C3, v->dstile + r * ATTN_TILE, 1,
                 v->k + ts->k0 * v->C3, v->C3, ts->nk, v->dqk, scale);
    for (size_t i = 0; i < ts->nk; i++) {
        add_rows(v->dk + (ts->k0 + i) * v->dqk, v->dstile + i, ATTN_TILE, v->q + ts->q0 * v->C3,
                 v->C3, ts->nq, v->dqk, 1.0f);
        add_rows(v->dv + (ts->k0 + i) * v->dh, v->ptile + i, ATTN_TILE,
                 ts->dout + ts->q0 * ts->C, ts->C, ts->nq, v->dh, 1.0f);
    }
}

/* the item's dK: (T, dqk), dV: (T, dh) -> added to its columns of dqkv, dK scaled */
INLINE void add_key_value_grads(const head_view *v, float *dk_out, float *dv_out, float scale)
{
    for (size_t i = 0; i < v->T; i++) {
        for (size_t d = 0; d < v->dqk; d++)
            dk_out[i * v->C3 + d] += scale * v->dk[i * v->dqk + d];
        for (size_t d = 0; d < v->dh; d++)
            dv_out[i * v->C3 + d] += v->dv[i * v->dh + d];
    }
}

static int TRAIN_BACKWARD_ITEM(void *ctx, size_t item, int worker)
{
    const attn_train_job *j = ctx;
    head_view v = head_open(j, item, worker);
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh, dh = s->dh, dqk = v.dqk;
    transpose_rows(v.k, v.C3, v.T, dqk, v.tpad, v.kt);
    transpose_rows(v.v, v.C3, v.T, dh, v.tpad, v.vt);
    memset(v.dk, 0, (dqk + dh) * v.tpad * sizeof(float)); /* dk and dv, side by side */
    float *row = j->dqkv + b * s->T * v.C3, *dq = row + h * dqk;
    tile_span ts = {.out = j->out + b * s->T * C + h * dh, .dout = j->dout + b * s->T * C + h * dh,
                    .lse = j->lse + (b * s->H + h) * s->T, .C = C};
    for (ts.q0 = 0; ts.q0 < v.T; ts.q0 += ATTN_TILE) {
        ts.nq = v.T - ts.q0 < ATTN_TILE ? v.T - ts.q0 : ATTN_TILE;
        size_t keys = keys_seen(&v, ts.q0 + ts.nq - 1);
        for (ts.k0 = 0; ts.k0 < keys; ts.k0 += ATTN_TILE) {
            ts.nk = keys - ts.k0 < ATTN_TILE ? keys - ts.k0 : ATTN_TILE;
            tile_backward(&v, &ts, dq, j->scale);
        }
    }
    add_key_value_grads(&v, row + (s->H + h) * dqk, row + 2 * s->H * dqk + h * dh, j->scale);
    return INVENT_OK;
}

#undef LOG2E
#undef ROW_VECS
