/* Training a small classifier: minibatches drawn from a fixed training
 * set, the cross-entropy, its gradient through the model's own backward
 * pass, an Adam step; an evaluation pass on held-out data at regular steps
 * (the curves); and a progress line while it runs. Everything is
 * sequential, so the same seed gives the same numbers. */
#ifndef INVENT_TRAIN_H
#define INVENT_TRAIN_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

#include "cli.h"
#include "params.h"
#include "tasks.h"

/* A model as the training loop sees it. */
typedef struct {
    void *self;
    param_set *params;
    /* x: one example -> z: (1, classes) logits; keeps what backward needs */
    int (*forward)(void *self, const gsl_matrix *x, gsl_matrix *z);
    /* right after forward(x): dz: (1, classes) -> gradients added to params */
    int (*backward)(void *self, const gsl_matrix *x, const gsl_matrix *dz);
    void (*release)(void *self); /* frees self, its parameters included */
} train_model;

/* Frees what a model constructor allocated; a zeroed model is fine. */
void train_model_release(train_model *m);

typedef struct {
    size_t steps;    /* Adam steps (at most, when patience is set) */
    size_t batch;    /* examples per step */
    double rate;     /* Adam's step size */
    size_t points;   /* evaluations on held-out data, evenly spaced, step 0 included */
    size_t patience; /* stop once this many evaluations in a row have not lowered the
                      * best held-out loss by 1%; 0: run every step */
} train_plan;

/* m, data -> mean cross-entropy *loss and *accuracy over every example */
int train_evaluate(const train_model *m, const task_data *data, double *loss,
                   double *accuracy);

/* Trains m on train_set; curve: (points, 3) <- (step, held-out loss,
 * held-out accuracy) at each evaluation; after an early stop (plan->patience)
 * the rows left repeat the last evaluation. label names the run on the
 * progress line */
int train_run(const invent_opts *o, const char *label, const train_model *m,
              const task_data *train_set, const task_data *test_set, const train_plan *plan,
              gsl_rng *r, gsl_matrix *curve);

#endif
