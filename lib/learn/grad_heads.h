/* Backward pass of multi-head attention with its output matrix
 * (mha_forward in lib/heads.h): back through W_o, then through every head's
 * scaled dot-product attention (lib/grad_attention.h), then through the
 * three projections, whose input gradients add up at X. */
#ifndef INVENT_GRAD_HEADS_H
#define INVENT_GRAD_HEADS_H

#include <gsl/gsl_matrix.h>

#include "heads.h"

/* w, X: (T, d), tr: the trace mha_forward(w, X, ., tr, .) filled, dOut: (T, d)
 * -> g: gradients with the shapes of w (added to), dX: (T, d) (overwritten, or NULL) */
int grad_mha(const mha_weights *w, const gsl_matrix *X, const mha_trace *tr,
             const gsl_matrix *dOut, mha_weights *g, gsl_matrix *dX);

#endif
