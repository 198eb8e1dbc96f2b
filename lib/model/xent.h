/* Cross-entropy of a classifier: the mean, over examples, of minus the log of
 * the softmax probability given to the right class; and its backward pass. */
#ifndef INVENT_XENT_H
#define INVENT_XENT_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

/* Z: (n, c) logits, y: (n) classes in [0, c) -> *loss = mean_i -log softmax(Z_i)[y_i],
 * *correct = how many rows have their largest logit at y_i (ties count as wrong);
 * correct may be NULL */
int xent_forward(const gsl_matrix *Z, const size_t *y, double *loss, size_t *correct);

/* Z: (n, c) logits, y: (n) classes -> dZ: (n, c) += (softmax(Z) - onehot(y)) / n,
 * the gradient of the mean loss (added, as in linear.h); dZ must not be Z */
int xent_backward(const gsl_matrix *Z, const size_t *y, gsl_matrix *dZ);

#endif
