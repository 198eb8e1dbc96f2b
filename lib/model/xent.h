/* Cross-entropy of a classifier: the mean, over examples, of minus the log of
 * the softmax probability given to the right class. */
#ifndef INVENT_XENT_H
#define INVENT_XENT_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

/* Z: (n, c) logits, y: (n) classes in [0, c) -> *loss = mean_i -log softmax(Z_i)[y_i],
 * *correct = how many rows have their largest logit at y_i (ties count as wrong);
 * correct may be NULL */
int xent_loss(const gsl_matrix *Z, const size_t *y, double *loss, size_t *correct);

#endif
