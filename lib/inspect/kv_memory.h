/* The MLP of a trained model read as a key-value memory (Geva et al., 2021):
 * unit i of block l fires f(k_i . h + b1_i) on the normed stream h, and adds
 * that much of its value v_i (column i of W2) to the stream. What a unit
 * detects is read from the contexts that fire it most; what it says, from the
 * characters v_i promotes through the output layer. The final norm
 * LN_f(x) = gamma (x - mean x) / std(x) + beta is linear in x but for 1/std, a
 * positive factor shared by every character, so v_i moves the logits along
 *   W_out (gamma * (v_i - mean v_i))   (the value centred and scaled by gamma),
 * up to that factor and to the rest of the stream's change of std. */
#ifndef INVENT_KV_MEMORY_H
#define INVENT_KV_MEMORY_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "gpt.h"

/* F: (n, m) activations of m units at n positions, unit i, k <= n -> top: (k)
 * the positions of its k largest activations, largest first */
int kv_top_positions(const gsl_matrix *F, size_t unit, size_t k, size_t *top);

/* F: (n, m) -> units: (k) the k units of largest mean activation, largest first */
int kv_most_active(const gsl_matrix *F, size_t k, size_t *units);

/* w, block l, unit i -> logits: (V), what v_i adds to the logits through the final
 * norm's centring and gain and W_out (see above) */
int kv_value_logits(const gpt_weights *w, size_t l, size_t i, gsl_vector *logits);

/* tokens: (k) -> the share of them equal to the most common one */
double kv_agreement(const size_t *tokens, size_t k);

#endif
