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
 * (h + 1) dh - 1 of each; out and dout are (B, T, C). Queries and keys may
 * have a head size dk of their own (chapter 14's free A: dk = d while the
 * values keep dh = d/H): qkv is then (B, T, 2 H dk + C), the queries in
 * columns 0..H dk - 1, the keys in H dk..2 H dk - 1, the values after them,
 * head h's queries and keys in columns h dk .. (h + 1) dk - 1 of their part.
 * The score's scale is 1/sqrt(dk) unless the shape gives another (chapter
 * 14's no scale: 1). One work item is one
 * (sequence, head) pair, shared out between the workers (workers.h), each
 * writing only its own rows and columns, so the result does not depend on
 * the number of threads. The items run on the vector path of simd.h. */
#ifndef INVENT_ATTN_TRAIN_H
#define INVENT_ATTN_TRAIN_H

#include <stddef.h>

typedef struct attn_train_shape {
    size_t B, T, H, dh; /* sequences, tokens, heads, head size of the values (C = H dh) */
    int see_future;     /* 0: causal; 1: every query sees every key (an ablation) */
    size_t dk;          /* head size of the queries and keys; 0: dh */
    float scale;        /* the scores' scale; 0: 1/sqrt(dk) */
} attn_train_shape;

/* s -> the head size of its queries and keys */
size_t attn_train_dk(const attn_train_shape *s);

/* s -> the columns of one row of qkv: 2 H dk + H dh */
size_t attn_train_width(const attn_train_shape *s);

/* s, workers -> floats of scratch attn_train_forward and _backward need (all workers) */
size_t attn_train_scratch(const attn_train_shape *s, int workers);

/* qkv: (B, T, attn_train_width) -> out: (B, T, C), lse: (B, H, T) base-2 log-sum-exp of each
 * query's scaled scores; scratch: attn_train_scratch(s, workers) floats */
int attn_train_forward(const attn_train_shape *s, const float *qkv, float *out, float *lse,
                       float *scratch, int workers);

/* right after attn_train_forward(s, qkv, out, lse): dout: (B, T, C) ->
 * dqkv: (B, T, attn_train_width) = the gradient at qkv (written, not added: each item
 * zeroes its own columns first) */
int attn_train_backward(const attn_train_shape *s, const float *qkv, const float *out,
                        const float *lse, const float *dout, float *dqkv, float *scratch,
                        int workers);

#endif
