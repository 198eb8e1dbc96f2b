/* Unit tests: the fused training attention (attn_train.h) with queries and
 * keys of their own head size (dk != dh, chapter 14's free A) and a scale of
 * its own (no scale), against attention written out in float64 (scores,
 * softmax, weighted values, and the backward pass by the chain rule), causal
 * and not, over more tokens than one tile; the same numbers whatever the
 * thread count; and a near miss, the reference scaled by the values' head
 * size 1/sqrt(dh) instead of the queries' 1/sqrt(dk), that must be caught.
 *
 * Tolerance: each output is a softmax-weighted sum of T products of length
 * dk, computed in float32 (relative rounding 6e-8 an operation, the scores
 * of size up to a few units): relative errors of some 1e-7 to 1e-6 of the
 * norms. Measured: 1.4e-7 to 3.4e-7; bound 1e-5 (the near miss: 0.39). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "attn_train.h"
#include "rel_norm32.h"
#include "rng.h"
#include "status.h"

#define BOUND 1e-5

/* Where head h of sequence b finds its numbers in qkv. */
typedef struct {
    const attn_train_shape *s;
    size_t W, dk, C;
    double scale;
} layout;

static size_t q_at(const layout *L, size_t b, size_t t, size_t h)
{
    return (b * L->s->T + t) * L->W + h * L->dk;
}
static size_t k_at(const layout *L, size_t b, size_t t, size_t h)
{
    return q_at(L, b, t, h) + L->s->H * L->dk;
}
static size_t v_at(const layout *L, size_t b, size_t t, size_t h)
{
    return (b * L->s->T + t) * L->W + 2 * L->s->H * L->dk + h * L->s->dh;
}

/* one (sequence, head): qkv, dout -> out += O, dqkv += the gradient, in float64 */
static void reference_head(const layout *L, size_t b, size_t h, const float *qkv,
                           const float *dout, double *out, double *dqkv)
{
    const attn_train_shape *s = L->s;
    size_t T = s->T, dh = s->dh;
    double *P = calloc(T * T, sizeof *P), *dP = calloc(T * T, sizeof *dP);
    cr_assert(P && dP);
    for (size_t t = 0; t < T; t++) {
        size_t seen = s->see_future ? T : t + 1;
        double top = -INFINITY, sum = 0.0, D = 0.0;
        for (size_t j = 0; j < seen; j++) {
            double dot = 0.0;
            for (size_t d = 0; d < L->dk; d++)
                dot += qkv[q_at(L, b, t, h) + d] * (double)qkv[k_at(L, b, j, h) + d];
            P[t * T + j] = L->scale * dot;
            top = fmax(top, P[t * T + j]);
        }
        for (size_t j = 0; j < seen; j++)
            sum += P[t * T + j] = exp(P[t * T + j] - top);
        for (size_t j = 0; j < seen; j++) {
            P[t * T + j] /= sum;
            for (size_t d = 0; d < dh; d++) {
                double v = qkv[v_at(L, b, j, h) + d], g = dout[(b * T + t) * L->C + h * dh + d];
                out[(b * T + t) * L->C + h * dh + d] += P[t * T + j] * v;
                dqkv[v_at(L, b, j, h) + d] += P[t * T + j] * g;
                dP[t * T + j] += g * v;
            }
            D += P[t * T + j] * dP[t * T + j];
        }
        for (size_t j = 0; j < seen; j++) {
            double dS = P[t * T + j] * (dP[t * T + j] - D) * L->scale;
            for (size_t d = 0; d < L->dk; d++) {
                dqkv[q_at(L, b, t, h) + d] += dS * qkv[k_at(L, b, j, h) + d];
                dqkv[k_at(L, b, j, h) + d] += dS * qkv[q_at(L, b, t, h) + d];
            }
        }
    }
    free(P);
    free(dP);
}

/* s, its reference scale (0: the kernel's own), workers -> the worst of the output's and
 * the gradient's gaps; out, dqkv: the kernel's results, for the caller */
static double compare(const attn_train_shape *s, double ref_scale, int workers, float *out,
                      float *dqkv)
{
    layout L = {s, attn_train_width(s), attn_train_dk(s), s->H * s->dh, ref_scale};
    if (L.scale == 0.0)
        L.scale = s->scale > 0.0f ? s->scale : 1.0 / sqrt((double)L.dk);
    size_t n = s->B * s->T, nq = n * L.W;
    float *qkv = malloc(nq * sizeof *qkv), *dout = malloc(n * L.C * sizeof *dout);
    float *lse = malloc(n * s->H * sizeof *lse);
    float *scratch = malloc(attn_train_scratch(s, workers) * sizeof(float));
    double *o64 = calloc(n * L.C, sizeof *o64), *d64 = calloc(nq, sizeof *d64);
    cr_assert(qkv && dout && lse && scratch && o64 && d64);
    gsl_rng *r = rng_new(1);
    for (size_t i = 0; i < nq; i++)
        qkv[i] = (float)gsl_ran_gaussian(r, 1.0);
    for (size_t i = 0; i < n * L.C; i++)
        dout[i] = (float)gsl_ran_gaussian(r, 1.0);
    for (size_t i = 0; i < nq; i++) /* the backward pass writes dqkv, not adds to it */
        dqkv[i] = 1e3f;
    cr_assert_eq(attn_train_forward(s, qkv, out, lse, scratch, workers), INVENT_OK);
    cr_assert_eq(attn_train_backward(s, qkv, out, lse, dout, dqkv, scratch, workers), INVENT_OK);
    for (size_t b = 0; b < s->B; b++)
        for (size_t h = 0; h < s->H; h++)
            reference_head(&L, b, h, qkv, dout, o64, d64);
    double go = rel_norm(out, o64, n * L.C), gd = rel_norm(dqkv, d64, nq);
    cr_log_info("dk %zu dh %zu scale %g, see_future %d, reference scale %g: out %.2e, dqkv %.2e",
                L.dk, s->dh, (double)s->scale, s->see_future, L.scale, go, gd);
    gsl_rng_free(r);
    free(qkv), free(dout), free(lse), free(scratch), free(o64), free(d64);
    return fmax(go, gd);
}

/* s, reference scale -> compare with fresh output buffers and 2 workers */
static double gap_of(const attn_train_shape *s, double ref_scale)
{
    size_t n = s->B * s->T;
    float *out = malloc(n * s->H * s->dh * sizeof *out);
    float *dqkv = malloc(n * attn_train_width(s) * sizeof *dqkv);
    cr_assert(out && dqkv);
    double gap = compare(s, ref_scale, 2, out, dqkv);
    free(out), free(dqkv);
    return gap;
}

/* 3 heads, queries and keys of 24 (free A's d), values of 8, 70 tokens: two tiles */
static const attn_train_shape wide = {.B = 2, .T = 70, .H = 3, .dh = 8, .dk = 24};

Test(attn_train, wide_queries_and_keys_follow_the_float64_attention)
{
    attn_train_shape s = wide;
    cr_assert_lt(gap_of(&s, 0.0), BOUND);
    s.see_future = 1;
    cr_assert_lt(gap_of(&s, 0.0), BOUND);
}

Test(attn_train, a_scale_of_its_own_follows_the_float64_attention)
{
    attn_train_shape s = {.B = 2, .T = 70, .H = 2, .dh = 8, .scale = 1.0f};
    cr_assert_lt(gap_of(&s, 0.0), BOUND);
    s = wide;
    s.scale = 0.25f;
    cr_assert_lt(gap_of(&s, 0.0), BOUND);
}

Test(attn_train, wide_heads_scaled_by_the_values_size_are_caught)
{
    attn_train_shape s = wide;
    cr_assert_gt(gap_of(&s, 1.0 / sqrt((double)s.dh)), 100 * BOUND);
}

Test(attn_train, wide_heads_give_the_same_numbers_whatever_the_thread_count)
{
    attn_train_shape s = wide;
    size_t n = s.B * s.T, no = n * s.H * s.dh, nq = n * attn_train_width(&s);
    float *o1 = malloc(no * sizeof(float)), *o2 = malloc(no * sizeof(float));
    float *d1 = malloc(nq * sizeof(float)), *d2 = malloc(nq * sizeof(float));
    cr_assert(o1 && o2 && d1 && d2);
    compare(&s, 0.0, 1, o1, d1);
    compare(&s, 0.0, 2, o2, d2);
    cr_assert_eq(memcmp(o1, o2, no * sizeof(float)), 0);
    cr_assert_eq(memcmp(d1, d2, nq * sizeof(float)), 0);
    free(o1), free(o2), free(d1), free(d2);
}

Test(attn_train, a_negative_or_infinite_scale_is_refused)
{
    attn_train_shape s = wide;
    float buf[16] = {0};
    s.scale = -1.0f;
    cr_assert_eq(attn_train_forward(&s, buf, buf, buf, buf, 1), INVENT_ERANGE);
    s.scale = INFINITY;
    cr_assert_eq(attn_train_backward(&s, buf, buf, buf, buf, buf, buf, 1), INVENT_ERANGE);
}
