/* The finite-difference check of every hand-written backward pass, on small
 * random inputs: each case builds its inputs, runs forward and backward,
 * and compares every gradient with central differences (lib/fdcheck.h).
 * Chapter 12 reports them under claim L1; the unit tests run them too. */
#ifndef INVENT_GRADCHECK_H
#define INVENT_GRADCHECK_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

typedef struct {
    const char *name;        /* "linear", "softmax (causal mask)", ... */
    const char *gradients;   /* which gradients it checks, e.g. "dW, db, dX" */
    double (*run)(gsl_rng *r); /* -> the worst relative error; NaN when a pass fails */
} gradcheck_case;

/* -> the cases, *n of them */
const gradcheck_case *gradcheck_cases(size_t *n);

/* name -> its case, or NULL */
const gradcheck_case *gradcheck_find(const char *name);

/* The control of the checks: layer normalisation's backward pass as one
 * might first write it, dX = rstd * gamma * dY, treating the norm as a fixed
 * scaling (the two mean terms dropped) -> its worst relative error against
 * finite differences, which must be far above the checks' tolerance */
double gradcheck_wrong_layernorm(gsl_rng *r);

#endif
