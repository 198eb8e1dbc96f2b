/* Backward passes of the elementwise nonlinearities (lib/activation.h). */
#ifndef INVENT_GRAD_ACTIVATION_H
#define INVENT_GRAD_ACTIVATION_H

#include <gsl/gsl_matrix.h>

/* Y = tanh(X): (n, m), dY: (n, m) -> dX: (n, m) = dY * (1 - Y^2); dX may be dY */
int grad_tanh(const gsl_matrix *Y, const gsl_matrix *dY, gsl_matrix *dX);

/* X: (n, m) the input of the ReLU, dY: (n, m) -> dX = dY where X > 0, else 0;
 * dX may be dY */
int grad_relu(const gsl_matrix *X, const gsl_matrix *dY, gsl_matrix *dX);

#endif
