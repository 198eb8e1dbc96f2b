/* The model of chapter 13 with one choice of the derivation taken out, for
 * the ablations of chapter 14. Each ablation is the same gpt_weights with
 * some tensors held fixed (left out of what the optimiser sees) or trained
 * through a reparameterisation:
 *   no position   P = 0, fixed: the blocks see a bag of the characters so far
 *   no mask       blocks attend to every position while training (evaluation
 *                 stays causal): the next character leaks into the input
 *   no scale      the score is Q K^T without 1/sqrt(r): W_q = sqrt(r) Theta,
 *                 Theta trained (the same function class, other dynamics)
 *   no MLP        W1, b1, W2, b2 = 0, fixed: attention and skips only
 *   one head      H = 1 at the same width d (r = d instead of d/H)
 *   no W_o        W_o = I, fixed: the heads' outputs summed into their own
 *                 columns of the stream, nothing mixes them
 *   free A        per head one free d x d matrix A_j in place of W_q^(j)T W_k^(j)
 *                 (score X A_j X^T / sqrt(r)), started at the drawn product so
 *                 that the initial function is the full model's; with H = 2
 *                 it trains as many numbers as W_q and W_k (H d^2 = 2 d^2).
 *                 Built as heads of size d with W_k^(j) = I fixed and
 *                 W_q = sqrt(H) Theta, Theta^(j) = A_j^T trained
 *   additive      per head the additive score v_j . tanh(q_t + k_s + b_j) of
 *                 Bahdanau et al. (2015) on the same q and k (r hidden units,
 *                 additive.h) in place of q_t . k_s / sqrt(r): 2 d more numbers
 *                 per block (b and v)
 * The full model is ABL_FULL. */
#ifndef INVENT_ABLATION_H
#define INVENT_ABLATION_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "gpt.h"
#include "tensors.h"

typedef enum {
    ABL_FULL,
    ABL_NO_POSITION,
    ABL_NO_MASK,
    ABL_NO_SCALE,
    ABL_NO_MLP,
    ABL_ONE_HEAD,
    ABL_NO_WO,
    ABL_FREE_A,
    ABL_ADDITIVE,
    ABL_COUNT
} ablation;

typedef struct {
    ablation kind;
    gpt_weights *w, *g;   /* the model and its gradients */
    tensor_ref *all;      /* (n_all) every tensor of w, with g's gradients */
    tensor_ref *train;    /* (n_train) what the optimiser updates */
    size_t n_all, n_train;
    gsl_matrix **theta;   /* no scale, free A: per block the trained Theta (W_q = stretch Theta) */
    gsl_matrix **dtheta;  /* and its gradient */
    double stretch;       /* sqrt(r) for no scale, sqrt(H) for free A, else 1 */
} ablated;

/* a -> a short name ("full", "no position", ...) */
const char *ablation_name(ablation a);

/* a, the full model's shape, r -> the ablated model drawn by gpt_new(., r) and
 * fixed as a requires, or NULL (no memory, a shape gpt_new refuses) */
ablated *ablated_new(ablation a, const gpt_shape *shape, gsl_rng *r);
void ablated_free(ablated *m);

/* -> how many numbers the optimiser trains */
size_t ablated_param_count(const ablated *m);

/* m, training: 1 while training, 0 to evaluate -> m->w as a forward pass reads it:
 * W_q = stretch Theta (no scale, free A), and the mask lifted (see_future) only
 * while a no-mask model trains. Before reading m->w any other way (generation,
 * sample.h): ablated_prepare(m, 0) */
void ablated_prepare(ablated *m, int training);

/* x, y: (B*T), training: 1 while training (no mask sees the future), 0 to
 * evaluate (always causal) -> *loss, the mean cross-entropy; tr from
 * gpt_trace_new(m->w, B, T); ablated_prepare, then gpt_forward */
int ablated_forward(ablated *m, const size_t *x, const size_t *y, gpt_trace *tr, int training,
                    double *loss);

/* right after ablated_forward: the trained list's gradients += those of the loss,
 * as every backward pass adds (train_step zeroes them first); the fixed tensors'
 * gradients, which nothing reads, collect what reaches them */
int ablated_backward(ablated *m, const size_t *x, const size_t *y, const gpt_trace *tr,
                     gpt_work *work);

/* The ablated model as train_step (train_step.h) takes it: the model, one
 * batch's trace and the backward pass's scratch. */
typedef struct {
    ablated *m;
    gpt_trace *tr;
    gpt_work *work;
} ablated_batch;

/* model: an ablated_batch -> ablated_forward while training, ablated_backward */
int ablated_batch_forward(void *model, const size_t *x, const size_t *y, double *loss);
int ablated_batch_backward(void *model, const size_t *x, const size_t *y);

#endif
