/* Backward pass of the linear layer Y = X W^T + 1 b^T (lib/linear.h).
 * As in every grad_* module, gradients of parameters are ADDED to what the
 * caller holds (so a batch sums over its examples: zero them first), and the
 * gradient of the input is overwritten. */
#ifndef INVENT_GRAD_LINEAR_H
#define INVENT_GRAD_LINEAR_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* X: (n, p), W: (q, p), dY: (n, q) -> dW: (q, p) += dY^T X, db: (q) += column
 * sums of dY, dX: (n, p) = dY W; any of dW, db, dX may be NULL */
int grad_linear(const gsl_matrix *X, const gsl_matrix *W, const gsl_matrix *dY, gsl_matrix *dW,
                gsl_vector *db, gsl_matrix *dX);

#endif
