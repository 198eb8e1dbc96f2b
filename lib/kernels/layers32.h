/* The layers of the float32 training path (gpt32.h), each over a whole
 * batch of n = B*T rows at once, as llm.c writes them: the products through
 * gemm32 (gemm32.h), the rest as loops over rows, all on the workers. Every backward pass adds
 * its gradients to what the caller holds (linear.h's convention), but where
 * it says it writes them (a gradient the caller would only have zeroed), and
 * nothing here allocates. The formulas are those of the float64 layers in
 * lib/model/ (linear.h, layernorm.h, activation.h, xent.h, embedding.h). */
#ifndef INVENT_LAYERS32_H
#define INVENT_LAYERS32_H

#include <stddef.h>

/* Where the layers run: gemm32's scratch (for widths up to its size) and the threads
 * (the row-wise layers share out fixed chunks of rows, so the numbers do not depend on
 * their count). */
typedef struct {
    float *scratch;
    int workers;
} linear32_ctx;

/* W: (m, k) -> Wp: gemm32_scratch(m, k) floats, W^T packed for linear32_forward (for a
 * W that serves several passes, or packed beside others on the workers) */
int linear32_pack(size_t k, size_t m, const float *W, float *Wp);

/* in: (n, k), W: (m, k) (Wp: W as linear32_pack left it, or NULL), b: (m) or NULL ->
 * out: (n, m) = in W^T + b (relu 1: max(in W^T + b, 0), by each block's worker) */
int linear32_forward(const linear32_ctx *cx, size_t n, size_t k, size_t m, const float *in,
                     const float *W, const float *Wp, const float *b, int relu, float *out);

/* dout: (n, m) -> din: (n, k) += dout W, or = dout W with set (din NULL: skipped; relu
 * with set: = dout W where in > 0, else 0, the gradient before the ReLU whose output in is),
 * dW: (m, k) += dout^T in, db: (m) += column sums of dout (NULL: no bias) */
int linear32_backward(const linear32_ctx *cx, size_t n, size_t k, size_t m, const float *in,
                      const float *W, const float *dout, float *din, int set, int relu,
                      float *dW, float *db);

/* x: (n, d) -> y: (n, d) = gamma (x - mean) rstd + beta, mean, rstd: (n) kept,
 * rstd = 1 / sqrt(var + eps) (the variance over d, two passes) */
void layernorm32_forward(const linear32_ctx *cx, size_t n, size_t d, const float *x,
                         const float *gamma, const float *beta, float eps, float *y, float *mean,
                         float *rstd);

/* dy: (n, d) -> dx: (n, d) +=, dgamma, dbeta: (d) += */
void layernorm32_backward(const linear32_ctx *cx, size_t n, size_t d, const float *x,
                          const float *gamma, const float *mean, const float *rstd,
                          const float *dy, float *dx, float *dgamma, float *dbeta);

/* a, b: (count) -> out = a + b */
void residual32_forward(size_t count, const float *a, const float *b, float *out);

/* logits: (n, V), y: (n) -> probs: (n, V) the softmax, row_loss: (n) each -log probs[y],
 * -> their mean (summed in double, in row order); rows shared out between cx's workers */
double xent32_forward(const linear32_ctx *cx, size_t n, size_t V, const float *logits,
                      const size_t *y, float *probs, double *row_loss);

/* probs: (n, V) from xent32_forward -> dlogits: (n, V) = (probs - onehot(y)) / n */
void xent32_backward(size_t n, size_t V, const float *probs, const size_t *y, float *dlogits);

/* ids: (B*T) in [0, V) -> x: (B*T, d) = E[ids] + P[t] (E: (V, d), P: (T_max >= T, d)) */
void embedding32_forward(size_t B, size_t T, size_t d, const size_t *ids, const float *E,
                         const float *P, float *x);

/* dx: (B*T, d) -> dE, dP +=, at the rows the tokens and positions used */
void embedding32_backward(size_t B, size_t T, size_t d, const size_t *ids, const float *dx,
                          float *dE, float *dP);

#endif
