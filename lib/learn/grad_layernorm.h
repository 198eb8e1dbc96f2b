/* Backward pass of layer normalisation (layernorm_forward in lib/layernorm.h).
 * With xhat = (x - mean) * rstd, the gradient at the input is
 * rstd * (g - mean(g) - xhat * mean(g * xhat)) where g = dY * gamma:
 * the two means remove what the normalisation itself takes away. */
#ifndef INVENT_GRAD_LAYERNORM_H
#define INVENT_GRAD_LAYERNORM_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* X: (T, d) the input, gamma: (d), mean, rstd: (T) from layernorm_forward,
 * dY: (T, d) -> dgamma: (d) +=, dbeta: (d) +=, dX: (T, d) (overwritten) */
int grad_layernorm(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *mean,
                   const gsl_vector *rstd, const gsl_matrix *dY, gsl_vector *dgamma,
                   gsl_vector *dbeta, gsl_matrix *dX);

#endif
