/* Backward pass of scaled dot-product attention, out = W V with
 * W = softmax_rows(scale * Q K^T + M) (lib/attention.h). The mask needs no
 * argument: the weights it zeroed pass no gradient back. */
#ifndef INVENT_GRAD_ATTENTION_H
#define INVENT_GRAD_ATTENTION_H

#include <gsl/gsl_matrix.h>

/* Q: (T, dk), K: (T', dk), V: (T', dv), W: (T, T') from attn_weights,
 * dOut: (T, dv) -> dQ: (T, dk), dK: (T', dk), dV: (T', dv) (overwritten) */
int grad_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                   const gsl_matrix *W, double scale, const gsl_matrix *dOut, gsl_matrix *dQ,
                   gsl_matrix *dK, gsl_matrix *dV);

#endif
