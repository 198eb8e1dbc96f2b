/* Chapter 14's ablations (ablation.h) on the float32 training path
 * (gpt32.h), several times faster than the float64 reference. An ablated32
 * is made from a float64 ablated, so that both start from the same drawn
 * numbers and the random stream that follows is the same; then it trains on
 * its own. What each ablation changes on this path:
 *   no position   P = 0, left out of the trained list
 *   no mask       the blocks see the future while training, never when evaluating
 *   no scale      the score's scale is 1; W_q's slot holds Theta (W_q = sqrt(r)
 *                 Theta in the float64 path, whose 1/sqrt(r) then cancels)
 *   no MLP        W1, b1, W2, b2 = 0, left out; the MLPs are skipped
 *   one head      H = 1 (the float64 model's shape)
 *   no W_o        W_o = I, left out
 *   free A        queries and keys of head size d, values of d/H; W_k = I left
 *                 out; W_q's slot holds Theta, the score's scale 1/sqrt(d/H)
 *                 (the float64 path's sqrt(H) stretch times its 1/sqrt(d))
 *   additive      the additive score (additive32.h), its b and v per block
 *                 listed after the full model's tensors as the float64 path lists them
 * The trained list names the same tensors as the float64 model's, in the same
 * order, so an optimiser state or a comparison carries over entry by entry. */
#ifndef INVENT_ABLATION32_H
#define INVENT_ABLATION32_H

#include <stddef.h>

#include "ablation.h"
#include "gpt32.h"
#include "tensors.h"

typedef struct {
    ablation kind;
    gpt32 *m;          /* every tensor, the fixed ones included */
    tensor_ref *train; /* (n_train) what the optimiser updates: entries of m->t */
    size_t n_train;
    int training;      /* what ablated32_train_forward passes on: 1 unless changed */
} ablated32;

/* src: a float64 ablated model (any time, trained or not), B, T <= its context,
 * -> *out: the same model in float32 (every number rounded) with room for a
 * batch of B x T tokens; INVENT_ERANGE for an unknown ablation or a bad B,
 * T; INVENT_ENOMEM */
int ablated32_new(const ablated *src, size_t B, size_t T, ablated32 **out);
void ablated32_free(ablated32 *m);

/* m, dst: a float64 model of m's ablation and shape (ablated_new's) -> dst holds
 * m's numbers (Theta where dst trains one, and W_q = stretch Theta), so that
 * float64 tools read the trained model, and ablated32_new(dst, B', T') copies it
 * exactly for another batch size; INVENT_ESHAPE when they do not fit */
int ablated32_to64(const ablated32 *m, ablated *dst);

/* -> how many numbers the optimiser trains (ablated_param_count's) */
size_t ablated32_param_count(const ablated32 *m);

/* x, y: (B*T) tokens and next tokens, training: 1 while training (no mask sees
 * the future), 0 to evaluate (always causal) -> *loss, the mean cross-entropy;
 * gpt32_token_losses(m->m) then holds each position's */
int ablated32_forward(ablated32 *m, const size_t *x, const size_t *y, int training,
                      double *loss);

/* right after ablated32_forward: the trained list's gradients += those of the
 * loss; the fixed tensors' gradients stay 0 */
int ablated32_backward(ablated32 *m, const size_t *x, const size_t *y);

/* model: an ablated32 -> ablated32_forward (m->training), ablated32_backward,
 * as train_step (train_step.h) takes them */
int ablated32_train_forward(void *model, const size_t *x, const size_t *y, double *loss);
int ablated32_train_backward(void *model, const size_t *x, const size_t *y);

#endif
