/* The linear layer, rows as examples: Y = X W^T + 1 b^T. W has one row per
 * output, like the recurrent cell's matrices.
 *
 * Every *_backward in this layer follows one convention (as llm.c does):
 * its arguments are the forward's (what it needs of them, in the forward's
 * order), then the gradient at the output, then the gradients it computes,
 * again in the forward's order; every gradient it computes, of a parameter
 * or of an input, is ADDED to what the caller holds (zero it first), so that
 * a batch, two paths into one input, or a skip connection just add up. */
#ifndef INVENT_LINEAR_H
#define INVENT_LINEAR_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* X: (n, p), W: (q, p), b: (q) or NULL -> Y: (n, q) = X W^T + 1 b^T */
int linear_forward(const gsl_matrix *X, const gsl_matrix *W, const gsl_vector *b, gsl_matrix *Y);

/* X: (n, p), W: (q, p), dY: (n, q) -> dX: (n, p) += dY W, dW: (q, p) += dY^T X,
 * db: (q) += column sums of dY; any of dX, dW, db may be NULL */
int linear_backward(const gsl_matrix *X, const gsl_matrix *W, const gsl_matrix *dY,
                    gsl_matrix *dX, gsl_matrix *dW, gsl_vector *db);

#endif
