/* One training step of a language model, the one every chapter that trains
 * one (13, 14) and `make bench-train` take:
 *   gradients <- 0; loss = forward(x, y); gradients += backward;
 *   (inspect, when set: sees the raw gradients, e.g. chapter 13's check G1);
 *   clip the gradient to a norm (Pascanu et al., 2013); AdamW at the
 *   schedule's rate for this step (adamw.h, schedule.h).
 * The model is anything with a forward and a backward pass over a batch of
 * B*T tokens and a list of tensors (tensors.h), float64 or float32. */
#ifndef INVENT_TRAIN_STEP_H
#define INVENT_TRAIN_STEP_H

#include <stddef.h>

#include "adamw.h"
#include "gpt.h"
#include "schedule.h"
#include "tensors.h"

typedef struct {
    void *model;
    /* x, y: (B*T) tokens and next tokens -> *loss, the mean cross-entropy */
    int (*forward)(void *model, const size_t *x, const size_t *y, double *loss);
    /* right after forward: the gradients of t += those of the loss */
    int (*backward)(void *model, const size_t *x, const size_t *y);
    tensor_ref *t;      /* (count) what the optimiser trains, with its gradients */
    size_t count;
    adamw *opt;         /* from adamw_init(opt, t, count, .) */
    lr_schedule sch;    /* the rate of each step */
    double clip;        /* the largest gradient norm */
    /* step, its loss and rate: called after backward, before clipping, or NULL */
    void (*inspect)(void *ctx, size_t step, double loss, double rate);
    void *ctx;
} step_plan;

/* What one step did. */
typedef struct {
    double loss, rate, norm; /* the batch's loss, the step's rate, the norm before clipping */
    double seconds[3];       /* wall time of forward, backward, clipping and AdamW */
} step_report;

/* p, step (from 0), x, y: (B*T) -> one step; out may be NULL */
int train_step(const step_plan *p, size_t step, const size_t *x, const size_t *y,
               step_report *out);

/* The float64 model as train_step sees it: weights, gradients, one batch's
 * trace and the backward pass's scratch. */
typedef struct {
    gpt_weights *w, *g;
    gpt_trace *tr;
    gpt_work *work;
} gpt_batch;

/* model: a gpt_batch -> gpt_forward, gpt_backward on its weights, trace and scratch */
int gpt_batch_forward(void *model, const size_t *x, const size_t *y, double *loss);
int gpt_batch_backward(void *model, const size_t *x, const size_t *y);

#endif
