/* Mutant: the normal quantile in place of Student's t. Expect: the normal quantile */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "exercises.h"

int ex14_paired_verdict(const gsl_vector *a, const gsl_vector *b, double level, double margin,
                        paired_interval *iv, paired_verdict *verdict)
{
    size_t n = a->size;
    if (b->size != n)
        return INVENT_ESHAPE;
    if (n < 2 || !(level > 0.0 && level < 1.0) || !(margin > 0.0) || !isfinite(margin))
        return INVENT_ERANGE;
    double sum = 0.0, squares = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += gsl_vector_get(a, i) - gsl_vector_get(b, i);
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; i++) {
        double e = gsl_vector_get(a, i) - gsl_vector_get(b, i) - mean;
        squares += e * e;
    }
    double se = sqrt(squares / (double)(n - 1) / (double)n);
    double t = gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - level) / 2.0);
    double lo = mean - t * se, hi = mean + t * se;
    if (!isfinite(lo) || !isfinite(hi))
        return INVENT_ERANGE;
    *iv = (paired_interval){.mean = mean, .se = se, .lo = lo, .hi = hi};
    if (lo > margin)
        *verdict = PAIRED_COSTS;
    else if (hi < -margin)
        *verdict = PAIRED_HELPS;
    else if (lo > -margin && hi < margin)
        *verdict = PAIRED_EQUIVALENT;
    else
        *verdict = PAIRED_NOT_RESOLVED;
    return INVENT_OK;
}
