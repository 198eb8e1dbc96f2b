/* The finite-difference check of every hand-written backward pass, on small
 * random inputs: each case builds its inputs, runs forward and backward,
 * and compares every gradient with central differences (lib/toys/fdcheck.h).
 * Chapter 12 reports them under claim L1; the unit tests run them too. */
#ifndef INVENT_GRADCHECK_H
#define INVENT_GRADCHECK_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

/* Each case also has a near miss: the mistake a first attempt at that backward
 * pass makes (a dropped term, a forgotten factor), checked by the same code and
 * far off the finite differences. */
typedef struct {
    const char *name;      /* "linear", "softmax (causal mask)", ... */
    const char *gradients; /* which gradients it checks, e.g. "dW, db, dX" */
    /* near_miss 0: the library's backward pass; 1: the near miss -> the worst relative
     * error; NaN when a pass fails */
    double (*run)(gsl_rng *r, int near_miss);
    const char *near_miss; /* what the near miss gets wrong */
} gradcheck_case;

/* -> the cases, *n of them */
const gradcheck_case *gradcheck_cases(size_t *n);

/* name -> its case, or NULL */
const gradcheck_case *gradcheck_find(const char *name);

#endif
