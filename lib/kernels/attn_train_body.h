/* The training attention's work items (attn_train.h), written once for a
 * vector of VW floats and compiled by each vector path (vec_avx512.c,
 * vec_avx2.c, vec_portable.c). One item is one (sequence b, head h) pair:
 * the head's keys (and, backward, values) are copied transposed, (dh, T),
 * so that the scores of one query against a tile of keys come out a vector
 * of keys at a time; each query then visits the key tiles its mask leaves,
 * at most ATTN_TILE keys each:
 *   forward   the online softmax of attn_kernels.h's contract, in base 2,
 *             ending with out_t = acc / l and lse_t = m + log2 l;
 *   backward  p = 2^(s - lse_t) recomputed on the tile, dp = V_tile dO_t,
 *             ds = p (dp - D_t); dq += ds K_tile; dK_tile += ds q_t;
 *             dV_tile += p dO_t; dK, dV are the item's own until its end.
 * The including file defines vf, vu, VW, vf_exp2 (x <= 0), vf_sum and
 * TRAIN_FORWARD_ITEM, TRAIN_BACKWARD_ITEM (the items' names). */
#include <math.h>
#include <string.h>

#include "attn_kernels.h"
#include "attn_train_job.h"
#include "status.h"
#include "vec_ops.h"

#define LOG2E 1.4426950408889634f

/* one item's pointers and buffers */
typedef struct {
    size_t T, C3, dh, tpad, see_future; /* see_future: 1 when no mask */
    const float *q, *k, *v;               /* row 0 of head h in sequence b; rows C3 apart */
    float *kt, *vt, *dk, *dv, *s, *dp, *qs, *acc;
} head_view;

INLINE head_view head_open(const attn_train_job *j, size_t item, int worker)
{
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh, dh = s->dh, tp = j->tpad;
    float *w = j->scratch + (size_t)worker * j->per_worker;
    const float *base = j->qkv + b * s->T * 3 * C + h * dh;
    return (head_view){.T = s->T, .C3 = 3 * C, .dh = dh, .tpad = tp,
                       .see_future = (size_t)s->see_future, .q = base, .k = base + C,
                       .v = base + 2 * C, .kt = w, .vt = w + dh * tp, .dk = w + 2 * dh * tp,
                       .dv = w + 3 * dh * tp, .s = w + 4 * dh * tp, .dp = w + 4 * dh * tp + tp,
                       .qs = w + 4 * dh * tp + 2 * tp, .acc = w + 4 * dh * tp + 2 * tp + dh};
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

/* qs: (dh) the scaled query, keys j0 .. j0+n-1 -> s[0..n-1]: base-2 scores, whole
 * vectors (lanes past n hold scores of the zero padding or later keys, unused) */
INLINE void row_scores(const head_view *v, size_t j0, size_t n, float *s)
{
    size_t nv = (n + VW - 1) / VW;
    for (size_t c = 0; c < nv; c++)
        vstore(s + c * VW, vsplat(0.0f));
    for (size_t d = 0; d < v->dh; d++) {
        vf q = vsplat(v->qs[d]);
        const float *row = v->kt + d * v->tpad + j0;
        for (size_t c = 0; c < nv; c++)
            vstore(s + c * VW, vload(s + c * VW) + q * vload(row + c * VW));
    }
}

/* q: (dh) -> qs = q scale log2(e), so that scores come out in base 2 */
INLINE void scale_query(const head_view *v, const float *q, float scale)
{
    for (size_t d = 0; d < v->dh; d++)
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
    float scale = 1.0f / sqrtf((float)s->dh);
    transpose_rows(v.k, v.C3, v.T, v.dh, v.tpad, v.kt);
    for (size_t t = 0; t < v.T; t++)
        forward_row(&v, t, scale, j->o + (b * s->T + t) * C + h * s->dh,
                    j->l + (b * s->H + h) * s->T + t);
    return INVENT_OK;
}

/* dp[0..n-1] = dO_t . v_{j0+i}, a vector of keys at a time */
INLINE void row_value_grads(const head_view *v, const float *dout, size_t j0, size_t n)
{
    size_t nv = (n + VW - 1) / VW;
    for (size_t c = 0; c < nv; c++)
        vstore(v->dp + c * VW, vsplat(0.0f));
    for (size_t d = 0; d < v->dh; d++) {
        vf g = vsplat(dout[d]);
        const float *row = v->vt + d * v->tpad + j0;
        for (size_t c = 0; c < nv; c++)
            vstore(v->dp + c * VW, vload(v->dp + c * VW) + g * vload(row + c * VW));
    }
}

/* query t: its tiles' weights recomputed from lse; dq (v->acc) += ds K, dK += ds q_t,
 * dV += p dO_t */
INLINE void backward_row(const head_view *v, size_t t, float scale, const float *out,
                         const float *dout, float lse)
{
    size_t n_all = keys_seen(v, t);
    const float *q = v->q + t * v->C3;
    float D = vdot(dout, out, v->dh);
    scale_query(v, q, scale);
    for (size_t j0 = 0; j0 < n_all; j0 += ATTN_TILE) {
        size_t n = n_all - j0 < ATTN_TILE ? n_all - j0 : ATTN_TILE;
        row_scores(v, j0, n, v->s);
        row_weights(v->s, n, lse);
        row_value_grads(v, dout, j0, n);
        for (size_t i = 0; i < n; i++) {
            float p = v->s[i], ds = p * (v->dp[i] - D);
            vaxpy(v->acc, ds, v->k + (j0 + i) * v->C3, v->dh);
            vaxpy(v->dk + (j0 + i) * v->dh, ds, q, v->dh);
            vaxpy(v->dv + (j0 + i) * v->dh, p, dout, v->dh);
        }
    }
}

/* the item's dK, dV: (T, dh) -> added to its columns of dqkv, dK scaled */
INLINE void add_key_value_grads(const head_view *v, float *dk_out, float scale)
{
    for (size_t i = 0; i < v->T; i++)
        for (size_t d = 0; d < v->dh; d++) {
            dk_out[i * v->C3 + d] += scale * v->dk[i * v->dh + d];
            dk_out[i * v->C3 + v->C3 / 3 + d] += v->dv[i * v->dh + d];
        }
}

static int TRAIN_BACKWARD_ITEM(void *ctx, size_t item, int worker)
{
    const attn_train_job *j = ctx;
    head_view v = head_open(j, item, worker);
    const attn_train_shape *s = j->s;
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh, dh = s->dh;
    float scale = 1.0f / sqrtf((float)dh);
    transpose_rows(v.k, v.C3, v.T, dh, v.tpad, v.kt);
    transpose_rows(v.v, v.C3, v.T, dh, v.tpad, v.vt);
    memset(v.dk, 0, 2 * dh * v.tpad * sizeof(float)); /* dk and dv, side by side */
    float *dq = j->dqkv + b * s->T * 3 * C + h * dh;
    for (size_t t = 0; t < v.T; t++) {
        size_t row = (b * s->T + t) * C + h * dh;
        memset(v.acc, 0, dh * sizeof(float));
        backward_row(&v, t, scale, j->out + row, j->dout + row, j->lse[(b * s->H + h) * s->T + t]);
        vaxpy(dq + t * 3 * C, scale, v.acc, dh);
    }
    add_key_value_grads(&v, dq + C, scale);
    return INVENT_OK;
}

#undef LOG2E
