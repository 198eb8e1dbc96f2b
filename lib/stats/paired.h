/* Two models compared over paired seeds: the paired mean difference, its
 * Student-t interval and a verdict against a margin fixed in advance.
 *
 * The procedure chapter 14 follows, in this order:
 *   1. Before any run, the source fixes the margin m > 0 (nats per character):
 *      the smallest difference worth a claim. A margin chosen after looking at
 *      the numbers can be bent to make any result a verdict.
 *   2. Model A (an ablation) and model B (the full model) are trained at the
 *      same n >= 2 seeds: seed i gives both the same initial draw and the same
 *      batches, so a_i - b_i holds the ablation's effect and little of the
 *      seed's luck, which a and b share.
 *   3. The differences d_i = a_i - b_i give the mean d, the standard error
 *      se = s_d / sqrt(n) (s_d: their standard deviation with n - 1) and the
 *      interval d -+ t se, t the 1 - (1 - level) / 2 quantile of Student's t
 *      with n - 1 degrees of freedom (Student, 1908): at n = 5 and 95%,
 *      t = 2.776, where the normal quantile 1.960 would give an interval 29%
 *      too narrow.
 *   4. The verdict reads the interval, never the mean alone:
 *        costs         the whole interval above +m  (lo > +m)
 *        helps         the whole interval below -m  (hi < -m)
 *        equivalent    the whole interval inside (-m, +m)
 *        not resolved  anything else: narrated, never claimed.
 *      An interval that touches +-m has not cleared it and is not resolved.
 *
 * "Equivalent" is the interval form of the two one-sided tests of Schuirmann
 * (1987, J. Pharmacokinetics and Biopharmaceutics 15, 657-680): the
 * difference is shown to lie within +-m when both one-sided tests, "d <= -m"
 * and "d >= +m", are rejected, which at size alpha each is the 1 - 2 alpha
 * interval lying inside (-m, +m). Read off the 95% interval, each
 * one-sided test has size 2.5%, so the verdict is conservative; "costs" and
 * "helps" are one-sided tests of "d <= +m" and "d >= -m" at the same 2.5%.
 * Each verdict errs at most at that rate; among k ablations the chance that
 * some verdict errs is larger (up to k times), which a level of 1 - 0.05 / k
 * would bound (Bonferroni) at the price of wider intervals.
 * Pairing is what makes small effects resolvable: the unpaired (Welch)
 * interval of the same runs keeps the seed-to-seed spread that a and b share,
 * and is several times wider when that spread dominates. */
#ifndef INVENT_PAIRED_H
#define INVENT_PAIRED_H

#include <gsl/gsl_vector.h>

typedef enum { PAIRED_COSTS, PAIRED_HELPS, PAIRED_EQUIVALENT, PAIRED_NOT_RESOLVED } paired_verdict;

typedef struct {
    double mean;   /* d = mean(a - b) */
    double se;     /* s_d / sqrt(n), s_d the standard deviation of a - b with n - 1 */
    double lo, hi; /* d -+ t se, t Student's quantile with n - 1 degrees of freedom */
} paired_interval;

/* a, b: (n) paired results, n >= 2, finite; level in (0, 1) -> *out; INVENT_ESHAPE when
 * the sizes differ, INVENT_ERANGE for n < 2, a non-finite entry or level, *out untouched */
int paired_interval_of(const gsl_vector *a, const gsl_vector *b, double level,
                       paired_interval *out);

/* iv (lo <= hi, finite), margin m > 0 -> *verdict by the rule above; INVENT_ERANGE for
 * a margin or interval that is not, *verdict untouched */
int paired_verdict_of(const paired_interval *iv, double margin, paired_verdict *verdict);

/* v -> "costs", "helps", "equivalent", "not resolved" (or "unknown verdict") */
const char *paired_verdict_name(paired_verdict v);

#endif
