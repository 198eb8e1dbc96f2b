/* Scaled dot-product attention in double precision, written two ways: the
 * per-position sum a reader derives by hand, and the masked matrix form
 * softmax(scale * Q K^T + M) V that real systems compute (Vaswani et al.,
 * 2017). Both must agree; chapter 7 checks that they do. */
#ifndef INVENT_ATTENTION_H
#define INVENT_ATTENTION_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

typedef enum {
    ATTN_BIDIRECTIONAL, /* every position sees every position */
    ATTN_CAUSAL         /* position t sees positions 0..t (needs T == T') */
} attn_mask;

/* Q: (T, dk), K: (T', dk) -> W: (T, T'), W = softmax_rows(scale * Q K^T + M) */
int attn_weights(const gsl_matrix *Q, const gsl_matrix *K, double scale, attn_mask mask,
                 gsl_matrix *W);

/* Q: (T, dk), K: (T', dk), V: (T', dv) -> W: (T, T') the weights, kept for
 * the backward pass, and out: (T, dv) = W V; allocates nothing */
int attn_forward(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, double scale,
                 attn_mask mask, gsl_matrix *W, gsl_matrix *out);

/* Q, K, V, scale and W as attn_forward used and left them, dOut: (T, dv) ->
 * dQ: (T, dk) +=, dK: (T', dk) +=, dV: (T', dv) += (added, as in linear.h);
 * work: (2T, T') scratch. The mask needs no argument: the weights it zeroed
 * pass no gradient back. Allocates nothing. */
int attn_backward(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, double scale,
                  const gsl_matrix *W, const gsl_matrix *dOut, gsl_matrix *dQ, gsl_matrix *dK,
                  gsl_matrix *dV, gsl_matrix *work);

/* The same output, one query position at a time: for each t, scores
 * s_i = scale * q_t . k_i over the visible i, weights = softmax(s), and
 * out_t = sum_i w_i v_i. No T x T' matrix is formed: scores: (T') holds one
 * query's scores, then its weights, and is left with the last query's. */
int attn_sum_form(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, double scale,
                  attn_mask mask, gsl_vector *scores, gsl_matrix *out);

#endif
