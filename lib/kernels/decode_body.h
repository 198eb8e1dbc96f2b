/* The decode kernel's work item (attn_decode.h), written once for a vector
 * of VW floats and compiled by each vector path. One item is a chunk of
 * consecutive cached tokens, read front to back in blocks of DECODE_BLOCK
 * tokens: the block's key rows are scored against every head, the online
 * softmax step rescales each head's running sum and output, then the
 * block's value rows are added (still in cache when K == V). Where several
 * heads share a key-value head, register blocks of DECODE_HEADS heads by 4
 * tokens (scores) and by 4 vectors of columns (values) reuse every key and
 * value vector loaded; one head per key-value head (the usual cache) is
 * limited by memory, not by these loops.
 *
 * The including file defines vf, VW, vf_sum, vf_exp2 (as for tile_body.h),
 * DECODE_HEADS (1 to 4) and DECODE_ITEM, the function's name. */
#include <math.h>
#include <string.h>

#include "decode_job.h"
#include "status.h"
#include "vec_ops.h"

/* q: (DECODE_HEADS, dh), 4 key rows from k (kld apart) -> S: rows of
 * DECODE_BLOCK, S[a][b] = q_a . k_b */
INLINE void score_block(const float *q, const float *k, size_t kld, size_t dh, float *S)
{
    vf acc[DECODE_HEADS][4] = {{{0}}};
    size_t d = 0;
    for (; d + VW <= dh; d += VW) {
        vf kv[4];
#pragma GCC unroll 4
        for (int b = 0; b < 4; b++)
            kv[b] = vload(k + b * kld + d);
#pragma GCC unroll 4
        for (int a = 0; a < DECODE_HEADS; a++) {
            vf qa = vload(q + a * dh + d);
#pragma GCC unroll 4
            for (int b = 0; b < 4; b++)
                acc[a][b] += qa * kv[b];
        }
    }
#pragma GCC unroll 4
    for (int a = 0; a < DECODE_HEADS; a++)
#pragma GCC unroll 4
        for (int b = 0; b < 4; b++) {
            float sum = vf_sum(acc[a][b]);
            for (size_t e = d; e < dh; e++)
                sum += q[a * dh + e] * k[b * kld + e];
            S[a * DECODE_BLOCK + b] = sum;
        }
}

/* tokens t0 .. t0+n-1 -> S: (H, DECODE_BLOCK) base-2 scores */
INLINE void decode_scores(const decode_job *j, size_t t0, size_t n, float *S)
{
    const attn_decode_shape *s = j->s;
    size_t G = s->H / s->Hkv, kld = s->Hkv * s->dh;
    for (size_t g = 0; g < s->Hkv; g++) {
        const float *k = j->K + (t0 * s->Hkv + g) * s->dh;
        size_t h = g * G, end = h + G, i = 0;
        for (; h + DECODE_HEADS <= end; h += DECODE_HEADS) {
            for (i = 0; i + 4 <= n; i += 4)
                score_block(j->q + h * s->dh, k + i * kld, kld, s->dh,
                            S + h * DECODE_BLOCK + i);
            for (; i < n; i++)
                for (size_t a = h; a < h + DECODE_HEADS; a++)
                    S[a * DECODE_BLOCK + i] = vdot(j->q + a * s->dh, k + i * kld, s->dh);
        }
        for (; h < end; h++)
            for (i = 0; i < n; i++)
                S[h * DECODE_BLOCK + i] = vdot(j->q + h * s->dh, k + i * kld, s->dh);
    }
}

/* The online step per head over n scores: m' = max(m, max S), S <- 2^(S -
 * m'), l <- 2^(m - m') l + sum, acc <- 2^(m - m') acc. */
INLINE void decode_softmax(const attn_decode_shape *s, float *S, size_t n, float *m, float *l,
                           float *acc)
{
    for (size_t h = 0; h < s->H; h++) {
        float m_new = m[h];
        for (size_t i = 0; i < n; i++)
            m_new = fmaxf(m_new, S[h * DECODE_BLOCK + i]);
        float alpha = exp2f(m[h] - m_new);
        l[h] = alpha * l[h] + vexp2_shifted(S + h * DECODE_BLOCK, n, m_new);
        m[h] = m_new;
        if (alpha != 1.0f)
            vscale(acc + h * s->dh, alpha, s->dh);
    }
}

/* DECODE_HEADS heads' weights S (rows of DECODE_BLOCK), n value rows from v
 * (vld apart) -> acc rows (dh apart) += the weighted sum, on 4 vectors of
 * columns: the register block that reuses each value vector loaded */
INLINE void value_block(const float *S, const float *v, size_t vld, size_t n, float *acc,
                        size_t dh)
{
    vf a[DECODE_HEADS][4];
#pragma GCC unroll 4
    for (int h = 0; h < DECODE_HEADS; h++)
#pragma GCC unroll 4
        for (int x = 0; x < 4; x++)
            a[h][x] = vload(acc + h * dh + x * VW);
    for (size_t i = 0; i < n; i++) {
        vf vv[4];
#pragma GCC unroll 4
        for (int x = 0; x < 4; x++)
            vv[x] = vload(v + i * vld + x * VW);
#pragma GCC unroll 4
        for (int h = 0; h < DECODE_HEADS; h++) {
            float w = S[h * DECODE_BLOCK + i];
#pragma GCC unroll 4
            for (int x = 0; x < 4; x++)
                a[h][x] += w * vv[x];
        }
    }
#pragma GCC unroll 4
    for (int h = 0; h < DECODE_HEADS; h++)
#pragma GCC unroll 4
        for (int x = 0; x < 4; x++)
            vstore(acc + h * dh + x * VW, a[h][x]);
}

/* heads h..end of one key-value head, columns d0..dh, tokens 0..n-1 of v ->
 * acc += the weighted sums, one token at a time (what the blocks leave) */
INLINE void value_rows(const float *S, const float *v, size_t vld, size_t n, float *acc,
                       size_t dh, size_t h, size_t end, size_t d0)
{
    for (size_t i = 0; i < n; i++)
        for (size_t a = h; a < end; a++)
            vaxpy(acc + a * dh + d0, S[a * DECODE_BLOCK + i], v + i * vld + d0, dh - d0);
}

/* tokens t0 .. t0+n-1, weights S -> acc: (H, dh) += sum_i S[h][i] v_i */
INLINE void decode_values(const decode_job *j, size_t t0, size_t n, const float *S, float *acc)
{
    const attn_decode_shape *s = j->s;
    size_t G = s->H / s->Hkv, vld = s->Hkv * s->dh, cols = s->dh / (4 * VW) * 4 * VW;
    for (size_t g = 0; g < s->Hkv; g++) {
        const float *v = j->V + (t0 * s->Hkv + g) * s->dh;
        size_t h0 = g * G, end = h0 + G, blocked = h0 + G / DECODE_HEADS * DECODE_HEADS;
        for (size_t d0 = 0; d0 < cols; d0 += 4 * VW) /* the same value columns for all heads */
            for (size_t h = h0; h < blocked; h += DECODE_HEADS)
                value_block(S + h * DECODE_BLOCK, v + d0, vld, n, acc + h * s->dh + d0, s->dh);
        value_rows(S, v, vld, n, acc, s->dh, h0, blocked, cols);
        value_rows(S, v, vld, n, acc, s->dh, blocked, end, 0);
    }
}

int DECODE_ITEM(void *ctx, size_t item, int worker)
{
    const decode_job *j = ctx;
    const attn_decode_shape *s = j->s;
    size_t t0 = item * j->chunk, t1 = t0 + j->chunk < s->T ? t0 + j->chunk : s->T;
    float *m = j->partial + item * s->H * (s->dh + 2), *l = m + s->H, *acc = l + s->H;
    float *S = j->scores + (size_t)worker * s->H * DECODE_BLOCK;
    for (size_t h = 0; h < s->H; h++)
        m[h] = -INFINITY, l[h] = 0.0f;
    memset(acc, 0, s->H * s->dh * sizeof *acc);
    for (size_t b = t0; b < t1; b += DECODE_BLOCK) {
        size_t n = t1 - b < DECODE_BLOCK ? t1 - b : DECODE_BLOCK;
        decode_scores(j, b, n, S);
        decode_softmax(s, S, n, m, l, acc);
        decode_values(j, b, n, S, acc);
    }
    j->madds[worker] += 2 * (uint64_t)(t1 - t0) * s->H * s->dh;
    return INVENT_OK;
}
