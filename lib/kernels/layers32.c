#include "layers32.h"

#include <math.h>
#include <string.h>

#include "gemm32.h"
#include "workers.h"

/* rows per work item of the row-wise layers: fixed, so the sums do not depend on the threads */
#define ROWS_CHUNK 32

/* A row-wise layer: fn(args, lo, hi) does rows lo .. hi-1. */
typedef struct {
    void (*fn)(const void *args, size_t lo, size_t hi);
    const void *args;
    size_t n;
} rows_job;

static int rows_item(void *ctx, size_t item, int worker)
{
    const rows_job *j = ctx;
    size_t lo = item * ROWS_CHUNK, hi = lo + ROWS_CHUNK < j->n ? lo + ROWS_CHUNK : j->n;
    (void)worker;
    j->fn(j->args, lo, hi);
    return 0;
}

/* rows 0 .. n-1 of a row-wise layer, in chunks shared out between cx's workers */
static void rows_run(const linear32_ctx *cx, size_t n, void (*fn)(const void *, size_t, size_t),
                     const void *args)
{
    rows_job j = {fn, args, n};
    workers_run((n + ROWS_CHUNK - 1) / ROWS_CHUNK, cx->workers, rows_item, &j);
}

/* Four floats at a time: SSE2 on x86-64, plain C elsewhere. */
typedef float v4 __attribute__((vector_size(16)));

static v4 load4(const float *p)
{
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* x: (n, m) -> sums: (m) += its columns' sums, each in row order (a row at a time, four
 * columns at a time) */
static void column_sums_add(size_t n, size_t m, const float *x, float *sums)
{
    for (size_t i = 0; i < n; i++) {
        const float *row = x + i * m;
        size_t j = 0;
        for (; j + 4 <= m; j += 4) {
            v4 acc = load4(sums + j) + load4(row + j);
            memcpy(sums + j, &acc, sizeof acc);
        }
        for (; j < m; j++)
            sums[j] += row[j];
    }
}

int linear32_pack(size_t k, size_t m, const float *W, float *Wp)
{
    gemm32_args g = {0, m, k, NULL, k, 1, W, 1, k, NULL, m, .init = 1};
    return gemm32_pack(&g, Wp);
}

int linear32_forward(const linear32_ctx *cx, size_t n, size_t k, size_t m, const float *in,
                     const float *W, const float *Wp, const float *b, int relu, float *out)
{
    /* the bias first (by each row's worker), then the product is added */
    gemm32_args g = {n, m, k, in, k, 1, W, 1, k, out, m, .init = 1, .bias = b, .packed = Wp,
                     .gate = relu ? out : NULL};
    return gemm32(&g, cx->scratch, cx->workers);
}

int linear32_backward(const linear32_ctx *cx, size_t n, size_t k, size_t m, const float *in,
                      const float *W, const float *dout, float *din, int set, int relu,
                      float *dW, float *db)
{
    gemm32_args dx = {n, k, m, dout, m, 1, W, k, 1, din, k, .init = set,
                      .gate = set && relu ? in : NULL};
    gemm32_args dw = {m, k, n, dout, 1, m, in, k, 1, dW, k, .init = 0};
    int status = din ? gemm32_pair(&dx, &dw, cx->scratch, cx->workers)
                     : gemm32(&dw, cx->scratch, cx->workers);
    if (db)
        column_sums_add(n, m, dout, db);
    return status;
}

typedef struct {
    size_t d;
    const float *x, *gamma, *beta;
    float eps, *y, *mean, *rstd;
} ln_forward_args;

/* v -> the sum of its four lanes */
static float lanes_sum(v4 v)
{
    return (v[0] + v[1]) + (v[2] + v[3]);
}

/* x: (d) -> its mean and its variance about it (two passes, four columns at a time) */
static void row_moments(const float *x, size_t d, float *mean, float *var)
{
    v4 acc = {0};
    size_t j = 0;
    for (; j + 4 <= d; j += 4)
        acc += load4(x + j);
    float mu = lanes_sum(acc);
    for (; j < d; j++)
        mu += x[j];
    mu /= (float)d;
    acc = (v4){0};
    for (j = 0; j + 4 <= d; j += 4) {
        v4 c = load4(x + j) - mu;
        acc += c * c;
    }
    float v = lanes_sum(acc);
    for (; j < d; j++)
        v += (x[j] - mu) * (x[j] - mu);
    *mean = mu, *var = v / (float)d;
}

static void ln_forward_rows(const void *args, size_t lo, size_t hi)
{
    const ln_forward_args *a = args;
    size_t d = a->d;
    for (size_t i = lo; i < hi; i++) {
        const float *xi = a->x + i * d;
        float mu, var;
        row_moments(xi, d, &mu, &var);
        float inv = 1.0f / sqrtf(var + a->eps), *y = a->y + i * d;
        size_t j = 0;
        for (; j + 4 <= d; j += 4) {
            v4 out = load4(a->gamma + j) * ((load4(xi + j) - mu) * inv) + load4(a->beta + j);
            memcpy(y + j, &out, sizeof out);
        }
        for (; j < d; j++)
            y[j] = a->gamma[j] * ((xi[j] - mu) * inv) + a->beta[j];
        a->mean[i] = mu, a->rstd[i] = inv;
    }
}

void layernorm32_forward(const linear32_ctx *cx, size_t n, size_t d, const float *x,
                         const float *gamma, const float *beta, float eps, float *y, float *mean,
                         float *rstd)
{
    ln_forward_args a = {d, x, gamma, beta, eps, y, mean, rstd};
    rows_run(cx, n, ln_forward_rows, &a);
}

typedef struct {
    size_t d;
    const float *x, *gamma, *mean, *rstd, *dy;
    float *dx;
} ln_backward_args;

/* rows lo..hi-1 of dx += (gamma dy - mean(gamma dy) - xhat mean(gamma dy xhat)) rstd,
 * four columns at a time */
static void ln_backward_rows(const void *args, size_t lo, size_t hi)
{
    const ln_backward_args *a = args;
    size_t d = a->d;
    for (size_t i = lo; i < hi; i++) {
        const float *xi = a->x + i * d, *dyi = a->dy + i * d;
        float mu = a->mean[i], inv = a->rstd[i], *dx = a->dx + i * d;
        v4 g_acc = {0}, gx_acc = {0};
        size_t j = 0;
        for (; j + 4 <= d; j += 4) {
            v4 g = load4(a->gamma + j) * load4(dyi + j);
            g_acc += g;
            gx_acc += g * ((load4(xi + j) - mu) * inv);
        }
        float g_mean = lanes_sum(g_acc), gx_mean = lanes_sum(gx_acc);
        for (; j < d; j++) {
            float g = a->gamma[j] * dyi[j];
            g_mean += g;
            gx_mean += g * ((xi[j] - mu) * inv);
        }
        g_mean /= (float)d, gx_mean /= (float)d;
        for (j = 0; j + 4 <= d; j += 4) {
            v4 xhat = (load4(xi + j) - mu) * inv;
            v4 out = load4(dx + j) +
                     (load4(a->gamma + j) * load4(dyi + j) - g_mean - xhat * gx_mean) * inv;
            memcpy(dx + j, &out, sizeof out);
        }
        for (; j < d; j++) {
            float xhat = (xi[j] - mu) * inv;
            dx[j] += (a->gamma[j] * dyi[j] - g_mean - xhat * gx_mean) * inv;
        }
    }
}

/* one row x, dy: (d) -> dbeta += dy, dgamma += dy xhat, four columns at a time */
static void ln_param_grads_row(size_t d, const float *x, float mu, float inv, const float *dy,
                               float *dgamma, float *dbeta)
{
    size_t j = 0;
    for (; j + 4 <= d; j += 4) {
        v4 g = load4(dy + j), xhat = (load4(x + j) - mu) * inv;
        v4 beta = load4(dbeta + j) + g, gamma = load4(dgamma + j) + g * xhat;
        memcpy(dbeta + j, &beta, sizeof beta);
        memcpy(dgamma + j, &gamma, sizeof gamma);
    }
    for (; j < d; j++) {
        dbeta[j] += dy[j];
        dgamma[j] += dy[j] * ((x[j] - mu) * inv);
    }
}

void layernorm32_backward(const linear32_ctx *cx, size_t n, size_t d, const float *x,
                          const float *gamma, const float *mean, const float *rstd,
                          const float *dy, float *dx, float *dgamma, float *dbeta)
{
    ln_backward_args a = {d, x, gamma, mean, rstd, dy, dx};
    rows_run(cx, n, ln_backward_rows, &a);
    for (size_t i = 0; i < n; i++) /* the sums over rows, in row order */
        ln_param_grads_row(d, x + i * d, mean[i], rstd[i], dy + i * d, dgamma, dbeta);
}

void residual32_forward(size_t count, const float *a, const float *b, float *out)
{
    for (size_t i = 0; i < count; i++)
        out[i] = a[i] + b[i];
}

typedef struct {
    size_t V;
    const float *logits;
    const size_t *y;
    float *probs;
    double *row_loss;
} xent_args;

/* rows lo..hi-1: probs = softmax(logits), row_loss = -log probs[y] (y given) */
static void xent_forward_rows(const void *args, size_t lo, size_t hi)
{
    const xent_args *a = args;
    size_t V = a->V;
    for (size_t i = lo; i < hi; i++) {
        const float *z = a->logits + i * V;
        float *p = a->probs + i * V, top = z[0], sum = 0.0f;
        for (size_t c = 1; c < V; c++)
            top = z[c] > top ? z[c] : top;
        for (size_t c = 0; c < V; c++)
            sum += (p[c] = expf(z[c] - top));
        for (size_t c = 0; c < V; c++)
            p[c] /= sum;
        if (a->y)
            a->row_loss[i] = (double)(top - z[a->y[i]]) + log((double)sum);
    }
}

double xent32_forward(const linear32_ctx *cx, size_t n, size_t V, const float *logits,
                      const size_t *y, float *probs, double *row_loss)
{
    xent_args a = {V, logits, y, probs, row_loss};
    rows_run(cx, n, xent_forward_rows, &a);
    double total = 0.0;
    for (size_t i = 0; y && i < n; i++) /* in row order, whatever the threads */
        total += row_loss[i];
    return total / (double)n;
}

void xent32_backward(size_t n, size_t V, const float *probs, const size_t *y, float *dlogits)
{
    float inv = 1.0f / (float)n;
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < V; c++)
            dlogits[i * V + c] = probs[i * V + c] * inv;
        dlogits[i * V + y[i]] -= inv;
    }
}

void embedding32_forward(size_t B, size_t T, size_t d, const size_t *ids, const float *E,
                         const float *P, float *x)
{
    for (size_t i = 0; i < B * T; i++)
        residual32_forward(d, E + ids[i] * d, P + (i % T) * d, x + i * d);
}

void embedding32_backward(size_t B, size_t T, size_t d, const size_t *ids, const float *dx,
                          float *dE, float *dP)
{
    for (size_t i = 0; i < B * T; i++)
        for (size_t j = 0; j < d; j++) {
            dE[ids[i] * d + j] += dx[i * d + j];
            dP[(i % T) * d + j] += dx[i * d + j];
        }
}
