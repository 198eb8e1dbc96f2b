#include "additive32.h"

#include <math.h>
#include <string.h>

#include "simd.h"
#include "status.h"
#include "vexp.h"
#include "workers.h"

#define LANES 8 /* tanh units per vector (vexp.h's eight floats) */

typedef vexp_f8 v8;

typedef struct {
    const attn_train_shape *s;
    const float *qkv, *b, *w, *out, *lse, *dout; /* as additive32.h names them */
    float *o, *l, *dqkv;                         /* the forward's outputs; the backward's */
    size_t rp;                                   /* dh rounded up to LANES */
    size_t per_worker;                           /* floats of one worker's scratch */
    float *scratch;                              /* every worker's, per_worker floats each */
    float *shares; /* (B H, 2 rp) after the workers' scratch: every item's db and dw */
} additive_job;

/* one (sequence, head) item's rows and buffers; padded rows are zero past dh */
typedef struct {
    size_t T, C3, dh, rp, see_future;
    const float *q, *k, *v;   /* row 0 of head h in sequence b; rows C3 apart */
    float *qb, *kp, *dq, *dk; /* (T, rp): q_t + b_h, k_s, and the gradients at q and k */
    float *row, *u, *w, *dw;  /* (T) one query's scores; (rp) one pair's units, w_h, and
                               * one query's share of dw */
} item_view;

static size_t padded(size_t dh) { return (dh + LANES - 1) / LANES * LANES; }

/* s -> floats of one worker's scratch: item_view's buffers */
static size_t worker_floats(const attn_train_shape *s)
{
    size_t rp = padded(s->dh);
    return 4 * s->T * rp + s->T + 3 * rp;
}

size_t additive32_scratch(const attn_train_shape *s, int workers)
{
    return (size_t)(workers > 0 ? workers : 1) * worker_floats(s) +
           s->B * s->H * 2 * padded(s->dh);
}

VEXP_INLINE v8 load8(const float *p)
{
    v8 x;
    memcpy(&x, p, sizeof x);
    return x;
}

VEXP_INLINE void store8(float *p, v8 x) { memcpy(p, &x, sizeof x); }

/* x: (8) -> the sum of its lanes, in lane order */
VEXP_INLINE float lane_sum(v8 x)
{
    float sum = 0.0f;
    for (int i = 0; i < LANES; i++)
        sum += x[i];
    return sum;
}

/* x: (8) -> tanh(x): the odd rational function of degrees 13 and 6 whose
 * coefficients Eigen's float tanh uses, on x clamped to [-9, 9] (beyond,
 * tanh is 1 to float precision); exactly 0 at 0 */
VEXP_INLINE v8 tanh8(v8 x)
{
    const v8 zero = {0};
    x = vexp_select(x > 9.0f, zero + 9.0f, x);
    x = vexp_select(x < -9.0f, zero - 9.0f, x);
    v8 x2 = x * x;
    v8 p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
    p = p * x2 - 8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    v8 q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    return x * p / q;
}

/* j, item, worker -> the item's view, its rows packed: qb_t = q_t + b_h, kp_s = k_s, w = w_h */
VEXP_INLINE item_view item_open(const additive_job *j, size_t item, int worker)
{
    const attn_train_shape *s = j->s;
    size_t h = item % s->H, C = s->H * s->dh, T = s->T, rp = j->rp, dh = s->dh;
    float *x = j->scratch + (size_t)worker * j->per_worker;
    const float *base = j->qkv + item / s->H * T * 3 * C + h * dh;
    item_view v = {.T = T, .C3 = 3 * C, .dh = dh, .rp = rp, .see_future = (size_t)s->see_future,
                   .q = base, .k = base + C, .v = base + 2 * C, .qb = x, .kp = x + T * rp,
                   .dq = x + 2 * T * rp, .dk = x + 3 * T * rp, .row = x + 4 * T * rp,
                   .u = x + 4 * T * rp + T, .w = x + 4 * T * rp + T + rp,
                   .dw = x + 4 * T * rp + T + 2 * rp};
    memset(x, 0, 2 * T * rp * sizeof(float));
    memset(v.w, 0, rp * sizeof(float));
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i < dh; i++) {
            v.qb[t * rp + i] = v.q[t * v.C3 + i] + j->b[h * dh + i];
            v.kp[t * rp + i] = v.k[t * v.C3 + i];
        }
    memcpy(v.w, j->w + h * dh, dh * sizeof(float));
    return v;
}

/* -> how many keys query t sees */
VEXP_INLINE size_t keys_seen(const item_view *v, size_t t) { return v->see_future ? v->T : t + 1; }

/* query t, key s -> w . tanh(q_t + k_s + b); the units into u when u is not NULL */
VEXP_INLINE float pair_score(const item_view *v, size_t t, size_t s, float *u)
{
    const float *qb = v->qb + t * v->rp, *k = v->kp + s * v->rp;
    v8 acc = {0};
    for (size_t i = 0; i < v->rp; i += LANES) {
        v8 x = tanh8(load8(qb + i) + load8(k + i));
        if (u)
            store8(u + i, x);
        acc += load8(v->w + i) * x;
    }
    return lane_sum(acc);
}

/* a, b: (n) -> a . b */
VEXP_INLINE float dot(const float *a, const float *b, size_t n)
{
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

/* query t -> out: (dh) its output, *lse its scores' log-sum-exp */
VEXP_INLINE void forward_row(const item_view *v, size_t t, float *out, float *lse)
{
    size_t n = keys_seen(v, t);
    float top = -INFINITY, total = 0.0f;
    for (size_t s = 0; s < n; s++) {
        v->row[s] = pair_score(v, t, s, NULL);
        top = fmaxf(top, v->row[s]);
    }
    memset(out, 0, v->dh * sizeof(float));
    for (size_t s = 0; s < n; s++) {
        float p = expf(v->row[s] - top);
        total += p;
        for (size_t d = 0; d < v->dh; d++)
            out[d] += p * v->v[s * v->C3 + d];
    }
    for (size_t d = 0; d < v->dh; d++)
        out[d] /= total;
    *lse = top + logf(total);
}

VEXP_INLINE int forward_body(void *ctx, size_t item, int worker)
{
    const additive_job *j = ctx;
    const attn_train_shape *s = j->s;
    item_view v = item_open(j, item, worker);
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh;
    for (size_t t = 0; t < v.T; t++)
        forward_row(&v, t, j->o + (b * v.T + t) * C + h * v.dh, j->l + item * v.T + t);
    return INVENT_OK;
}

/* pair (t, s) with gradient dS at its score and units u -> dq_t, dk_s +=
 * g = dS w o (1 - u o u), the query's dw += dS u */
VEXP_INLINE void pair_backward(const item_view *v, size_t t, size_t s, float dS)
{
    float *dq = v->dq + t * v->rp, *dk = v->dk + s * v->rp, *dw = v->dw;
    for (size_t i = 0; i < v->rp; i += LANES) {
        v8 u = load8(v->u + i), g = dS * load8(v->w + i) * (1.0f - u * u);
        store8(dq + i, load8(dq + i) + g);
        store8(dk + i, load8(dk + i) + g);
        store8(dw + i, load8(dw + i) + dS * u);
    }
}

/* query t: out_t, dout_t: (dh), its lse -> the gradients of its pairs: dV rows
 * (C3 apart) += P_ts dout_t, dq, dk through pair_backward, and dw += the
 * query's share (summed over its keys first, for accuracy) */
VEXP_INLINE void backward_row(const item_view *v, size_t t, const float *out, const float *dout,
                              float lse, float *dv, float *dw)
{
    float D = dot(dout, out, v->dh);
    memset(v->dw, 0, v->rp * sizeof(float));
    for (size_t s = 0; s < keys_seen(v, t); s++) {
        float P = expf(pair_score(v, t, s, v->u) - lse);
        float dP = dot(dout, v->v + s * v->C3, v->dh);
        for (size_t d = 0; d < v->dh; d++)
            dv[s * v->C3 + d] += P * dout[d];
        pair_backward(v, t, s, P * (dP - D));
    }
    for (size_t i = 0; i < v->rp; i++)
        dw[i] += v->dw[i];
}

/* the item's dq, dk: (T, rp) -> added to its columns of dqkv; their sum over
 * queries (in query order), db's share, into share: (rp) */
VEXP_INLINE void item_close(const item_view *v, float *dq, float *share)
{
    size_t C = v->C3 / 3;
    for (size_t t = 0; t < v->T; t++)
        for (size_t i = 0; i < v->dh; i++) {
            dq[t * v->C3 + i] += v->dq[t * v->rp + i];
            dq[t * v->C3 + C + i] += v->dk[t * v->rp + i];
            share[i] += v->dq[t * v->rp + i];
        }
}

VEXP_INLINE int backward_body(void *ctx, size_t item, int worker)
{
    const additive_job *j = ctx;
    const attn_train_shape *s = j->s;
    item_view v = item_open(j, item, worker);
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh;
    float *share = j->shares + item * 2 * v.rp; /* db's, then dw's */
    float *dq = j->dqkv + b * v.T * v.C3 + h * v.dh;
    memset(v.dq, 0, 2 * v.T * v.rp * sizeof(float)); /* dq and dk, side by side */
    memset(share, 0, 2 * v.rp * sizeof(float));
    for (size_t t = 0; t < v.T; t++) {
        size_t row = (b * v.T + t) * C + h * v.dh;
        backward_row(&v, t, j->out + row, j->dout + row, j->lse[item * v.T + t], dq + 2 * C,
                     share + v.rp);
    }
    item_close(&v, dq, share);
    return INVENT_OK;
}

/* The items, compiled for any CPU and for AVX2+FMA. */
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma"))) static int forward_avx2(void *ctx, size_t item, int worker)
{
    return forward_body(ctx, item, worker);
}

__attribute__((target("avx2,fma"))) static int backward_avx2(void *ctx, size_t item, int worker)
{
    return backward_body(ctx, item, worker);
}
#endif

static int forward_portable(void *ctx, size_t item, int worker)
{
    return forward_body(ctx, item, worker);
}

static int backward_portable(void *ctx, size_t item, int worker)
{
    return backward_body(ctx, item, worker);
}

/* s, workers, scratch -> the job's common part and whether AVX2 items run, or
 * INVENT_ERANGE (an empty shape, no worker, a bad INVENT_SIMD) */
static int job_open(const attn_train_shape *s, int workers, float *scratch, additive_job *j,
                    int *avx2)
{
    simd_level level;
    int status = simd_current(&level);
    if (status != INVENT_OK)
        return status;
    if (s->B == 0 || s->T == 0 || s->H == 0 || s->dh == 0 || workers < 1)
        return INVENT_ERANGE;
    *avx2 = level >= SIMD_AVX2;
    *j = (additive_job){.s = s, .rp = padded(s->dh), .per_worker = worker_floats(s),
                        .scratch = scratch,
                        .shares = scratch + (size_t)workers * worker_floats(s)};
    return INVENT_OK;
}

int additive32_forward(const attn_train_shape *s, const float *qkv, const float *b,
                       const float *w, float *out, float *lse, float *scratch, int workers)
{
    additive_job j;
    int avx2 = 0;
    int status = job_open(s, workers, scratch, &j, &avx2);
    if (status != INVENT_OK)
        return status;
    j.qkv = qkv, j.b = b, j.w = w, j.o = out, j.l = lse;
    workers_fn item = forward_portable;
#if defined(__x86_64__) || defined(__i386__)
    if (avx2)
        item = forward_avx2;
#endif
    return workers_run(s->B * s->H, workers, item, &j);
}

/* every item's shares -> db, dw: (H, dh) += their sums, sequence by sequence */
static void add_shares(const additive_job *j, float *db, float *dw)
{
    const attn_train_shape *s = j->s;
    for (size_t b = 0; b < s->B; b++)
        for (size_t h = 0; h < s->H; h++) {
            const float *share = j->shares + (b * s->H + h) * 2 * j->rp;
            for (size_t i = 0; i < s->dh; i++) {
                db[h * s->dh + i] += share[i];
                dw[h * s->dh + i] += share[j->rp + i];
            }
        }
}

int additive32_backward(const attn_train_shape *s, const float *qkv, const float *b,
                        const float *w, const float *out, const float *lse, const float *dout,
                        float *dqkv, float *db, float *dw, float *scratch, int workers)
{
    additive_job j;
    int avx2 = 0;
    int status = job_open(s, workers, scratch, &j, &avx2);
    if (status != INVENT_OK)
        return status;
    j.qkv = qkv, j.b = b, j.w = w, j.out = out, j.lse = lse, j.dout = dout, j.dqkv = dqkv;
    workers_fn item = backward_portable;
#if defined(__x86_64__) || defined(__i386__)
    if (avx2)
        item = backward_avx2;
#endif
    status = workers_run(s->B * s->H, workers, item, &j);
    if (status == INVENT_OK)
        add_shares(&j, db, dw);
    return status;
}
