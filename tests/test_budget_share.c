/* Unit tests: an ablated model's loss as a share of the full model's steps.
 * Reference shares from numpy (/root/torchenv/bin/python):
 * exp(np.interp(loss, L[::-1], log(s)[::-1])), linear in log steps; the near
 * miss np.interp(loss, L[::-1], s[::-1]), linear in steps. */
#include <criterion/criterion.h>
#include <math.h>

#include "budget_share.h"
#include "status.h"

enum { K = 4 };

/* the full model at 1/4, 1/2, 3/4 and all of its steps */
static const double shares[K] = {0.25, 0.5, 0.75, 1.0};
static const double losses[K] = {2.40, 2.20, 2.10, 2.05};

/* s, L: (K), loss -> the library's answer, asserting success */
static budget_share share_of(const double *s, const double *L, double loss)
{
    gsl_vector_const_view vs = gsl_vector_const_view_array(s, K);
    gsl_vector_const_view vL = gsl_vector_const_view_array(L, K);
    budget_share out;
    cr_assert_eq(budget_share_of(&vs.vector, &vL.vector, loss, &out), INVENT_OK);
    return out;
}

Test(budget_share, between_two_budgets_linear_in_log_steps)
{
    budget_share b = share_of(shares, losses, 2.30);
    cr_assert_eq(b.reach, BUDGET_WITHIN);
    cr_assert_float_eq(b.share, 0.353553390593274, 1e-14);
    /* near miss: linear in steps gives 0.375, a share 6% too large */
    cr_assert_gt(fabs(b.share - 0.3750000000000003), 0.02);
    cr_assert_float_eq(share_of(shares, losses, 2.15).share, 0.612372435695795, 1e-14);
    cr_assert_float_eq(share_of(shares, losses, 2.06).share, 0.944087511294901, 1e-14);
}

Test(budget_share, a_measured_loss_gives_its_own_budget)
{
    for (size_t i = 0; i < K; i++) {
        budget_share b = share_of(shares, losses, losses[i]);
        cr_assert_eq(b.reach, BUDGET_WITHIN);
        cr_assert_float_eq(b.share, shares[i], 1e-15);
    }
}

Test(budget_share, outside_the_budgets_a_bound_not_an_extrapolation)
{
    budget_share low = share_of(shares, losses, 2.04), high = share_of(shares, losses, 2.41);
    cr_assert_eq(low.reach, BUDGET_NOT_REACHED);
    cr_assert_eq(low.share, 1.0);
    cr_assert_eq(high.reach, BUDGET_UNDER_SMALLEST);
    cr_assert_eq(high.share, 0.25);
    cr_assert_str_eq(budget_reach_name(low.reach), "not reached within budget");
    cr_assert_str_eq(budget_reach_name(high.reach), "less than the smallest budget");
    cr_assert_str_eq(budget_reach_name(BUDGET_WITHIN), "within budget");
}

Test(budget_share, a_curve_that_does_not_fall_or_budgets_that_do_not_rise_are_refused)
{
    const double rising[K] = {2.40, 2.20, 2.25, 2.05}, flat[K] = {2.40, 2.20, 2.20, 2.05};
    const double nan_loss[K] = {2.40, NAN, 2.10, 2.05}, repeated[K] = {0.25, 0.5, 0.5, 1.0};
    const double from_zero[K] = {0.0, 0.5, 0.75, 1.0}, to_inf[K] = {0.25, 0.5, 0.75, INFINITY};
    const double *bad[][2] = {{shares, rising},   {shares, flat},   {shares, nan_loss},
                              {repeated, losses}, {from_zero, losses}, {to_inf, losses}};
    budget_share out = {BUDGET_WITHIN, 7.0};
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        gsl_vector_const_view vs = gsl_vector_const_view_array(bad[c][0], K);
        gsl_vector_const_view vL = gsl_vector_const_view_array(bad[c][1], K);
        cr_assert_eq(budget_share_of(&vs.vector, &vL.vector, 2.3, &out), INVENT_ERANGE,
                     "case %zu", c);
    }
    gsl_vector_const_view vs = gsl_vector_const_view_array(shares, K);
    gsl_vector_const_view vL = gsl_vector_const_view_array(losses, K);
    gsl_vector_const_view s1 = gsl_vector_const_view_array(shares, 1);
    gsl_vector_const_view L1 = gsl_vector_const_view_array(losses, 1);
    gsl_vector_const_view L3 = gsl_vector_const_view_array(losses, 3);
    cr_assert_eq(budget_share_of(&vs.vector, &vL.vector, NAN, &out), INVENT_ERANGE);
    cr_assert_eq(budget_share_of(&vs.vector, &vL.vector, INFINITY, &out), INVENT_ERANGE);
    cr_assert_eq(budget_share_of(&s1.vector, &L1.vector, 2.3, &out), INVENT_ERANGE);
    cr_assert_eq(budget_share_of(&vs.vector, &L3.vector, 2.3, &out), INVENT_ESHAPE);
    cr_assert(out.reach == BUDGET_WITHIN && out.share == 7.0);
}
