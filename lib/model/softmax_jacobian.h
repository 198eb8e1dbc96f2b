/* How much the softmax still responds to its scores: the Jacobian
 * J = d w / d s = diag(w) - w w^T at the weights w. When one weight takes
 * almost everything (a saturated softmax), J is almost zero and so is every
 * gradient that flows back through it to the scores. */
#ifndef INVENT_SOFTMAX_JACOBIAN_H
#define INVENT_SOFTMAX_JACOBIAN_H

#include <gsl/gsl_vector.h>

/* w: (T) weights summing to 1 -> ||diag(w) - w w^T||_F, the Frobenius norm of
 * the softmax's Jacobian: 0 for a one-hot w, sqrt(1/T - 1/T^2) for uniform w */
double softmax_jacobian_norm(const gsl_vector *w);

#endif
