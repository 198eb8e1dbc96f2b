/* Masks: which positions a query may look at. */
#ifndef INVENT_MASK_H
#define INVENT_MASK_H

#include <gsl/gsl_matrix.h>

/* S: (T, T) scores -> S with -INFINITY above the diagonal, so that position
 * t sees only positions 0..t (a causal, autoregressive model) */
int mask_causal(gsl_matrix *S);

/* S: (T, T) -> S with -INFINITY wherever t - i >= w or i > t: position t sees
 * only the w most recent positions, itself included (a sliding window) */
int mask_window(gsl_matrix *S, size_t w);

#endif
