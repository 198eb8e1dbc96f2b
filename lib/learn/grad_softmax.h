/* Backward pass of the row softmax (lib/softmax.h) with temperature 1.
 * Masked entries have weight 0 and therefore receive gradient 0. */
#ifndef INVENT_GRAD_SOFTMAX_H
#define INVENT_GRAD_SOFTMAX_H

#include <gsl/gsl_matrix.h>

/* W = softmax_rows(S): (T, T'), dW: (T, T') -> dS: (T, T'),
 * dS_ij = W_ij (dW_ij - sum_k dW_ik W_ik); dS may be dW */
int grad_softmax_rows(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS);

#endif
