/* A head read as two d x d matrices (the "circuits" of Elhage et al., 2021):
 *   W_QK = W_q^(j)T W_k^(j)   the score of query x_t and key x_i is x_t^T W_QK x_i / sqrt(r)
 *   W_OV = W_o^(j) W_v^(j)    what the head writes into the stream for the x_i it reads
 * each of rank at most r = d / H; and how many dimensions a spectrum really
 * uses: Roy & Vetterli's (2007) effective rank exp(H(p)), p_k = s_k / sum s,
 * which is k for k equal singular values and falls as they spread, and the
 * count of singular values that hold a share of the squared norm. */
#ifndef INVENT_CIRCUITS_H
#define INVENT_CIRCUITS_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "heads.h"

/* w, head j -> QK: (d, d) = W_q^(j)T W_k^(j) (any head size: also a free-A model's) */
int circuit_qk(const mha_weights *w, size_t j, gsl_matrix *QK);

/* w, head j -> OV: (d, d) = W_o^(j) W_v^(j) */
int circuit_ov(const mha_weights *w, size_t j, gsl_matrix *OV);

/* s: (n) singular values, not all 0 -> exp(-sum p_k log p_k), p_k = s_k / sum s: in [1, n] */
double effective_rank(const gsl_vector *s);

/* s: (n) descending, share in (0, 1] -> the fewest leading s_k whose squares hold
 * that share of sum s_k^2 */
size_t energy_rank(const gsl_vector *s, double share);

#endif
