/* Unit tests for chapter 1's expected recall error: zero within capacity and
 * for a memory that keeps every state; past capacity, the lost share of
 * directions raised by the finite fit, and close to what recall_error measures. */
#include <criterion/criterion.h>
#include <math.h>

#include "recall.h"
#include "rng.h"
#include "status.h"

Test(recall_expected_error, zero_within_capacity_and_for_every_state)
{
    cr_assert_eq(recall_expected_error(12, 2, 6, MEMORY_FINAL_STATE), 0.0);
    cr_assert_eq(recall_expected_error(12, 2, 16, MEMORY_EVERY_STATE), 0.0);
    /* m = 12, p = 2, n = 8: lost 1/4; N = 224 sequences, f = 12 features */
    double want = sqrt(0.25 * 223.0 / 211.0);
    cr_assert_float_eq(recall_expected_error(12, 2, 8, MEMORY_FINAL_STATE), want, 1e-15);
}

Test(recall_error_spread, the_test_estimates_spread)
{
    cr_assert_eq(recall_error_spread(12, 2, 6), 0.0);
    /* lost 1/4 of 16 numbers per sequence, 256 sequences; a read-out of 12 features
     * fitted on 224 sequences, excess 12 / 211 */
    double test = 0.75 / (2.0 * 0.25 * 256 * 16), k = 12.0 / 211.0;
    double fit = k / (1.0 + k) * sqrt(2.0 / (12.0 * 4.0) + 2.0 / 224.0 + 2.0 / (256 * 12.0)) / 2.0;
    cr_assert_float_eq(recall_error_spread(12, 2, 8), sqrt(test + fit * fit), 1e-15);
}

Test(recall_expected_error, agrees_with_the_measured_error)
{
    gsl_rng *r = rng_new(4);
    rnn_cell *c = rnn_cell_new(10, 2, RNN_LINEAR, r);
    double e;
    cr_assert_eq(recall_error(c, 10, MEMORY_FINAL_STATE, r, &e), INVENT_OK);
    double want = recall_expected_error(10, 2, 10, MEMORY_FINAL_STATE);
    double z = fabs(e / want - 1.0) / recall_error_spread(10, 2, 10);
    cr_assert_lt(z, 5.0, "measured %g, expected %g: %g standard deviations", e, want, z);
    rnn_cell_free(c);
    gsl_rng_free(r);
}

Test(recall_error_qr, exact_within_capacity_even_when_ill_conditioned)
{
    gsl_rng *r = rng_new(18);
    rnn_cell *c = rnn_cell_new(44, 1, RNN_LINEAR, r);
    double cond, e;
    cr_assert_eq(recall_condition(c, 44, &cond), INVENT_OK);
    cr_assert_gt(cond, 1e5, "a 44-step Krylov map of this cell is badly conditioned: %g", cond);
    cr_assert_eq(recall_condition(c, 45, &cond), INVENT_ERANGE);
    cr_assert_eq(recall_error_qr(c, 44, MEMORY_FINAL_STATE, r, &e), INVENT_OK);
    cr_assert_lt(e, 1e-8, "the QR read-out recalls exactly, got %g", e);
    rnn_cell_free(c);
    gsl_rng_free(r);
}
