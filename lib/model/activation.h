/* Elementwise nonlinearities, applied in place to a whole matrix, and their
 * backward passes (the convention of linear.h: the gradient is added to dX).
 * Both backward passes read the forward's result, which is all an in-place
 * forward pass leaves behind. */
#ifndef INVENT_ACTIVATION_H
#define INVENT_ACTIVATION_H

#include <gsl/gsl_matrix.h>

/* M: (n, m) -> M: (n, m), tanh of every entry */
void activation_tanh(gsl_matrix *M);

/* M: (n, m) -> M: (n, m), max(0, entry) (the rectifier, ReLU) */
void activation_relu(gsl_matrix *M);

/* Y = tanh(X): (n, m), dY: (n, m) -> dX: (n, m) += dY * (1 - Y^2); dX must not be dY */
int activation_tanh_backward(const gsl_matrix *Y, const gsl_matrix *dY, gsl_matrix *dX);

/* Y = relu(X): (n, m) (or X itself: both are positive at the same entries),
 * dY: (n, m) -> dX: (n, m) += dY where Y > 0; dX must not be dY */
int activation_relu_backward(const gsl_matrix *Y, const gsl_matrix *dY, gsl_matrix *dX);

#endif
