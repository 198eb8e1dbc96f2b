#include "softmax_jacobian.h"

#include <math.h>

double softmax_jacobian_norm(const gsl_vector *w)
{
    /* ||diag(w) - w w^T||_F^2 = sum_i w_i^2 (1 - w_i)^2 + sum_{i != j} w_i^2 w_j^2.
     * The second sum is written around the largest weight w_m, so that a
     * nearly one-hot w (w_m close to 1) loses nothing to cancellation. */
    size_t m = gsl_vector_max_index(w);
    double top = gsl_vector_get(w, m), rest = 0.0, diag = 0.0;
    for (size_t i = 0; i < w->size; i++) {
        double v = gsl_vector_get(w, i);
        diag += v * v * (1.0 - v) * (1.0 - v);
        rest += i == m ? 0.0 : v * v;
    }
    double off = 2.0 * top * top * rest; /* the pairs (m, j) and (j, m) */
    for (size_t i = 0; i < w->size; i++) {
        double v = gsl_vector_get(w, i);
        off += i == m ? 0.0 : v * v * (rest - v * v); /* pairs (i, j), i, j != m */
    }
    return sqrt(diag + off);
}
