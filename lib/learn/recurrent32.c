#include "recurrent32.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "gemm32.h"
#include "layers32.h"
#include "mat.h"
#include "status.h"
#include "workers.h"

#define UNITS_CHUNK 64 /* state units per work item of a step's pointwise part */

struct recurrent32_acts {
    float *X;              /* (n, e) the embedded inputs */
    float *P;              /* (n, g m) U x_t + bx, all positions at once */
    float *Hprev, *H;      /* (n, m) h_{t-1} (0 at t = 0) and h_t */
    float *R, *Zg, *N, *Q; /* (n, m) each, GRU: r, z, n and W_n h_{t-1} + bh_n */
    float *step;           /* (B, g m) one step's h_{t-1} W^T, (B, m) on the way back */
    float *Wp;             /* W packed once a pass for its steps' products (gemm32_pack):
                            * as W^T forward, as W back */
    float *logits, *probs, *dlogits; /* (n, V) */
    double *row_loss;      /* (n) */
    float *dH;             /* (n, m) the gradient at each h_t, then the carry added */
    float *dA, *dQ;        /* (n, g m) at U x_t + bx and at W h_{t-1} + bh */
    float *dX;             /* (n, e) */
    linear32_ctx mm;
    float *block;
};

static size_t gates(const recurrent_shape *s)
{
    return s->cell == RECURRENT_GRU ? 3 : 1;
}

/* *at: floats carved so far -> base + *at, then *at += count (base NULL: only counts) */
static float *carve(float *base, size_t *at, size_t count)
{
    float *p = base ? base + *at : NULL;
    *at += (count + 15) / 16 * 16;
    return p;
}

static size_t max3(size_t a, size_t b, size_t c)
{
    size_t ab = a > b ? a : b;
    return ab > c ? ab : c;
}

/* every activation of m carved from base (NULL: only counted) -> floats used */
static size_t carve_acts(const recurrent32 *m, recurrent32_acts *a, float *base)
{
    const recurrent_shape *s = &m->shape;
    size_t n = m->B * m->T, e = s->input, st = s->state, gm = gates(s) * st, V = s->vocab;
    size_t gru = s->cell == RECURRENT_GRU ? n * st : 0, at = 0;
    a->X = carve(base, &at, n * e), a->P = carve(base, &at, n * gm);
    a->Hprev = carve(base, &at, n * st), a->H = carve(base, &at, n * st);
    a->R = carve(base, &at, gru), a->Zg = carve(base, &at, gru);
    a->N = carve(base, &at, gru), a->Q = carve(base, &at, gru);
    a->step = carve(base, &at, gm * m->B), a->Wp = carve(base, &at, gemm32_scratch(gm, gm));
    a->logits = carve(base, &at, n * V), a->probs = carve(base, &at, n * V);
    a->dlogits = carve(base, &at, n * V);
    a->row_loss = (double *)carve(base, &at, 2 * n);
    a->dH = carve(base, &at, n * st), a->dA = carve(base, &at, n * gm);
    a->dQ = carve(base, &at, n * gm), a->dX = carve(base, &at, n * e);
    size_t widest = max3(gm, V, e) > m->B ? max3(gm, V, e) : m->B; /* every product's N */
    a->mm.scratch = carve(base, &at, gemm32_scratch(widest, max3(n, gm, V > e ? V : e)));
    a->mm.workers = m->workers;
    return at;
}

static recurrent32_acts *acts_new(const recurrent32 *m)
{
    recurrent32_acts *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    size_t floats = carve_acts(m, a, NULL);
    a->block = aligned_alloc(64, floats * sizeof(float));
    if (!a->block) {
        free(a);
        return NULL;
    }
    memset(a->block, 0, floats * sizeof(float));
    carve_acts(m, a, a->block);
    return a;
}

/* one named entry of the list over value v and gradient g, (rows, cols) or a vector (cols 0) */
static tensor_ref entry(const char *name, float *v, float *g, size_t rows, size_t cols)
{
    tensor_ref t = {.value32 = v, .grad32 = g, .ndim = cols ? 2 : 1, .decay = cols != 0,
                    .shape = {rows, cols ? cols : 1}, .size = rows * (cols ? cols : 1)};
    snprintf(t.name, sizeof t.name, "%s", name);
    return t;
}

/* base: a buffer of m->n floats -> its weights by name, in the buffer's order */
static recurrent32_weights carve_weights(const recurrent32 *m, float *base)
{
    const recurrent_shape *s = &m->shape;
    size_t V = s->vocab, e = s->input, st = s->state, gm = gates(s) * st;
    recurrent32_weights w = {.E = base};
    w.U = w.E + V * e, w.bx = w.U + gm * e, w.W = w.bx + gm;
    w.bh = s->cell == RECURRENT_GRU ? w.W + gm * st : NULL;
    w.Wout = w.W + gm * st + (w.bh ? gm : 0), w.bout = w.Wout + V * st;
    return w;
}

/* m's trained list: every tensor but W when there is no recurrence */
static void list_tensors(recurrent32 *m)
{
    const recurrent_shape *s = &m->shape;
    size_t V = s->vocab, e = s->input, st = s->state, gm = gates(s) * st, k = 0;
    const char *cell = s->cell == RECURRENT_GRU ? "gru" : "rnn";
    char name[4][8];
    const char *part[] = {"U", "bx", "W", "bh"};
    for (int i = 0; i < 4; i++)
        snprintf(name[i], sizeof name[i], "%s.%s", cell, part[i]);
    m->t[k++] = entry("tok_emb", m->w.E, m->g.E, V, e);
    m->t[k++] = entry(name[0], m->w.U, m->g.U, gm, e);
    m->t[k++] = entry(name[1], m->w.bx, m->g.bx, gm, 0);
    if (!m->no_recurrence)
        m->t[k++] = entry(name[2], m->w.W, m->g.W, gm, st);
    if (m->w.bh)
        m->t[k++] = entry(name[3], m->w.bh, m->g.bh, gm, 0);
    m->t[k++] = entry("Wout", m->w.Wout, m->g.Wout, V, st);
    m->t[k++] = entry("bout", m->w.bout, m->g.bout, V, 0);
    m->count = k;
}

recurrent32 *recurrent32_new(const recurrent_shape *s, size_t B, size_t T, int no_recurrence)
{
    int workers;
    if (s->vocab == 0 || s->input == 0 || s->state == 0 || B == 0 || T == 0 ||
        workers_get(&workers) != INVENT_OK)
        return NULL;
    recurrent32 *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    size_t V = s->vocab, e = s->input, st = s->state, gm = gates(s) * st;
    *m = (recurrent32){.shape = *s, .B = B, .T = T, .no_recurrence = no_recurrence != 0,
                       .workers = workers};
    m->n = V * e + gm * e + gm + gm * st + (s->cell == RECURRENT_GRU ? gm : 0) + V * st + V;
    m->params = calloc(m->n, sizeof(float));
    m->grads = calloc(m->n, sizeof(float));
    if (!m->params || !m->grads || !(m->a = acts_new(m))) {
        recurrent32_free(m);
        return NULL;
    }
    m->w = carve_weights(m, m->params), m->g = carve_weights(m, m->grads);
    list_tensors(m);
    return m;
}

void recurrent32_free(recurrent32 *m)
{
    if (!m)
        return;
    if (m->a)
        free(m->a->block);
    free(m->a);
    free(m->params);
    free(m->grads);
    free(m);
}

/* v: (count) <- N(0, sigma^2) */
static void draw_gaussian(float *v, size_t count, double sigma, gsl_rng *r)
{
    for (size_t i = 0; i < count; i++)
        v[i] = (float)gsl_ran_gaussian(r, sigma);
}

/* W: (blocks m, m) <- a random rotation in each (m, m) block */
static int draw_rotations(float *W, size_t blocks, size_t st, gsl_rng *r)
{
    gsl_matrix *Q = gsl_matrix_alloc(st, st);
    int status = Q ? INVENT_OK : INVENT_ENOMEM;
    for (size_t k = 0; status == INVENT_OK && k < blocks; k++) {
        status = mat_random_orthogonal(Q, r);
        for (size_t i = 0; status == INVENT_OK && i < st * st; i++)
            W[k * st * st + i] = (float)Q->data[i];
    }
    gsl_matrix_free(Q);
    return status;
}

int recurrent32_draw(recurrent32 *m, gsl_rng *r)
{
    const recurrent_shape *s = &m->shape;
    size_t V = s->vocab, e = s->input, st = s->state, G = gates(s);
    memset(m->params, 0, m->n * sizeof(float));
    draw_gaussian(m->w.E, V * e, 1.0, r);
    draw_gaussian(m->w.U, G * st * e, 1.0 / sqrt((double)e), r);
    draw_gaussian(m->w.Wout, V * st, 0.02, r);
    /* W last: a seed gives the model and its control the same E, U and W_out */
    int status = m->no_recurrence ? INVENT_OK : draw_rotations(m->w.W, G, st, r);
    for (size_t i = 0; s->cell == RECURRENT_GRU && i < st; i++)
        m->w.bx[st + i] = 1.0f; /* the update gate: carry the state at first */
    return status;
}

const float *recurrent32_logits(const recurrent32 *m)
{
    return m->a->logits;
}

const double *recurrent32_token_loss(const recurrent32 *m)
{
    return m->a->row_loss;
}

/* One step in time of the pointwise part, for units lo..hi-1 of the B windows. */
typedef struct {
    const recurrent32 *m;
    size_t t;
} step_job;

static float sigmoidf(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

/* units lo..hi-1 at step t: h_t from P_t and the step's h_{t-1} W^T (columns of a->step) */
static void forward_units(const recurrent32 *m, size_t t, size_t lo, size_t hi)
{
    const recurrent32_acts *a = m->a;
    size_t st = m->shape.state, B = m->B, T = m->T, gm = gates(&m->shape) * st;
    int rec = !m->no_recurrence && t > 0;
    for (size_t b = 0; b < B; b++) {
        size_t row = b * T + t;
        const float *p = a->P + row * gm, *hp = a->Hprev + row * st, *step = a->step + b * gm;
        float *h = a->H + row * st;
        for (size_t i = lo; i < hi; i++) {
            if (m->shape.cell == RECURRENT_ELMAN) {
                h[i] = tanhf(p[i] + (rec ? step[i] : 0.0f));
                continue;
            }
            float qr = rec ? step[i] : 0.0f, qz = rec ? step[st + i] : 0.0f;
            float qn = (rec ? step[2 * st + i] : 0.0f) + m->w.bh[2 * st + i];
            float r = sigmoidf(p[i] + qr + m->w.bh[i]);
            float z = sigmoidf(p[st + i] + qz + m->w.bh[st + i]);
            float nn = tanhf(p[2 * st + i] + r * qn);
            a->R[row * st + i] = r, a->Zg[row * st + i] = z, a->N[row * st + i] = nn;
            a->Q[row * st + i] = qn;
            h[i] = (1.0f - z) * nn + z * hp[i];
        }
    }
}

static int forward_item(void *ctx, size_t item, int worker)
{
    const step_job *j = ctx;
    size_t lo = item * UNITS_CHUNK, st = j->m->shape.state;
    (void)worker;
    forward_units(j->m, j->t, lo, lo + UNITS_CHUNK < st ? lo + UNITS_CHUNK : st);
    return INVENT_OK;
}

/* t -> the step's product over the B windows: a->step: (B, g m) = h_{t-1} W^T, W^T
 * packed in a->Wp (t 0: only a->Wp packed, for the steps after) */
static int step_product(recurrent32 *m, size_t t)
{
    size_t st = m->shape.state, gm = gates(&m->shape) * st;
    gemm32_args g = {m->B, gm, st, m->a->Hprev + t * st, m->T * st, 1, m->w.W, 1, st,
                     m->a->step, gm, .init = 1, .packed = t ? m->a->Wp : NULL};
    return t ? gemm32(&g, NULL, m->workers) : gemm32_pack(&g, m->a->Wp);
}

/* the states of every window, one step in time after the other */
static int unroll(recurrent32 *m)
{
    recurrent32_acts *a = m->a;
    size_t st = m->shape.state, T = m->T, chunks = (st + UNITS_CHUNK - 1) / UNITS_CHUNK;
    int status = INVENT_OK;
    for (size_t t = 0; t < T && status == INVENT_OK; t++) {
        for (size_t b = 0; b < m->B; b++) { /* h_{t-1}: 0 at t = 0 and without recurrence */
            float *hp = a->Hprev + (b * T + t) * st;
            if (t == 0 || m->no_recurrence)
                memset(hp, 0, st * sizeof(float));
            else
                memcpy(hp, a->H + (b * T + t - 1) * st, st * sizeof(float));
        }
        if (!m->no_recurrence)
            status = step_product(m, t);
        step_job j = {m, t};
        if (status == INVENT_OK)
            status = workers_run(chunks, m->workers, forward_item, &j);
    }
    return status;
}

int recurrent32_forward(recurrent32 *m, const size_t *x, const size_t *y, double *loss)
{
    const recurrent_shape *s = &m->shape;
    size_t n = m->B * m->T, e = s->input, st = s->state, gm = gates(s) * st, V = s->vocab;
    recurrent32_acts *a = m->a;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= V || (y && y[i] >= V))
            return INVENT_ERANGE;
    a->mm.workers = m->workers;
    for (size_t i = 0; i < n; i++) /* x_t = E[id_t] */
        memcpy(a->X + i * e, m->w.E + x[i] * e, e * sizeof(float));
    int status = linear32_forward(&a->mm, n, e, gm, a->X, m->w.U, NULL, m->w.bx, 0, a->P);
    if (status == INVENT_OK)
        status = unroll(m);
    if (status == INVENT_OK)
        status = linear32_forward(&a->mm, n, st, V, a->H, m->w.Wout, NULL, m->w.bout, 0,
                                  a->logits);
    double l = xent32_forward(&a->mm, n, V, a->logits, y, a->probs, a->row_loss);
    if (loss && y)
        *loss = l;
    return status;
}

/* units lo..hi-1 at step t, back: g = dH_t + (dQ_{t+1} W)^T -> dA_t, dQ_t, and the
 * GRU's carry z g added to dH_{t-1} */
static void backward_units(const recurrent32 *m, size_t t, size_t lo, size_t hi)
{
    const recurrent32_acts *a = m->a;
    size_t st = m->shape.state, B = m->B, T = m->T, gm = gates(&m->shape) * st;
    int from_next = !m->no_recurrence && t + 1 < T;
    for (size_t b = 0; b < B; b++) {
        size_t row = b * T + t;
        float *dA = a->dA + row * gm, *dQ = a->dQ + row * gm;
        for (size_t i = lo; i < hi; i++) {
            float g = a->dH[row * st + i] + (from_next ? a->step[b * st + i] : 0.0f);
            if (m->shape.cell == RECURRENT_ELMAN) {
                float h = a->H[row * st + i];
                dA[i] = dQ[i] = g * (1.0f - h * h);
                continue;
            }
            size_t k = row * st + i;
            float r = a->R[k], z = a->Zg[k], nn = a->N[k];
            float dn = g * (1.0f - z) * (1.0f - nn * nn); /* at n's pre-activation */
            float dr = dn * a->Q[k] * r * (1.0f - r);
            float dz = g * (a->Hprev[k] - nn) * z * (1.0f - z);
            dA[i] = dQ[i] = dr, dA[st + i] = dQ[st + i] = dz;
            dA[2 * st + i] = dn, dQ[2 * st + i] = dn * r;
            if (t > 0 && !m->no_recurrence)
                a->dH[k - st] += g * z;
        }
    }
}

static int backward_item(void *ctx, size_t item, int worker)
{
    const step_job *j = ctx;
    size_t lo = item * UNITS_CHUNK, st = j->m->shape.state;
    (void)worker;
    backward_units(j->m, j->t, lo, lo + UNITS_CHUNK < st ? lo + UNITS_CHUNK : st);
    return INVENT_OK;
}

/* t -> a->step: (B, m) = dQ_t W over the B windows, the gradient at h_{t-1} through W,
 * W packed in a->Wp (pack 1: only a->Wp packed, for the steps after) */
static int step_product_back(recurrent32 *m, size_t t, int pack)
{
    size_t st = m->shape.state, gm = gates(&m->shape) * st;
    gemm32_args g = {m->B, st, gm, m->a->dQ + t * gm, m->T * gm, 1, m->w.W, st, 1, m->a->step,
                     st, .init = 1, .packed = m->a->Wp};
    return pack ? gemm32_pack(&g, m->a->Wp) : gemm32(&g, NULL, m->workers);
}

/* back through time: dA, dQ at every step of every window */
static int unroll_backward(recurrent32 *m)
{
    size_t st = m->shape.state, chunks = (st + UNITS_CHUNK - 1) / UNITS_CHUNK;
    int status = m->no_recurrence ? INVENT_OK : step_product_back(m, 0, 1);
    for (size_t t = m->T; t-- > 0 && status == INVENT_OK;) {
        step_job j = {m, t};
        status = workers_run(chunks, m->workers, backward_item, &j);
        if (status == INVENT_OK && t > 0 && !m->no_recurrence)
            status = step_product_back(m, t, 0);
    }
    return status;
}

int recurrent32_backward(recurrent32 *m, const size_t *x, const size_t *y)
{
    const recurrent_shape *s = &m->shape;
    size_t n = m->B * m->T, e = s->input, st = s->state, gm = gates(s) * st, V = s->vocab;
    recurrent32_acts *a = m->a;
    xent32_backward(n, V, a->probs, y, a->dlogits);
    int status = linear32_backward(&a->mm, n, st, V, a->H, m->w.Wout, a->dlogits, a->dH, 1, 0,
                                   m->g.Wout, m->g.bout);
    if (status == INVENT_OK)
        status = unroll_backward(m);
    /* W h_{t-1} + bh over every position (without recurrence h_{t-1} = 0: W's gradient
     * stays 0, bh's is still dQ's column sums) */
    if (status == INVENT_OK && (!m->no_recurrence || m->g.bh))
        status = linear32_backward(&a->mm, n, st, gm, a->Hprev, m->w.W, a->dQ, NULL, 0, 0, m->g.W,
                                   m->g.bh);
    if (status == INVENT_OK) /* U x_t + bx */
        status = linear32_backward(&a->mm, n, e, gm, a->X, m->w.U, a->dA, a->dX, 1, 0, m->g.U,
                                   m->g.bx);
    for (size_t i = 0; status == INVENT_OK && i < n; i++) /* x_t = E[id_t] */
        for (size_t k = 0; k < e; k++)
            m->g.E[x[i] * e + k] += a->dX[i * e + k];
    return status;
}

int recurrent32_train_forward(void *model, const size_t *x, const size_t *y, double *loss)
{
    return recurrent32_forward(model, x, y, loss);
}

int recurrent32_train_backward(void *model, const size_t *x, const size_t *y)
{
    return recurrent32_backward(model, x, y);
}
