/* Exercise 14 (chapter 14): the paired interval over seeds, and its verdict.
 *
 * Chapter 14 trains an ablated model and the full model at the same n seeds
 * (the same initial draw, the same batches) and asks whether the ablation
 * costs, helps, or changes nothing that matters. Seed i gives the held-out
 * losses a_i (ablated) and b_i (full); their difference d_i = a_i - b_i keeps
 * the ablation's effect and drops most of the seed's luck, which both share.
 * Over the n differences:
 *
 *     mean  d  = (1/n) sum_i d_i
 *     se       = s_d / sqrt(n),  s_d^2 = sum_i (d_i - d)^2 / (n - 1)
 *     lo, hi   = d -+ t se,      t = Student's quantile 1 - (1 - level) / 2
 *                                    with n - 1 degrees of freedom
 *
 * (gsl_cdf_tdist_Pinv(p, nu) gives t). The verdict against a margin m > 0,
 * fixed before the runs, reads the whole interval, strictly:
 *     costs         lo > m
 *     helps         hi < -m
 *     equivalent    -m < lo and hi < m   (Schuirmann's two one-sided tests, 1987)
 *     not resolved  anything else (an interval that touches +-m has not cleared it).
 *
 * Contract of ex14_paired_verdict(a, b, level, margin, iv, verdict):
 *   - a, b: (n) the paired losses, views with a stride; level in (0, 1), the
 *     interval's coverage (0.95 in chapter 14); margin: m;
 *   - on success *iv = {mean, se, lo, hi} and *verdict, INVENT_OK;
 *   - INVENT_ESHAPE when a and b differ in size; INVENT_ERANGE when n < 2, level
 *     is not inside (0, 1), the margin is not a finite number > 0, or a loss is
 *     NaN or infinite; then *iv and *verdict are left untouched;
 *   - reads a and b only; may allocate, but frees what it allocates.
 * Write it yourself: the grade refuses calls to paired_interval_of and
 * paired_verdict_of.
 * Grade: make exercise14   Hints: make hint 14 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "exercises.h"

int ex14_paired_verdict(const gsl_vector *a, const gsl_vector *b, double level, double margin,
                        paired_interval *iv, paired_verdict *verdict)
{
    /* BEGIN SOLUTION */
    /* stub: (void)a; (void)b; (void)level; (void)margin; (void)iv; (void)verdict; */
    /* stub: return INVENT_OK; */
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
    double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
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
    /* END SOLUTION */
}
