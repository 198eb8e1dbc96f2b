#include "layers32.h"

#include <math.h>
#include <string.h>

#include "gemm32.h"

int linear32_forward(const linear32_ctx *cx, size_t n, size_t k, size_t m, const float *in,
                     const float *W, const float *b, float *out)
{
    for (size_t i = 0; i < n; i++) /* the bias first, then the product is added */
        if (b)
            memcpy(out + i * m, b, m * sizeof(float));
        else
            memset(out + i * m, 0, m * sizeof(float));
    gemm32_args g = {n, m, k, in, k, 1, W, 1, k, out, m};
    return gemm32(&g, cx->scratch, cx->workers);
}

int linear32_backward(const linear32_ctx *cx, size_t n, size_t k, size_t m, const float *in,
                      const float *W, const float *dout, float *din, float *dW, float *db)
{
    gemm32_args dx = {n, k, m, dout, m, 1, W, k, 1, din, k};
    gemm32_args dw = {m, k, n, dout, 1, m, in, k, 1, dW, k};
    int status = din ? gemm32(&dx, cx->scratch, cx->workers) : 0;
    if (status == 0)
        status = gemm32(&dw, cx->scratch, cx->workers);
    for (size_t i = 0; db && i < n; i++)
        for (size_t j = 0; j < m; j++)
            db[j] += dout[i * m + j];
    return status;
}

void layernorm32_forward(size_t n, size_t d, const float *x, const float *gamma,
                         const float *beta, float eps, float *y, float *mean, float *rstd)
{
    for (size_t i = 0; i < n; i++) {
        const float *xi = x + i * d;
        float mu = 0.0f, var = 0.0f;
        for (size_t j = 0; j < d; j++)
            mu += xi[j];
        mu /= (float)d;
        for (size_t j = 0; j < d; j++)
            var += (xi[j] - mu) * (xi[j] - mu);
        float inv = 1.0f / sqrtf(var / (float)d + eps);
        for (size_t j = 0; j < d; j++)
            y[i * d + j] = gamma[j] * ((xi[j] - mu) * inv) + beta[j];
        mean[i] = mu, rstd[i] = inv;
    }
}

void layernorm32_backward(size_t n, size_t d, const float *x, const float *gamma,
                          const float *mean, const float *rstd, const float *dy, float *dx,
                          float *dgamma, float *dbeta)
{
    for (size_t i = 0; i < n; i++) {
        const float *xi = x + i * d, *dyi = dy + i * d;
        float mu = mean[i], inv = rstd[i], g_mean = 0.0f, gx_mean = 0.0f;
        for (size_t j = 0; j < d; j++) {
            float xhat = (xi[j] - mu) * inv, g = gamma[j] * dyi[j];
            g_mean += g;
            gx_mean += g * xhat;
            dbeta[j] += dyi[j];
            dgamma[j] += dyi[j] * xhat;
        }
        g_mean /= (float)d, gx_mean /= (float)d;
        for (size_t j = 0; j < d; j++) {
            float xhat = (xi[j] - mu) * inv;
            dx[i * d + j] += (gamma[j] * dyi[j] - g_mean - xhat * gx_mean) * inv;
        }
    }
}

/* Four floats at a time, without branches (the signs are a coin toss, which a
 * branch predicts badly): SSE2 on x86-64, plain C elsewhere. */
typedef float v4 __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));

static v4 load4(const float *p)
{
    v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* x where keep > 0, else 0 */
static v4 where_positive(v4 keep, v4 x)
{
    return (v4)((v4i)x & (keep > (v4){0}));
}

void relu32_forward(size_t count, const float *z, float *f)
{
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        v4 x = load4(z + i), y = where_positive(x, x);
        memcpy(f + i, &y, sizeof y);
    }
    for (; i < count; i++)
        f[i] = z[i] > 0.0f ? z[i] : 0.0f;
}

void relu32_backward(size_t count, const float *z, const float *df, float *dz)
{
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        v4 y = load4(dz + i) + where_positive(load4(z + i), load4(df + i));
        memcpy(dz + i, &y, sizeof y);
    }
    for (; i < count; i++)
        dz[i] += z[i] > 0.0f ? df[i] : 0.0f;
}

void residual32_forward(size_t count, const float *a, const float *b, float *out)
{
    for (size_t i = 0; i < count; i++)
        out[i] = a[i] + b[i];
}

double xent32_forward(size_t n, size_t V, const float *logits, const size_t *y, float *probs)
{
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        const float *z = logits + i * V;
        float *p = probs + i * V, top = z[0], sum = 0.0f;
        for (size_t c = 1; c < V; c++)
            top = fmaxf(top, z[c]);
        for (size_t c = 0; c < V; c++)
            sum += (p[c] = expf(z[c] - top));
        for (size_t c = 0; c < V; c++)
            p[c] /= sum;
        if (y)
            total += (double)(top - z[y[i]]) + log((double)sum);
    }
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
