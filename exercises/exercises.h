/* The functions students write, one per exercise; each exercise's file
 * (exercises/exNN_topic.c) states the full contract above its function, and
 * its grader (exercises/tests/test_exNN_topic.c) compares it with the
 * library's reference. */
#ifndef EXERCISES_H
#define EXERCISES_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "invent.h"

/* 1. h: (m), x: (p) -> h_next: (m) = act(W h + U x), like rnn_step */
int ex01_rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next);

/* 2. a: score, S, R: (T, d) -> W: (T, T), W[j][i] = a(s_i, r_j), like dw_weights */
int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W);

/* 3. c: (H), V: H matrices (d, d) -> M: (d, d) = sum_j c_j V_j, like dw_mixture */
int ex03_mixture(const gsl_vector *c, gsl_matrix *const *V, gsl_matrix *M);

/* 4. W1, W2: (h, d), v: (h), x_i, x_L: (d) -> *score = v . tanh(W1 x_i + W2 x_L) */
int ex04_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score);

/* 5. cache c (width d), A: (d, d), x: (d) -> key A x appended, s: (len) = x . key_i */
int ex05_cache_step(kvcache *c, const gsl_matrix *A, const gsl_vector *x, gsl_vector *s);

/* 6. A: (d, d'), W_q: (r, d), W_k: (r, d') -> W_q^T W_k = best rank-r A, like factor_svd */
int ex06_factor(const gsl_matrix *A, gsl_matrix *Wq, gsl_matrix *Wk);

/* 7a. s: (T) scores -> s: (T) weights, stable, tempered, masked, like softmax_vector */
int ex07a_softmax(gsl_vector *s, double tau);

/* 7b. Q: (T, dk), K: (T, dk), V: (T, dv) -> out: (T, dv), causal, in matrix form */
int ex07b_causal_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                           double scale, gsl_matrix *out);

/* 8. X: (T, d) -> out: (T, d) = concat_j attn(X W_q^(j)T, X W_k^(j)T, X W_v^(j)T) W_o^T */
int ex08_multihead(const mha_weights *w, const gsl_matrix *X, attn_mask mask, gsl_matrix *out);

/* 9. x: (d) -> y: (d) = sum_i f(k_i . x + b1_i) v_i + b2, like mlp_memory_read */
int ex09_memory_read(const mlp_weights *w, const gsl_vector *x, gsl_vector *y);

/* 10. X: (T, d) -> Y: (T, d) = LN2(H + MLP(H)), H = LN1(X + MHA_causal(X)), like block_forward */
int ex10_block(const block_weights *w, const gsl_matrix *X, gsl_matrix *Y);

/* 11. s: (n) scores, V: (n, dh) -> running max m, sum l, acc: (dh) updated by one tile */
int ex11_online_update(size_t n, size_t dh, const float *s, const float *V, float *m, float *l,
                       float *acc);

/* 12a. W = softmax_rows(S), dW: (T, T') -> dS: (T, T'), like softmax_rows_backward */
int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS);

/* 12b. values of ps <- one Adam step along the gradients of ps, like adam_step */
int ex12b_adam_step(adam *opt, param_set *ps);

/* 13. one head's cache K, V: (T_max, dk) -> k, v appended as row *len, out: (dk) = the
 * attention of q over the cache, scaled by 1/sqrt(dk), like cache_attend */
int ex13_cached_head(gsl_matrix *K, gsl_matrix *V, size_t *len, const gsl_vector *q,
                     const gsl_vector *k, const gsl_vector *v, gsl_vector *out);

/* 14. a, b: (n) paired losses -> *iv: mean(a - b), se, Student-t interval; *verdict vs m */
int ex14_paired_verdict(const gsl_vector *a, const gsl_vector *b, double level, double margin,
                        paired_interval *iv, paired_verdict *verdict);

/* 15. A: (T, T) weights, x: (T) -> *score: the mean weight on keys after the query's token */
int ex15_prefix_matching(const gsl_matrix *A, const size_t *x, size_t from, double *score);

#endif
