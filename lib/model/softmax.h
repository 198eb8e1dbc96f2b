/* The softmax over positions, row by row, with a temperature, computed
 * stably (the row's largest score is subtracted before exponentiating), and
 * its backward pass (at temperature 1, the one attention uses). */
#ifndef INVENT_SOFTMAX_H
#define INVENT_SOFTMAX_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* s: (T) scores, tau > 0 -> s: (T) weights exp(s_i/tau) / sum_j exp(s_j/tau).
 * Entries of -INFINITY (masked) get weight 0. A row with every entry masked
 * gets all-zero weights: it attends to nothing, and no NaN appears.
 * tau = +INFINITY gives equal weights to the unmasked entries.
 * INVENT_ERANGE when tau <= 0 or a score is NaN or +INFINITY. */
int softmax_vector(gsl_vector *s, double tau);

/* S: (T, T') -> S: (T, T'), softmax_vector applied to every row */
int softmax_rows(gsl_matrix *S, double tau);

/* W = softmax_rows(S, 1): (T, T'), dW: (T, T') the gradient at the weights ->
 * dS: (T, T') += W * (dW - rowsum(dW * W)), row by row: the weighted mean of
 * the row's incoming gradient is taken away, since shifting a row of scores
 * changes nothing. Masked entries (weight 0) receive nothing. dS must not be
 * dW (the convention of linear.h: gradients are added). */
int softmax_rows_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS);

/* w: (T) weights summing to 1 -> Shannon entropy in nats (0 log 0 = 0) */
double softmax_entropy(const gsl_vector *w);

#endif
