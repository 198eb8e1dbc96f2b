/* Causal multi-head attention with the additive score (Bahdanau et al.,
 * 2015) in float32, for training: per head h, with b_h and w_h its bias and
 * read-out (dh hidden tanh units, as many as the head's coordinates),
 *   forward   S_ts = w_h . tanh(q_t + k_s + b_h) for the keys s that query t
 *             sees, P = softmax_rows(S), O = P V, lse_t = log sum_s exp(S_ts)
 *             (natural log, kept for the backward pass);
 *   backward  P_ts = exp(S_ts - lse_t), D_t = dO_t . O_t, dV += P^T dO,
 *             dS = P o (dO V^T - D), and for every pair seen, with
 *             u = tanh(q_t + k_s + b_h) and g = dS_ts w_h o (1 - u o u):
 *             dq_t += g, dk_s += g, db_h += g, dw_h += dS_ts u.
 * The tanh units are recomputed in the backward pass rather than kept (T^2
 * dh of them per head). A query meets eight keys at a time (the keys kept
 * transposed), so that each tanh unit is one vector operation and the eight
 * scores come out with no sum across lanes; AVX2+FMA where the path in use
 * (simd.h) allows it, plain C vectors elsewhere. The float64 form is
 * lib/model/additive.h. Layout as attn_train.h's (qkv (B, T, 3C), head h in
 * columns h dh .. of each third; the shape's dk must be 0 or dh and its scale
 * 0, the additive score having none); b and w are (H, dh), row h head h's. One
 * work item is one (sequence, head) pair; each item's share of db and dw is
 * kept apart and the shares are added in sequence order at the end, so the
 * result does not depend on the number of threads. */
#ifndef INVENT_ADDITIVE32_H
#define INVENT_ADDITIVE32_H

#include <stddef.h>

#include "attn_train.h"

/* s, workers -> floats of scratch additive32_forward and _backward need */
size_t additive32_scratch(const attn_train_shape *s, int workers);

/* qkv: (B, T, 3C), b, w: (H, dh) -> out: (B, T, C), lse: (B, H, T) each query's
 * natural log-sum-exp of its scores; scratch: additive32_scratch(s, workers) floats */
int additive32_forward(const attn_train_shape *s, const float *qkv, const float *b,
                       const float *w, float *out, float *lse, float *scratch, int workers);

/* right after additive32_forward(s, qkv, b, w, out, lse): dout: (B, T, C) ->
 * dqkv: (B, T, 3C) +=, db, dw: (H, dh) += the gradients at qkv, b and w */
int additive32_backward(const attn_train_shape *s, const float *qkv, const float *b,
                        const float *w, const float *out, const float *lse, const float *dout,
                        float *dqkv, float *db, float *dw, float *scratch, int workers);

#endif
