/* Grader for exercise 14: the paired interval over seeds and its verdict,
 * against paired_interval_of and paired_verdict_of, on the held-out losses
 * of two models at the same seeds. a and b are views with a stride.
 * Refused calls: paired_interval_of paired_verdict_of */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics.h>

#include "exercises.h"
#include "grade.h"

#define RULE "d_i = a_i - b_i; se = s_d / sqrt(n), s_d the standard deviation of the d_i with " \
             "n - 1; lo, hi = mean(d) -+ t se, t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, n - 1)"
#define VERDICT_RULE "costs when lo > m, helps when hi < -m, equivalent when -m < lo and hi < m, " \
                     "else not resolved: an interval that touches the margin has not cleared it"

/* the ways to get the interval wrong that the grader names */
typedef enum { WELCH, POOLED, NORMAL, SD_OVER_N, DOF_N, NO_STRIDE, MISTAKES } variant;

/* a, b: (n) -> (1, 4) mean, se, lo, hi as variant v computes them */
static gsl_matrix *interval_as(const gsl_vector *a, const gsl_vector *b, double level, variant v)
{
    size_t n = a->size;
    gsl_vector_const_view pa = gsl_vector_const_view_array(a->data, n);
    gsl_vector_const_view pb = gsl_vector_const_view_array(b->data, n);
    const gsl_vector *x = v == NO_STRIDE ? &pa.vector : a, *y = v == NO_STRIDE ? &pb.vector : b;
    gsl_vector *d = gsl_vector_alloc(n);
    gsl_vector_memcpy(d, x), gsl_vector_sub(d, y);
    double va = gsl_stats_variance(x->data, x->stride, n) / (double)n;
    double vb = gsl_stats_variance(y->data, y->stride, n) / (double)n;
    double mean = gsl_stats_mean(d->data, d->stride, n);
    double se = gsl_stats_sd_m(d->data, d->stride, n, mean) / sqrt((double)n), df = n - 1.0;
    if (v == WELCH || v == POOLED) /* Welch: Satterthwaite's degrees of freedom */
        se = sqrt(va + vb);
    if (v == WELCH)
        df = (va + vb) * (va + vb) * df / (va * va + vb * vb);
    if (v == POOLED)
        df = 2.0 * df;
    if (v == SD_OVER_N)
        se *= sqrt((n - 1.0) / (double)n);
    if (v == DOF_N)
        df = (double)n;
    double p = 1.0 - (1.0 - level) / 2.0;
    double t = v == NORMAL ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_tdist_Pinv(p, df);
    gsl_matrix *out = grade_nan(1, 4);
    double row[4] = {mean, se, mean - t * se, mean + t * se};
    for (size_t k = 0; k < 4; k++)
        gsl_matrix_set(out, 0, k, row[k]);
    gsl_vector_free(d);
    return out;
}

/* iv, m -> the verdict of the mean alone (mean_only) or of an interval allowed to touch */
static paired_verdict verdict_as(const paired_interval *iv, double m, int mean_only)
{
    double lo = mean_only ? iv->mean : iv->lo, hi = mean_only ? iv->mean : iv->hi;
    if (lo > m || (!mean_only && lo >= m))
        return PAIRED_COSTS;
    if (hi < -m || (!mean_only && hi <= -m))
        return PAIRED_HELPS;
    return mean_only || (lo >= -m && hi <= m) ? PAIRED_EQUIVALENT : PAIRED_NOT_RESOLVED;
}

/* the student's verdict against the library's, naming a known mistake */
static void check_verdict(const char *what, paired_verdict got, paired_verdict want,
                          const paired_interval *iv, double m)
{
    const char *why = VERDICT_RULE;
    if (got == verdict_as(iv, m, 1))
        why = "the verdict read the mean alone: it must read the whole interval [lo, hi] (a "
              "small mean with a wide interval resolves nothing)";
    else if (got == verdict_as(iv, m, 0))
        why = "an interval touching the margin was taken to clear it: compare strictly "
              "(lo > m, hi < -m, -m < lo, hi < m)";
    cr_assert(got == want, "%s: the interval [%.9g, %.9g] against the margin %g gives \"%s\", "
              "your verdict was \"%s\" (%d).\nHint: %s", what, iv->lo, iv->hi, m,
              paired_verdict_name(want), paired_verdict_name(got), (int)got, why);
}

/* a0, b0: (n) paired losses -> the student's interval and verdict (a, b as strided
 * views) against the library's */
static void compare(const double *a0, const double *b0, size_t n, double level, double m,
                    const char *what)
{
    gsl_vector_const_view va = gsl_vector_const_view_array(a0, n);
    gsl_vector_const_view vb = gsl_vector_const_view_array(b0, n);
    gsl_vector *a = grade_strided(&va.vector), *b = grade_strided(&vb.vector);
    paired_interval want, iv = {NAN, NAN, NAN, NAN};
    paired_verdict want_v, v = (paired_verdict)99;
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, level, &want), INVENT_OK);
    cr_assert_eq(paired_verdict_of(&want, m, &want_v), INVENT_OK);
    gsl_matrix *known[MISTAKES];
    for (variant k = 0; k < MISTAKES; k++)
        known[k] = interval_as(a, b, level, k);
    const grade_mistake mistakes[MISTAKES] = {
        {known[WELCH], "a and b were treated as unpaired (Welch): take the spread of the "
                       "differences a_i - b_i, which pairing by seed makes small"},
        {known[POOLED], "a and b were treated as unpaired (pooled): take the spread of the "
                        "differences a_i - b_i, which pairing by seed makes small"},
        {known[NORMAL], "the normal quantile (1.96 at 95%) was used: with n - 1 degrees of "
                        "freedom Student's t is wider (2.776 at n = 5)"},
        {known[SD_OVER_N], "the squares were divided by n, not n - 1: the sample's standard "
                           "deviation divides by n - 1"},
        {known[DOF_N], "Student's t was taken with n degrees of freedom: the differences have "
                       "n - 1"},
        {known[NO_STRIDE], "a and b were read as if their stride were 1: they are views, read "
                           "them with gsl_vector_get"}};
    grade_status(what, ex14_paired_verdict(a, b, level, m, &iv, &v), INVENT_OK,
                 "return INVENT_OK for n >= 2 finite pairs, 0 < level < 1 and m > 0");
    gsl_matrix *got = grade_nan(1, 4), *w = grade_nan(1, 4);
    double g4[4] = {iv.mean, iv.se, iv.lo, iv.hi}, w4[4] = {want.mean, want.se, want.lo, want.hi};
    for (size_t k = 0; k < 4; k++)
        gsl_matrix_set(got, 0, k, g4[k]), gsl_matrix_set(w, 0, k, w4[k]);
    grade_matrix_why(what, got, w, 1e-9, RULE " (the row: mean, se, lo, hi)", mistakes, MISTAKES);
    check_verdict(what, v, want_v, &want, m);
    grade_unchanged_vector("a after the call", a, &va.vector);
    grade_unchanged_vector("b after the call", b, &vb.vector);
    for (size_t k = 0; k < MISTAKES; k++)
        gsl_matrix_free(known[k]);
    gsl_matrix_free(got), gsl_matrix_free(w), gsl_vector_free(a), gsl_vector_free(b);
}

/* five seeds: the full model's losses spread by 0.16 over seeds, the ablation 0.035 to
 * 0.046 above it at each (paired: [0.035, 0.046], costs; unpaired: [-0.050, 0.131]) */
static const double full1[5] = {2.031, 2.112, 1.987, 2.064, 2.145};
static const double ablated1[5] = {2.072, 2.149, 2.033, 2.099, 2.188};

GRADE(ex14, an_ablation_that_costs_over_correlated_seeds)
{
    compare(ablated1, full1, 5, 0.95, 0.02, "five seeds, differences 0.035 to 0.046, m = 0.02");
}

GRADE(ex14, close_to_the_margin_five_seeds_resolve_nothing)
{
    /* differences 0.030 + (-0.012, 0.008, 0.014, -0.004, -0.006): t gives lo = 0.0167,
     * below m; the normal quantile would give 0.0206 and claim a cost */
    const double b[5] = {1.90, 1.95, 2.00, 2.05, 2.10}, a[5] = {1.918, 1.988, 2.044, 2.076, 2.124};
    compare(a, b, 5, 0.95, 0.02, "five seeds, mean difference 0.03, m = 0.02");
}

GRADE(ex14, a_small_mean_with_a_wide_interval_is_not_equivalent)
{
    const double b[5] = {2.0, 2.1, 1.9, 2.05, 1.95};
    const double a[5] = {2.05, 2.06, 1.93, 2.005, 1.98}; /* d: mean 0.005, sd 0.043 */
    compare(a, b, 5, 0.95, 0.02, "five seeds, mean difference 0.005, spread 0.04, m = 0.02");
}

GRADE(ex14, an_equivalent_ablation_and_one_that_helps)
{
    const double b[6] = {2.0, 2.1, 1.9, 2.05, 1.95, 2.02};
    const double same[6] = {2.001, 2.102, 1.899, 2.052, 1.951, 2.019};
    const double better[6] = {1.95, 2.04, 1.86, 1.99, 1.9, 1.97};
    compare(same, b, 6, 0.95, 0.02, "six seeds, differences within 0.002, m = 0.02");
    compare(better, b, 6, 0.95, 0.02, "six seeds, differences -0.04 to -0.06, m = 0.02");
}

GRADE(ex14, an_interval_touching_the_margin_is_not_resolved)
{
    const double b[3] = {1.0, 2.0, 3.0}, a[3] = {1.5, 2.5, 3.5}, c[3] = {0.5, 1.5, 2.5};
    compare(a, b, 3, 0.95, 0.5, "every difference exactly +0.5 (lo = hi = m = 0.5)");
    compare(c, b, 3, 0.95, 0.5, "every difference exactly -0.5 (lo = hi = -m)");
}

GRADE(ex14, random_pairs_from_two_seeds_to_thirty)
{
    gsl_rng *r = grade_rng(141);
    const size_t sizes[] = {2, 3, 7, 30};
    const double levels[] = {0.95, 0.8, 0.99, 0.9}, effects[] = {0.05, -0.01, 0.0, 0.03};
    for (size_t c = 0; c < 4; c++) {
        double a[30], b[30];
        for (size_t i = 0; i < sizes[c]; i++) {
            b[i] = 2.0 + gsl_ran_gaussian(r, 0.1);
            a[i] = b[i] + effects[c] + gsl_ran_gaussian(r, 0.01);
        }
        char what[96];
        snprintf(what, sizeof what, "%zu random pairs, level %g, effect %g, m = 0.02", sizes[c],
                 levels[c], effects[c]);
        compare(a, b, sizes[c], levels[c], 0.02, what);
    }
    gsl_rng_free(r);
}

GRADE(ex14, bad_input_is_refused_and_leaves_the_outputs_alone)
{
    double x[5] = {2.0, 2.1, 1.9, 2.05, 1.95}, y[5] = {2.0, 2.1, 1.9, 2.05, 1.95};
    gsl_vector_view a = gsl_vector_view_array(x, 5), b = gsl_vector_view_array(y, 5);
    gsl_vector_view four = gsl_vector_view_array(y, 4), one = gsl_vector_view_array(x, 1);
    paired_interval iv = {7, 7, 7, 7};
    paired_verdict v = PAIRED_HELPS;
    grade_status("a of 5, b of 4", ex14_paired_verdict(&a.vector, &four.vector, 0.95, 0.02, &iv, &v),
                 INVENT_ESHAPE, "pairs need as many a as b: refuse other sizes");
    grade_status("one pair", ex14_paired_verdict(&one.vector, &one.vector, 0.95, 0.02, &iv, &v),
                 INVENT_ERANGE, "one pair has no spread: refuse n < 2");
    const double levels[] = {0.0, 1.0, NAN, 0.95, 0.95, 0.95}, margins[] = {0.02, 0.02, 0.02, 0.0,
                                                                             -0.02, NAN};
    for (size_t c = 0; c < 6; c++) {
        char what[64];
        snprintf(what, sizeof what, "level %g, margin %g", levels[c], margins[c]);
        grade_status(what, ex14_paired_verdict(&a.vector, &b.vector, levels[c], margins[c], &iv, &v),
                     INVENT_ERANGE, "refuse a level outside (0, 1) and a margin that is not > 0");
    }
    x[2] = NAN;
    grade_status("a NaN among the losses", ex14_paired_verdict(&a.vector, &b.vector, 0.95, 0.02,
                 &iv, &v), INVENT_ERANGE, "refuse a loss that is NaN or infinite");
    cr_assert(iv.mean == 7 && iv.se == 7 && iv.lo == 7 && iv.hi == 7 && v == PAIRED_HELPS,
              "bad input was refused, but the outputs changed: leave *iv and *verdict untouched "
              "when refusing");
}

GRADE(ex14, no_memory_leak)
{
    gsl_vector_const_view a = gsl_vector_const_view_array(ablated1, 5);
    gsl_vector_const_view b = gsl_vector_const_view_array(full1, 5);
    paired_interval iv;
    paired_verdict v;
    GRADE_NO_LEAK(paired_interval_of(&a.vector, &b.vector, 0.95, &iv),
                  ex14_paired_verdict(&a.vector, &b.vector, 0.95, 0.02, &iv, &v),
                  "free what you allocate");
}
