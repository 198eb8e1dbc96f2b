/* Unit tests: the paired interval over seeds and its verdict against a margin.
 * Reference numbers come from numpy (/root/torchenv/bin/python): d = a - b,
 * d.mean(), d.std(ddof=1) / sqrt(n), and Student's quantile found by mpmath
 * (findroot of 1 - I_{v/(v+t^2)}(v/2, 1/2) / 2 = p, 30 digits), which agrees
 * with printed tables (2.776 at 4 degrees of freedom, 97.5%). */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics.h>

#include "paired.h"
#include "status.h"

enum { N = 5 };
#define M 0.02 /* the margin, in nats per character, as chapter 14 fixes it */

/* five seeds: the full model's losses spread by 0.16 over seeds, the ablation
 * 0.035-0.046 above it at every seed */
static const double full1[N] = {2.031, 2.112, 1.987, 2.064, 2.145};
static const double ablated1[N] = {2.072, 2.149, 2.033, 2.099, 2.188};

/* differences 0.030 + (-0.012, 0.008, 0.014, -0.004, -0.006): close to the margin */
static const double full2[N] = {1.90, 1.95, 2.00, 2.05, 2.10};
static const double ablated2[N] = {1.918, 1.988, 2.044, 2.076, 2.124};

/* a, b: (N) arrays -> *iv, asserting success */
static paired_interval interval(const double *a, const double *b, double level)
{
    gsl_vector_const_view va = gsl_vector_const_view_array(a, N);
    gsl_vector_const_view vb = gsl_vector_const_view_array(b, N);
    paired_interval iv;
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, level, &iv), INVENT_OK);
    return iv;
}

/* iv, margin -> its verdict, asserting success */
static paired_verdict verdict(paired_interval iv, double margin)
{
    paired_verdict v = PAIRED_NOT_RESOLVED;
    cr_assert_eq(paired_verdict_of(&iv, margin, &v), INVENT_OK);
    return v;
}

/* a, b: (N) -> the unpaired (Welch) interval of mean(a) - mean(b): the near miss
 * that ignores the pairing; degrees of freedom by Welch and Satterthwaite */
static paired_interval welch(const double *a, const double *b, double level)
{
    double va = gsl_stats_variance(a, 1, N) / N, vb = gsl_stats_variance(b, 1, N) / N;
    double se = sqrt(va + vb), df = (va + vb) * (va + vb) / ((va * va + vb * vb) / (N - 1));
    double mean = gsl_stats_mean(a, 1, N) - gsl_stats_mean(b, 1, N);
    double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, df);
    return (paired_interval){.mean = mean, .se = se, .lo = mean - t * se, .hi = mean + t * se};
}

Test(paired, the_interval_matches_numpy_on_interleaved_views)
{
    double both[2 * N]; /* a_0 b_0 a_1 b_1 ...: each a view with stride 2 */
    for (size_t i = 0; i < N; i++)
        both[2 * i] = ablated1[i], both[2 * i + 1] = full1[i];
    gsl_vector_const_view a = gsl_vector_const_view_array_with_stride(both, 2, N);
    gsl_vector_const_view b = gsl_vector_const_view_array_with_stride(both + 1, 2, N);
    paired_interval iv;
    cr_assert_eq(paired_interval_of(&a.vector, &b.vector, 0.95, &iv), INVENT_OK);
    cr_assert_float_eq(iv.mean, 0.04039999999999999, 1e-14);
    cr_assert_float_eq(iv.se, 0.0019899748742132103, 1e-14);
    cr_assert_float_eq(iv.lo, 0.03487494400102413, 1e-10);
    cr_assert_float_eq(iv.hi, 0.04592505599897585, 1e-10);
    /* near miss: the standard deviation with n (not n - 1) is sqrt(4/5) of it, 11% less */
    cr_assert_gt(fabs(iv.se * sqrt(4.0 / 5.0) - 0.0019899748742132103), 1e-4);
}

Test(paired, pairing_resolves_what_the_unpaired_interval_cannot)
{
    paired_interval iv = interval(ablated1, full1, 0.95), w = welch(ablated1, full1, 0.95);
    /* numpy: Welch's se 0.03930241722846065, 7.9956 degrees of freedom */
    cr_assert_float_eq(w.se, 0.03930241722846065, 1e-14);
    cr_assert_float_eq(w.lo, -0.050240297570512266, 1e-9);
    cr_assert_float_eq(w.hi, 0.13104029757051225, 1e-9);
    cr_assert_eq(verdict(iv, M), PAIRED_COSTS, "paired: [%g, %g]", iv.lo, iv.hi);
    cr_assert_eq(verdict(w, M), PAIRED_NOT_RESOLVED, "unpaired: [%g, %g]", w.lo, w.hi);
    cr_assert_gt((w.hi - w.lo) / (iv.hi - iv.lo), 10.0);
}

Test(paired, five_seeds_take_students_quantile_not_the_normal_one)
{
    paired_interval iv = interval(ablated2, full2, 0.95);
    cr_assert_float_eq(iv.mean, 0.030000000000000072, 1e-14);
    cr_assert_float_eq(iv.se, 0.004774934554525324, 1e-14);
    cr_assert_float_eq(iv.lo, 0.01674265632844843, 1e-10);
    cr_assert_float_eq(iv.hi, 0.043257343671551714, 1e-10);
    /* t(0.975; 4) from mpmath: 2.7764451051977935 */
    cr_assert_float_eq((iv.hi - iv.lo) / (2.0 * iv.se), 2.7764451051977935, 1e-9);
    cr_assert_eq(verdict(iv, M), PAIRED_NOT_RESOLVED);
    /* near miss: the normal quantile 1.96 puts lo at 0.02064 (numpy), above the
     * margin, and claims a cost that five seeds do not show */
    paired_interval z = iv;
    z.lo = iv.mean - 1.959963984540054 * iv.se, z.hi = iv.mean + 1.959963984540054 * iv.se;
    cr_assert_float_eq(z.lo, 0.02064130024459463, 1e-12);
    cr_assert_eq(verdict(z, M), PAIRED_COSTS);
}

Test(paired, the_level_sets_the_quantile)
{
    paired_interval iv = interval(ablated2, full2, 0.90);
    cr_assert_float_eq(iv.lo, 0.019820571115015187, 1e-10); /* numpy, t(0.95; 4) = 2.1318 */
    cr_assert_float_eq(iv.hi, 0.040179428884984957, 1e-10);
}

Test(paired, a_constant_difference_gives_a_point_not_a_nan)
{
    double b[N] = {1, 2, 3, 4, 5}, a[N] = {1.5, 2.5, 3.5, 4.5, 5.5};
    paired_interval iv = interval(a, b, 0.95);
    cr_assert_float_eq(iv.mean, 0.5, 1e-15);
    cr_assert_eq(iv.se, 0.0);
    cr_assert_float_eq(iv.lo, 0.5, 1e-15);
    cr_assert_float_eq(iv.hi, 0.5, 1e-15);
}

Test(paired, a_verdict_needs_the_interval_to_clear_the_margin)
{
    double above = nextafter(M, 1.0), below = nextafter(-M, -1.0);
    cr_assert_eq(verdict((paired_interval){.lo = above, .hi = 0.1}, M), PAIRED_COSTS);
    cr_assert_eq(verdict((paired_interval){.lo = M, .hi = 0.1}, M), PAIRED_NOT_RESOLVED);
    cr_assert_eq(verdict((paired_interval){.lo = -0.1, .hi = below}, M), PAIRED_HELPS);
    cr_assert_eq(verdict((paired_interval){.lo = -0.1, .hi = -M}, M), PAIRED_NOT_RESOLVED);
    cr_assert_eq(verdict((paired_interval){.lo = -M / 2, .hi = M / 2}, M), PAIRED_EQUIVALENT);
    cr_assert_eq(verdict((paired_interval){.lo = -M / 2, .hi = M}, M), PAIRED_NOT_RESOLVED);
    cr_assert_eq(verdict((paired_interval){.lo = -M, .hi = M / 2}, M), PAIRED_NOT_RESOLVED);
    cr_assert_eq(verdict((paired_interval){.lo = 0, .hi = 0}, M), PAIRED_EQUIVALENT);
}

Test(paired, the_mean_alone_decides_nothing)
{
    /* near misses of a rule that reads the mean only: |d| < m looks equivalent,
     * d > m looks like a cost, but both intervals reach past the margin */
    cr_assert_eq(verdict((paired_interval){.mean = 0.0, .lo = -0.05, .hi = 0.05}, M),
                 PAIRED_NOT_RESOLVED);
    cr_assert_eq(verdict((paired_interval){.mean = 0.03, .lo = 0.01, .hi = 0.05}, M),
                 PAIRED_NOT_RESOLVED);
}

Test(paired, bad_input_is_refused_and_leaves_the_result_alone)
{
    double a[N] = {1, 2, 3, 4, 5}, b[N] = {1, 2, 3, 4, 5};
    gsl_vector_view va = gsl_vector_view_array(a, N), vb = gsl_vector_view_array(b, N);
    gsl_vector_view one = gsl_vector_view_array(a, 1), four = gsl_vector_view_array(b, 4);
    paired_interval iv = {.mean = 7, .se = 7, .lo = 7, .hi = 7};
    cr_assert_eq(paired_interval_of(&va.vector, &four.vector, 0.95, &iv), INVENT_ESHAPE);
    cr_assert_eq(paired_interval_of(&one.vector, &one.vector, 0.95, &iv), INVENT_ERANGE);
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, 0.0, &iv), INVENT_ERANGE);
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, 1.0, &iv), INVENT_ERANGE);
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, NAN, &iv), INVENT_ERANGE);
    a[2] = NAN;
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, 0.95, &iv), INVENT_ERANGE);
    a[2] = 3, b[4] = INFINITY;
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, 0.95, &iv), INVENT_ERANGE);
    b[4] = -1e308, a[4] = 1e308; /* finite, but their difference is not */
    cr_assert_eq(paired_interval_of(&va.vector, &vb.vector, 0.95, &iv), INVENT_ERANGE);
    cr_assert(iv.mean == 7 && iv.se == 7 && iv.lo == 7 && iv.hi == 7);
    paired_verdict v = PAIRED_COSTS;
    paired_interval ok = {.lo = -0.01, .hi = 0.01}, nan = {.lo = NAN, .hi = 0.01};
    paired_interval turned = {.lo = 0.01, .hi = -0.01};
    cr_assert_eq(paired_verdict_of(&ok, 0.0, &v), INVENT_ERANGE);
    cr_assert_eq(paired_verdict_of(&ok, -M, &v), INVENT_ERANGE);
    cr_assert_eq(paired_verdict_of(&ok, NAN, &v), INVENT_ERANGE);
    cr_assert_eq(paired_verdict_of(&ok, INFINITY, &v), INVENT_ERANGE);
    cr_assert_eq(paired_verdict_of(&nan, M, &v), INVENT_ERANGE);
    cr_assert_eq(paired_verdict_of(&turned, M, &v), INVENT_ERANGE);
    cr_assert_eq(v, PAIRED_COSTS);
}

Test(paired, every_verdict_has_its_own_name)
{
    cr_assert_str_eq(paired_verdict_name(PAIRED_COSTS), "costs");
    cr_assert_str_eq(paired_verdict_name(PAIRED_HELPS), "helps");
    cr_assert_str_eq(paired_verdict_name(PAIRED_EQUIVALENT), "equivalent");
    cr_assert_str_eq(paired_verdict_name(PAIRED_NOT_RESOLVED), "not resolved");
}
