#include "growth.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>

#include "status.h"

int growth_exponent(const double *n, const double *cost, size_t k, double *exponent)
{
    if (k < 2)
        return INVENT_ERANGE;
    double *x = malloc(2 * k * sizeof *x);
    if (!x)
        return INVENT_ENOMEM;
    double *y = x + k;
    int status = INVENT_OK;
    for (size_t i = 0; i < k && status == INVENT_OK; i++) {
        if (!(n[i] > 0.0) || !(cost[i] > 0.0))
            status = INVENT_ERANGE;
        else
            x[i] = log(n[i]), y[i] = log(cost[i]);
    }
    double c0, c1, cov00, cov01, cov11, sumsq;
    if (status == INVENT_OK &&
        (gsl_fit_linear(x, 1, y, 1, k, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) != 0 ||
         !isfinite(c1)))
        status = INVENT_ERANGE;
    if (status == INVENT_OK)
        *exponent = c1;
    free(x);
    return status;
}
