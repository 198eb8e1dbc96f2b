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
    size_t tpad;                                 /* T rounded up to LANES */
    size_t per_worker;                           /* floats of one worker's scratch */
    float *scratch;                              /* every worker's, per_worker floats each */
    float *shares; /* (B H, 2 dh) after the workers' scratch: every item's db and dw */
} additive_job;

/* One (sequence, head) item's rows and buffers. The keys (and values, and
 * their gradients) are kept transposed, (dh, tpad), zero past T, so that a
 * query meets LANES keys at a time, one tanh unit after another: a vector
 * of scores comes out with no sum across lanes. */
typedef struct {
    size_t T, C3, dh, tpad, see_future;
    const float *q, *k, *v, *w; /* row 0 of head h in sequence b, rows C3 apart; w_h: (dh) */
    float *qb;                  /* (T, dh): q_t + b_h */
    float *kt, *vt, *dkt, *dvt; /* (dh, tpad): K^T, V^T and the gradients at them */
    float *row;                 /* (tpad) one query's scores */
    float *u, *dq, *dw;         /* (dh, LANES): one key block's units; one query's dq, dw */
} item_view;

static size_t padded(size_t n) { return (n + LANES - 1) / LANES * LANES; }

/* s -> floats of one worker's scratch: item_view's buffers */
static size_t worker_floats(const attn_train_shape *s)
{
    size_t tp = padded(s->T), dh = s->dh;
    return dh * s->T + 4 * dh * tp + tp + 3 * dh * LANES;
}

size_t additive32_scratch(const attn_train_shape *s, int workers)
{
    return (size_t)(workers > 0 ? workers : 1) * worker_floats(s) + s->B * s->H * 2 * s->dh;
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

/* rows: (T, dh), C3 apart -> t: (dh, tpad), zero past T */
VEXP_INLINE void transpose_rows(const float *rows, size_t C3, size_t T, size_t dh, size_t tpad,
                                float *t)
{
    for (size_t d = 0; d < dh; d++) {
        for (size_t i = 0; i < T; i++)
            t[d * tpad + i] = rows[i * C3 + d];
        memset(t + d * tpad + T, 0, (tpad - T) * sizeof(float));
    }
}

/* j, item, worker -> the item's view: qb_t = q_t + b_h and K^T filled */
VEXP_INLINE item_view item_open(const additive_job *j, size_t item, int worker)
{
    const attn_train_shape *s = j->s;
    size_t h = item % s->H, C = s->H * s->dh, T = s->T, tp = j->tpad, dh = s->dh;
    float *x = j->scratch + (size_t)worker * j->per_worker;
    const float *base = j->qkv + item / s->H * T * 3 * C + h * dh;
    float *t = x + dh * T;
    item_view v = {.T = T, .C3 = 3 * C, .dh = dh, .tpad = tp,
                   .see_future = (size_t)s->see_future, .q = base, .k = base + C,
                   .v = base + 2 * C, .w = j->w + h * dh, .qb = x, .kt = t, .vt = t + dh * tp,
                   .dkt = t + 2 * dh * tp, .dvt = t + 3 * dh * tp, .row = t + 4 * dh * tp,
                   .u = t + 4 * dh * tp + tp, .dq = t + 4 * dh * tp + tp + dh * LANES,
                   .dw = t + 4 * dh * tp + tp + 2 * dh * LANES};
    for (size_t r = 0; r < T; r++)
        for (size_t i = 0; i < dh; i++)
            v.qb[r * dh + i] = v.q[r * v.C3 + i] + j->b[h * dh + i];
    transpose_rows(v.k, v.C3, T, dh, tp, v.kt);
    return v;
}

/* -> how many keys query t sees */
VEXP_INLINE size_t keys_seen(const item_view *v, size_t t) { return v->see_future ? v->T : t + 1; }

/* query t, keys s0 .. s0 + LANES - 1 -> their scores w . tanh(q_t + k_s + b);
 * the units into u: (dh, LANES) when u is not NULL */
VEXP_INLINE v8 block_scores(const item_view *v, size_t t, size_t s0, float *u)
{
    const float *qb = v->qb + t * v->dh;
    v8 even = {0}, odd = {0}; /* two chains in flight */
    for (size_t i = 0; i < v->dh; i++) {
        v8 x = tanh8(qb[i] + load8(v->kt + i * v->tpad + s0));
        if (u)
            store8(u + i * LANES, x);
        if (i & 1)
            odd += v->w[i] * x;
        else
            even += v->w[i] * x;
    }
    return even + odd;
}

/* a, b: (n) -> a . b, eight lanes at a time, then the tail */
VEXP_INLINE float dot(const float *a, const float *b, size_t n)
{
    v8 acc = {0};
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        acc += load8(a + i) * load8(b + i);
    float sum = lane_sum(acc);
    for (; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

/* query t -> out: (dh) its output, *lse its scores' log-sum-exp */
VEXP_INLINE void forward_row(const item_view *v, size_t t, float *out, float *lse)
{
    size_t n = keys_seen(v, t);
    float top = -INFINITY, total = 0.0f;
    for (size_t s0 = 0; s0 < n; s0 += LANES)
        store8(v->row + s0, block_scores(v, t, s0, NULL));
    for (size_t s = 0; s < n; s++)
        top = fmaxf(top, v->row[s]);
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

/* query t, keys s0.. of the block, the first n of them seen, D = dO_t . O_t ->
 * the block's weights P and dS = P o (dO_t V^T - D), zero on keys not seen;
 * the units into v->u */
VEXP_INLINE v8 block_dS(const item_view *v, size_t t, size_t s0, size_t n, const float *dout,
                        float lse, float D, v8 *P)
{
    v8 lane = {0, 1, 2, 3, 4, 5, 6, 7}, dP = {0};
    *P = vexp8(block_scores(v, t, s0, v->u) - lse);
    *P = vexp_select(lane < (float)(n - s0), *P, (v8){0});
    for (size_t d = 0; d < v->dh; d++)
        dP += dout[d] * load8(v->vt + d * v->tpad + s0);
    return *P * (dP - D);
}

/* query t's block of keys s0.. with weights P, dS -> dV^T, dK^T columns +=,
 * the query's dq, dw lanes += (g = dS w o (1 - u o u) per unit) */
VEXP_INLINE void block_backward(const item_view *v, size_t s0, const float *dout, v8 P, v8 dS)
{
    for (size_t d = 0; d < v->dh; d++) {
        float *dvt = v->dvt + d * v->tpad + s0;
        store8(dvt, load8(dvt) + dout[d] * P);
    }
    for (size_t i = 0; i < v->dh; i++) {
        v8 u = load8(v->u + i * LANES), g = dS * v->w[i] * (1.0f - u * u);
        float *dkt = v->dkt + i * v->tpad + s0;
        store8(dkt, load8(dkt) + g);
        store8(v->dq + i * LANES, load8(v->dq + i * LANES) + g);
        store8(v->dw + i * LANES, load8(v->dw + i * LANES) + dS * u);
    }
}

/* query t: out_t, dout_t: (dh), its lse -> dq: (dh) += its gradient, share:
 * (2 dh) += its part of db (the same) and of dw; dK^T, dV^T through its blocks */
VEXP_INLINE void backward_row(const item_view *v, size_t t, const float *out, const float *dout,
                              float lse, float *dq, float *share)
{
    size_t n = keys_seen(v, t);
    float D = dot(dout, out, v->dh);
    memset(v->dq, 0, 2 * v->dh * LANES * sizeof(float)); /* dq and dw, side by side */
    for (size_t s0 = 0; s0 < n; s0 += LANES) {
        v8 P, dS = block_dS(v, t, s0, n, dout, lse, D, &P);
        block_backward(v, s0, dout, P, dS);
    }
    for (size_t i = 0; i < v->dh; i++) {
        float g = lane_sum(load8(v->dq + i * LANES));
        dq[i] += g;
        share[i] += g;
        share[v->dh + i] += lane_sum(load8(v->dw + i * LANES));
    }
}

/* the item's dK^T, dV^T: (dh, tpad) -> added to its key and value columns (rows C3 apart) */
VEXP_INLINE void item_close(const item_view *v, float *dk)
{
    size_t C = v->C3 / 3;
    for (size_t r = 0; r < v->T; r++)
        for (size_t d = 0; d < v->dh; d++) {
            dk[r * v->C3 + d] += v->dkt[d * v->tpad + r];
            dk[r * v->C3 + C + d] += v->dvt[d * v->tpad + r];
        }
}

VEXP_INLINE int backward_body(void *ctx, size_t item, int worker)
{
    const additive_job *j = ctx;
    const attn_train_shape *s = j->s;
    item_view v = item_open(j, item, worker);
    size_t b = item / s->H, h = item % s->H, C = s->H * s->dh;
    float *share = j->shares + item * 2 * v.dh; /* db's, then dw's */
    float *dq = j->dqkv + b * v.T * v.C3 + h * v.dh;
    transpose_rows(v.v, v.C3, v.T, v.dh, v.tpad, v.vt);
    memset(v.dkt, 0, 2 * v.dh * v.tpad * sizeof(float)); /* dK^T and dV^T, side by side */
    memset(share, 0, 2 * v.dh * sizeof(float));
    for (size_t t = 0; t < v.T; t++) {
        size_t row = (b * v.T + t) * C + h * v.dh;
        backward_row(&v, t, j->out + row, j->dout + row, j->lse[item * v.T + t],
                     dq + t * v.C3, share);
    }
    item_close(&v, dq + C);
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
 * INVENT_ERANGE (an empty shape, no worker, keys of another head size than the
 * values, a scale, a bad INVENT_SIMD) */
static int job_open(const attn_train_shape *s, int workers, float *scratch, additive_job *j,
                    int *avx2)
{
    simd_level level;
    int status = simd_current(&level);
    if (status != INVENT_OK)
        return status;
    if (s->B == 0 || s->T == 0 || s->H == 0 || s->dh == 0 || workers < 1 ||
        attn_train_dk(s) != s->dh || s->scale != 0.0f)
        return INVENT_ERANGE;
    *avx2 = level >= SIMD_AVX2;
    *j = (additive_job){.s = s, .tpad = padded(s->T), .per_worker = worker_floats(s),
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
            const float *share = j->shares + (b * s->H + h) * 2 * s->dh;
            for (size_t i = 0; i < s->dh; i++) {
                db[h * s->dh + i] += share[i];
                dw[h * s->dh + i] += share[s->dh + i];
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
