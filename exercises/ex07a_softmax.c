/* Your file: write the part marked TODO. Grade it: make exercise7a
 * To start over: make reset 7a (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 7a (chapter 7): a numerically stable, masked softmax.
 *
 * Attention turns scores into weights that are positive and sum to one:
 *
 *     w_i = exp(s_i / tau) / sum_j exp(s_j / tau)        tau > 0, the temperature
 *
 * Written as it stands, exp overflows for scores near 1e3 and the result is
 * inf/inf = NaN. Subtracting the largest score first changes nothing
 * mathematically (the factor exp(-max/tau) cancels) and keeps every exponent
 * <= 0, so nothing overflows.
 *
 * Contract of ex07a_softmax(s, tau), in place on s: (T):
 *   - s may be a view: its entries lie s->stride apart (gsl_vector_get/set);
 *   - returns INVENT_ERANGE, leaving s as it was, when tau <= 0 (or NaN) or
 *     when any score is NaN or +INFINITY;
 *   - a score of -INFINITY is masked: its weight is exactly 0, even when tau
 *     is +INFINITY (which gives every visible score the same weight);
 *   - if every score is -INFINITY (the position may look at nothing), every
 *     weight is 0 and no NaN appears;
 *   - otherwise the weights are finite, >= 0, and sum to 1, for scores as
 *     large as +-1e300 and any T; returns INVENT_OK.
 * Write it yourself: the grade refuses calls to softmax_vector, softmax_rows,
 * attn_weights and attn_sum_form; and to every library function that does the
 * same work (found by walking the library's call graph: each calls one of them,
 * or is one of them wrapped): ablated_batch_forward, ablated_forward,
 * additive_weights, attn_forward, block_forward, gpt_batch_forward,
 * gpt_cache_step, gpt_forward, gpt_generate, gpt_generate_next, gpt_gradcheck,
 * gpt_probe_run, learn_block_pass, learn_recall_attention, mha_forward,
 * mha_head_weights.
 * Grade: make exercise7a   Hints: make hint 7a (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)s; (void)tau;
    return INVENT_OK;
}
