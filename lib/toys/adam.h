/* Adam (Kingma and Ba, 2015): gradient descent with a step per parameter
 * scaled by running estimates of the gradient's first and second moments,
 * corrected for their start at zero. */
#ifndef INVENT_ADAM_H
#define INVENT_ADAM_H

#include "params.h"

typedef struct {
    double rate, beta1, beta2, eps; /* 1e-3, 0.9, 0.999, 1e-8 are the usual values */
    unsigned long steps;            /* steps taken so far */
    param_set moments;              /* value: first moment m, grad: second moment v */
} adam;

/* ps: the parameters to train, rate > 0 -> *opt ready (beta1 0.9, beta2 0.999,
 * eps 1e-8); INVENT_ERANGE for a bad rate, INVENT_ENOMEM */
int adam_init(adam *opt, const param_set *ps, double rate);

/* values of ps <- one Adam step along the gradients of ps */
int adam_step(adam *opt, param_set *ps);

void adam_free(adam *opt);

#endif
