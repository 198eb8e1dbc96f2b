/* Backward pass of the cross-entropy (lib/xent.h): the gradient of the mean
 * loss with respect to the logits is (softmax(Z) - onehot(y)) / n. */
#ifndef INVENT_GRAD_XENT_H
#define INVENT_GRAD_XENT_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

/* Z: (n, c) logits, y: (n) classes -> dZ: (n, c) (overwritten; may be Z) */
int grad_xent(const gsl_matrix *Z, const size_t *y, gsl_matrix *dZ);

#endif
