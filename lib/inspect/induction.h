/* An induction head (Olsson et al., 2022), measured: on a sequence whose second
 * half repeats its first, a head that has learned "find where the current token
 * occurred before, and read the token that came next" puts its weight on the
 * token after the earlier copy (prefix matching) and writes that token into the
 * stream, raising its logit (copying). Both scores are read from one forward
 * pass (probe.h); a one-layer model cannot prefix-match, because the key of
 * position s would need x_{s-1}, which only an earlier head can move there. */
#ifndef INVENT_INDUCTION_H
#define INVENT_INDUCTION_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

#include "gpt.h"
#include "probe.h"

/* A: (T, T) causal weights, x: (T) tokens, queries t >= from -> *score: the mean, over
 * the queries with at least one key s in [1, t - 1] whose previous token x_{s-1} equals
 * x_t, of the weight a_{t,s} on those keys; 0 when no query has one. INVENT_ESHAPE
 * when A is not square */
int induction_prefix_score(const gsl_matrix *A, const size_t *x, size_t from, double *score);

/* p after gpt_probe_run(w, .), block l, head j -> Z: (T, V) the logits that the head
 * alone writes at each position, through the final norm's centring and gain and
 * W_out (its 1/std, one positive factor per position, dropped; kv_memory.h) */
int induction_head_logits(const gpt_weights *w, const gpt_probe *p, size_t l, size_t j,
                          gsl_matrix *Z);

/* Z: (T, V) logits, x: (T) tokens, queries from <= t < T - 1 -> the mean share of the
 * other V - 1 tokens that row t ranks below the next token x_{t+1} (1: always first,
 * about 0.5: chance) */
double induction_copy_score(const gsl_matrix *Z, const size_t *x, size_t from);

#endif
