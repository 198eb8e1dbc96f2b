#include "paired.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics.h>

#include "status.h"

int paired_interval_of(const gsl_vector *a, const gsl_vector *b, double level,
                       paired_interval *out)
{
    if (a->size != b->size)
        return INVENT_ESHAPE;
    if (a->size < 2 || !(level > 0.0 && level < 1.0))
        return INVENT_ERANGE;
    gsl_vector *d = gsl_vector_alloc(a->size);
    if (!d)
        return INVENT_ENOMEM;
    gsl_vector_memcpy(d, a);
    gsl_vector_sub(d, b);
    size_t n = d->size;
    double mean = gsl_stats_mean(d->data, d->stride, n);
    double se = gsl_stats_sd_m(d->data, d->stride, n, mean) / sqrt((double)n);
    double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
    gsl_vector_free(d);
    paired_interval iv = {.mean = mean, .se = se, .lo = mean - t * se, .hi = mean + t * se};
    if (!isfinite(iv.lo) || !isfinite(iv.hi)) /* a NaN or an infinity among the entries */
        return INVENT_ERANGE;
    *out = iv;
    return INVENT_OK;
}

int paired_verdict_of(const paired_interval *iv, double margin, paired_verdict *verdict)
{
    if (!(margin > 0.0) || !isfinite(margin) || !isfinite(iv->lo) || !isfinite(iv->hi) ||
        !(iv->lo <= iv->hi))
        return INVENT_ERANGE;
    if (iv->lo > margin)
        *verdict = PAIRED_COSTS;
    else if (iv->hi < -margin)
        *verdict = PAIRED_HELPS;
    else if (iv->lo > -margin && iv->hi < margin)
        *verdict = PAIRED_EQUIVALENT;
    else
        *verdict = PAIRED_NOT_RESOLVED;
    return INVENT_OK;
}

const char *paired_verdict_name(paired_verdict v)
{
    switch (v) {
    case PAIRED_COSTS:
        return "costs";
    case PAIRED_HELPS:
        return "helps";
    case PAIRED_EQUIVALENT:
        return "equivalent";
    case PAIRED_NOT_RESOLVED:
        return "not resolved";
    }
    return "unknown verdict";
}
