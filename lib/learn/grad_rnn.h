/* Backward pass of the recurrent cell unrolled over a sequence
 * (rnn_unroll in lib/rnn.h): back-propagation through time (Werbos, 1990).
 * The gradient flows back from every state through W, one step at a time. */
#ifndef INVENT_GRAD_RNN_H
#define INVENT_GRAD_RNN_H

#include <gsl/gsl_matrix.h>

#include "rnn.h"

/* X: (n, p), H: (n, m) from rnn_unroll(c, X, H), dH: (n, m) the loss gradient
 * at every state -> dW: (m, m) +=, dU: (m, p) +=, dX: (n, p) (overwritten, or
 * NULL); the sequence starts from h_0 = 0 */
int grad_rnn_unroll(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                    const gsl_matrix *dH, gsl_matrix *dW, gsl_matrix *dU, gsl_matrix *dX);

#endif
