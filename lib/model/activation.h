/* Elementwise nonlinearities, applied in place to a whole matrix. */
#ifndef INVENT_ACTIVATION_H
#define INVENT_ACTIVATION_H

#include <gsl/gsl_matrix.h>

/* M: (n, m) -> M: (n, m), tanh of every entry */
void activation_tanh(gsl_matrix *M);

/* M: (n, m) -> M: (n, m), max(0, entry) (the rectifier, ReLU) */
void activation_relu(gsl_matrix *M);

#endif
