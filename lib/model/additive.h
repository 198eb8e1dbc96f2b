/* The additive score (Bahdanau et al., 2015), the alternative to the scaled
 * product that chapter 4 set aside and chapter 12 tested as I5: per head,
 * with the same projections q_t = W_q x_t and k_s = W_k x_s of r = d/H
 * coordinates,
 *   s_ts = v . tanh(q_t + k_s + b)      (b, v: (r), r hidden tanh units)
 * then the causal softmax and the values as in attention.h. It costs r
 * tanh evaluations per pair instead of r multiply-adds, and it cannot be
 * folded into one matrix per head. The backward pass recomputes the tanh
 * units from Q, K and b instead of keeping T T' r of them. (score.h has
 * chapter 4's one-pair form, on raw tokens and without a bias.) */
#ifndef INVENT_ADDITIVE_H
#define INVENT_ADDITIVE_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "attention.h"

typedef struct additive_score {
    gsl_matrix *b; /* (H, r): row j is head j's bias */
    gsl_matrix *v; /* (H, r): row j is head j's read-out */
} additive_score;

/* H, r, rng -> b = 0, v ~ N(0, 1/r) (scores of order one, as the scaled
 * product's); NULL on no memory, rng NULL or a size 0 */
additive_score *additive_new(size_t heads, size_t r, gsl_rng *rng);

/* H, r -> b = 0, v = 0 (room for gradients); NULL on no memory or a size 0 */
additive_score *additive_zeros(size_t heads, size_t r);
void additive_free(additive_score *a);

/* Q: (T, r), K: (T', r), b, v: (r) -> W: (T, T') = softmax_rows(S + M),
 * S_ts = v . tanh(q_t + k_s + b); masked pairs are not computed */
int additive_weights(const gsl_matrix *Q, const gsl_matrix *K, const gsl_vector *b,
                     const gsl_vector *v, attn_mask mask, gsl_matrix *W);

/* Q, K, V, b, v and W as additive_weights left them (out = W V), dOut: (T, dv)
 * -> dQ: (T, r) +=, dK: (T', r) +=, dV: (T', dv) +=, db, dv_: (r) +=;
 * work: (2T, T') scratch. Pairs of weight 0 (masked) pass nothing back.
 * Allocates nothing. */
int additive_backward(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                      const gsl_vector *b, const gsl_vector *v, const gsl_matrix *W,
                      const gsl_matrix *dOut, gsl_matrix *dQ, gsl_matrix *dK, gsl_matrix *dV,
                      gsl_vector *db, gsl_vector *dv_, gsl_matrix *work);

#endif
