/* One training run of a character language model, the unit of chapter 14's
 * experiments: `steps` steps of train_step (train_step.h; AdamW with chapter
 * 13's settings: beta2 0.99, weight decay 0.1, the gradient clipped to norm 1,
 * the rate warmed up over a tenth of the steps and lowered along a half cosine
 * to a tenth of its peak) on batches drawn from the corpus's training part by a
 * stream seeded for the run alone, so that every model trained at one seed sees
 * the same batches in the same order; then the mean loss on fixed evaluation
 * windows, always causal, kept position by position too (the loss at position
 * t of a window is that of a prediction from t + 1 characters). The learning
 * curve is the loss on a second, smaller set of windows after each of `points`
 * equal parts of the steps. The model is anything with a training pass, a
 * causal evaluation pass that gives each token's loss, and a list of trained
 * tensors: the float32 GPT and its ablations, the recurrent cells. */
#ifndef INVENT_LM_RUN_H
#define INVENT_LM_RUN_H

#include <stddef.h>

#include "corpus.h"
#include "tensors.h"

typedef struct {
    void *model;
    /* x, y: (B*T) -> *loss, the mean cross-entropy, as the model trains (an ablation
     * may see the future here) */
    int (*train_forward)(void *model, const size_t *x, const size_t *y, double *loss);
    /* right after train_forward: the gradients of t += those of the loss */
    int (*backward)(void *model, const size_t *x, const size_t *y);
    /* x, y: (B*T) -> *losses: the model's (B*T) cross-entropies, one per token, always
     * causal (valid until the model's next pass) */
    int (*evaluate)(void *model, const size_t *x, const size_t *y, const double **losses);
    tensor_ref *t; /* (count) what the optimiser trains */
    size_t count;
} lm_model;

typedef struct {
    const corpus *text;
    size_t B, T;                /* the model's batch: B windows of T tokens */
    size_t steps;
    double rate;                /* the peak learning rate */
    unsigned long seed;         /* the batches' stream */
    const size_t *windows;      /* (n_windows) starts of the final evaluation's windows */
    size_t n_windows;           /* a multiple of B */
    const size_t *curve_windows; /* (n_curve) the curve's windows, a multiple of B */
    size_t n_curve;
    size_t points;              /* curve points (0: no curve) */
} lm_plan;

typedef struct {
    double loss;         /* the final mean loss over the windows, nats per character */
    double *curve;       /* (points) or NULL: the curve's loss after each part of the steps */
    double *by_position; /* (T) or NULL: the final loss at each position, mean over windows */
    double seconds;      /* wall time of the training steps alone */
} lm_result;

/* p, m -> out (its curve and by_position filled where not NULL); INVENT_ERANGE for sizes
 * that do not fit (windows not a multiple of B, a training part shorter than T + 1),
 * INVENT_ENOMEM, or the model's own status */
int lm_run(const lm_plan *p, const lm_model *m, lm_result *out);

/* m on n windows (a multiple of p->B) -> *loss, their mean; by_position: (T) or NULL */
int lm_evaluate(const lm_plan *p, const lm_model *m, const size_t *windows, size_t n,
                double *loss, double *by_position);

#endif
