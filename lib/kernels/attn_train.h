/* Causal multi-head attention for training, in float32, fused: the forward
 * pass never forms the T x T weights of a head, and keeps for every query
 * only the log-sum-exp of its scores; the backward pass recomputes the
 * weights tile by tile from it (Dao, 2023, FlashAttention-2):
 *   forward   S = scale Q K^T (masked), P = softmax(S), O = P V,
 *             lse_t = log sum_s exp(S_ts)  (kept, base 2)
 *   backward  P_ts = exp(S_ts - lse_t), D_t = dO_t . O_t,
 *             dP = dO V^T, dS = P o (dP - D), dQ = scale dS K,
 *             dK = scale dS^T Q, dV = P^T dO
 * Layout as llm.c's: qkv is (B, T, 3C) with the queries in columns 0..C-1,
 * the keys in C..2C-1, the values in 2C..3C-1, head h in columns h dh ..
 * (h + 1) dh - 1 of each; out and dout are (B, T, C). One work item is one
 * (sequence, head) pair, shared out between the workers (workers.h), each
 * writing only its own rows and columns, so the result does not depend on
 * the number of threads. The items run on the vector path of simd.h. */
#ifndef INVENT_ATTN_TRAIN_H
#define INVENT_ATTN_TRAIN_H

#include <stddef.h>

typedef struct {
    size_t B, T, H, dh; /* sequences, tokens, heads, head size (C = H dh) */
    int see_future;     /* 0: causal; 1: every query sees every key (an ablation) */
} attn_train_shape;

/* s, workers -> floats of scratch attn_train_forward and _backward need (all workers) */
size_t attn_train_scratch(const attn_train_shape *s, int workers);

/* qkv: (B, T, 3C) -> out: (B, T, C), lse: (B, H, T) base-2 log-sum-exp of each
 * query's scaled scores; scratch: attn_train_scratch(s, workers) floats */
int attn_train_forward(const attn_train_shape *s, const float *qkv, float *out, float *lse,
                       float *scratch, int workers);

/* right after attn_train_forward(s, qkv, out, lse): dout: (B, T, C) ->
 * dqkv: (B, T, 3C) += the gradient at qkv */
int attn_train_backward(const attn_train_shape *s, const float *qkv, const float *out,
                        const float *lse, const float *dout, float *dqkv, float *scratch,
                        int workers);

#endif
