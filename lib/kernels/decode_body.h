/* The decode kernel's work item (attn_decode.h), written once for a vector
 * of VW floats and compiled by each vector path. One item is a chunk of
 * consecutive cached tokens, read front to back in blocks of DECODE_BLOCK
 * tokens: the block's key rows are scored against every head, the online
 * softmax step rescales each head's running sum and output, then the
 * block's value rows are added (still in cache when K == V). Register
 * blocks of DECODE_HEADS heads (where that many share a key-value head,
 * else one) by 4 tokens (scores) and by 4 vectors of columns (values) keep
 * several independent sums in flight and reuse every key and value vector
 * loaded. The loops must run well above the memory's speed, since the
 * memory and the loops only partly overlap: a single head's chain of
 * dependent adds (one sum, one token after another) ran at twice the
 * memory's speed and held the step to 0.63 of it.
 *
 * The including file defines vf, VW, vf_sum, vf_exp2 (as for tile_body.h),
 * DECODE_HEADS (1 to 4) and DECODE_ITEM, the function's name. */
#include <math.h>
#include <string.h>

#include "attn_decode.h"
#include "decode_job.h"
#include "status.h"
#include "vec_ops.h"

/* q: (heads, dh), 4 key rows from k (kld apart) -> S: rows of
 * DECODE_BLOCK, S[a][b] = q_a . k_b. heads (1 or DECODE_HEADS) is a
 * constant where this is inlined, so acc stays in registers: 4 * heads
 * independent sums, one horizontal sum each at the end. */
INLINE void score_block(const float *q, const float *k, size_t kld, size_t dh, float *S,
                        int heads)
{
    vf acc[DECODE_HEADS][4] = {{{0}}};
    size_t d = 0;
    for (; d + VW <= dh; d += VW) {
        vf kv[4];
#pragma GCC unroll 4
        for (int b = 0; b < 4; b++)
            kv[b] = vload(k + b * kld + d);
#pragma GCC unroll 4
        for (int a = 0; a < heads; a++) {
            vf qa = vload(q + a * dh + d);
#pragma GCC unroll 4
            for (int b = 0; b < 4; b++)
                acc[a][b] += qa * kv[b];
        }
    }
#pragma GCC unroll 4
    for (int a = 0; a < heads; a++)
#pragma GCC unroll 4
        for (int b = 0; b < 4; b++) {
            float sum = vf_sum(acc[a][b]);
            for (size_t e = d; e < dh; e++)
                sum += q[a * dh + e] * k[b * kld + e];
            S[a * DECODE_BLOCK + b] = sum;
        }
}

/* heads h..h+heads-1 (one key-value head's), n key rows from k -> their
 * rows of S: 4 tokens at a time, then one by one */
INLINE void score_heads(const decode_job *j, size_t h, int heads, const float *k, size_t n,
                        float *S)
{
    size_t dh = j->s->dh, kld = j->s->Hkv * dh, i = 0;
    for (; i + 4 <= n; i += 4)
        score_block(j->q + h * dh, k + i * kld, kld, dh, S + h * DECODE_BLOCK + i, heads);
    for (; i < n; i++)
        for (size_t a = h; a < h + (size_t)heads; a++)
            S[a * DECODE_BLOCK + i] = vdot(j->q + a * dh, k + i * kld, dh);
}

/* tokens t0 .. t0+n-1 -> S: (H, DECODE_BLOCK) raw scores (times the
 * scale's sign), in register
 * blocks of DECODE_HEADS heads sharing a key-value head, then single heads */
INLINE void decode_scores(const decode_job *j, size_t t0, size_t n, float *S)
{
    const attn_decode_shape *s = j->s;
    size_t G = s->H / s->Hkv;
    for (size_t g = 0; g < s->Hkv; g++) {
        const float *k = j->K + (t0 * s->Hkv + g) * s->dh;
        size_t h = g * G, end = h + G;
        for (; h + DECODE_HEADS <= end; h += DECODE_HEADS)
            score_heads(j, h, DECODE_HEADS, k, n, S);
        for (; h < end; h++)
            score_heads(j, h, 1, k, n, S);
    }
}

/* The online step per head over n raw scores, f = attn_score_factor: m' =
 * max(m, max S), S <- 2^(f (S - m')), l <- 2^(f (m - m')) l + sum,
 * acc <- 2^(f (m - m')) acc; the maximum is subtracted before f multiplies. */
INLINE void decode_softmax(const attn_decode_shape *s, float *S, size_t n, float *m, float *l,
                           float *acc)
{
    float f = attn_score_factor(s->scale);
    for (size_t h = 0; h < s->H; h++) {
        float m_new = m[h];
        for (size_t i = 0; i < n; i++)
            m_new = S[h * DECODE_BLOCK + i] > m_new ? S[h * DECODE_BLOCK + i] : m_new;
        float alpha = exp2f(f * (m[h] - m_new));
        l[h] = alpha * l[h] + vexp2_shifted_scaled(S + h * DECODE_BLOCK, n, m_new, f);
        m[h] = m_new;
        if (alpha != 1.0f)
            vscale(acc + h * s->dh, alpha, s->dh);
    }
}

/* token i's value row (4 vectors of columns from v) times each head's
 * weight in S -> added to the heads' register sums a */
INLINE void value_token(const float *S, const float *v, size_t i, int heads,
                        vf a[DECODE_HEADS][4])
{
    vf vv[4];
#pragma GCC unroll 4
    for (int x = 0; x < 4; x++)
        vv[x] = vload(v + x * VW);
#pragma GCC unroll 4
    for (int h = 0; h < heads; h++) {
        float w = S[h * DECODE_BLOCK + i];
#pragma GCC unroll 4
        for (int x = 0; x < 4; x++)
            a[h][x] += w * vv[x];
    }
}

/* heads' weights S (rows of DECODE_BLOCK), n value rows from v (vld apart)
 * -> acc rows (dh apart) += the weighted sum, on 4 vectors of columns: the
 * register block that reuses each value vector loaded. heads (1 or
 * DECODE_HEADS) is a constant where this is inlined; a single head sums odd
 * and even tokens apart, so that 8 sums are in flight, not 4. */
INLINE void value_block(const float *S, const float *v, size_t vld, size_t n, float *acc,
                        size_t dh, int heads)
{
    vf a[DECODE_HEADS][4], b[DECODE_HEADS][4] = {{{0}}};
#pragma GCC unroll 4
    for (int h = 0; h < heads; h++)
#pragma GCC unroll 4
        for (int x = 0; x < 4; x++)
            a[h][x] = vload(acc + h * dh + x * VW);
    size_t i = 0;
    if (heads == 1)
        for (; i + 2 <= n; i += 2) {
            value_token(S, v + i * vld, i, heads, a);
            value_token(S, v + (i + 1) * vld, i + 1, heads, b);
        }
    for (; i < n; i++)
        value_token(S, v + i * vld, i, heads, a);
#pragma GCC unroll 4
    for (int h = 0; h < heads; h++)
#pragma GCC unroll 4
        for (int x = 0; x < 4; x++)
            vstore(acc + h * dh + x * VW, a[h][x] + b[h][x]);
}

/* heads h..end of one key-value head, columns d0..dh, tokens 0..n-1 of v ->
 * acc += the weighted sums, one token at a time (the columns the blocks
 * leave) */
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
        size_t h0 = g * G, end = h0 + G;
        for (size_t d0 = 0; d0 < cols; d0 += 4 * VW) { /* the same value columns for all heads */
            size_t h = h0;
            for (; h + DECODE_HEADS <= end; h += DECODE_HEADS)
                value_block(S + h * DECODE_BLOCK, v + d0, vld, n, acc + h * s->dh + d0, s->dh,
                            DECODE_HEADS);
            for (; h < end; h++)
                value_block(S + h * DECODE_BLOCK, v + d0, vld, n, acc + h * s->dh + d0, s->dh, 1);
        }
        value_rows(S, v, vld, n, acc, s->dh, h0, end, cols);
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
