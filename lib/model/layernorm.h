/* Layer normalisation (Ba, Kiros and Hinton, 2016): each token's vector is
 * shifted to mean 0 and scaled to variance 1 over its d coordinates, then
 * stretched and shifted by learned gamma and beta. The variance divides by
 * d (not d - 1), as in PyTorch's nn.LayerNorm. */
#ifndef INVENT_LAYERNORM_H
#define INVENT_LAYERNORM_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* X: (T, d), gamma, beta: (d), eps > 0 -> Y: (T, d), row t = gamma * (x_t - mean_t) * rstd_t
 * + beta with rstd_t = 1/sqrt(var_t + eps); mean, rstd: (T) receive them, or NULL.
 * Y may be X itself (in place). */
int layernorm_forward(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *beta,
                      double eps, gsl_matrix *Y, gsl_vector *mean, gsl_vector *rstd);

/* The backward pass. With xhat = (x - mean) * rstd and g = dY * gamma, the
 * gradient at the input is rstd * (g - mean(g) - xhat * mean(g * xhat)): the
 * two means remove what the normalisation itself takes away (a shift and a
 * scaling of the row). X: (T, d) the input, gamma: (d), mean, rstd: (T) as
 * layernorm_forward left them, dY: (T, d) -> dX: (T, d) +=, dgamma: (d) +=,
 * dbeta: (d) += (added, as in linear.h); any of the three may be NULL */
int layernorm_backward(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *mean,
                       const gsl_vector *rstd, const gsl_matrix *dY, gsl_matrix *dX,
                       gsl_vector *dgamma, gsl_vector *dbeta);

#endif
