/* The linear layer, rows as examples: Y = X W^T + 1 b^T. W has one row per
 * output, like the recurrent cell's matrices. */
#ifndef INVENT_LINEAR_H
#define INVENT_LINEAR_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* X: (n, p), W: (q, p), b: (q) or NULL -> Y: (n, q) = X W^T + 1 b^T */
int linear_forward(const gsl_matrix *X, const gsl_matrix *W, const gsl_vector *b, gsl_matrix *Y);

#endif
