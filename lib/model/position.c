#include "position.h"

#include <math.h>

#include "status.h"

void position_sinusoidal(gsl_matrix *E)
{
    size_t d = E->size2;
    for (size_t t = 0; t < E->size1; t++)
        for (size_t j = 0; j < d; j++) {
            /* the pair k = j / 2 shares one frequency: sine first, then cosine */
            double w = pow(10000.0, -(double)(j - j % 2) / (double)d);
            gsl_matrix_set(E, t, j, j % 2 ? cos((double)t * w) : sin((double)t * w));
        }
}

int position_offset_spread(const gsl_matrix *G, double *spread)
{
    size_t T = G->size1;
    if (G->size2 != T)
        return INVENT_ESHAPE;
    double worst = 0.0;
    /* the diagonal t - s = k runs from (k, 0) when k >= 0, from (0, -k) when k < 0 */
    for (size_t k = 0; k < 2 * T - 1; k++) {
        size_t t0 = k < T ? T - 1 - k : 0, s0 = k < T ? 0 : k - (T - 1);
        double lo = INFINITY, hi = -INFINITY;
        for (size_t t = t0, s = s0; t < T && s < T; t++, s++) {
            double g = gsl_matrix_get(G, t, s);
            lo = g < lo ? g : lo;
            hi = g > hi ? g : hi;
            if (isnan(g))
                worst = NAN;
        }
        worst = isnan(worst) ? worst : fmax(worst, hi - lo);
    }
    *spread = worst;
    return INVENT_OK;
}
