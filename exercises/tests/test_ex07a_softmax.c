/* Grader for exercise 7a: a stable, masked softmax, against softmax_vector.
 * The student's vector is always a view with a stride, canaries around it.
 * Refused calls: softmax_vector softmax_rows attn_weights attn_sum_form ablated_forward
 *   additive_weights attn_forward block_forward gpt_forward gpt_gradcheck
 *   gpt_probe_run learn_recall_attention mha_forward learn_block_pass
 *   ablated_batch_forward gpt_batch_forward mha_head_weights gpt_cache_step
 *   gpt_generate_next gpt_generate */
#include <math.h>

#include "exercises.h"
#include "grade.h"

static const char *HINT_STABLE = "subtract the largest score before exp: "
                                 "w_i = exp((s_i - max) / tau) / sum_j exp((s_j - max) / tau)";

/* scores, n, tau, got -> fails the test when got holds a NaN, or sums to
 * 0, where softmax_vector gave finite weights, naming where that comes from */
static void no_nan(const double *scores, size_t n, double tau, const char *what,
                   const gsl_vector *got)
{
    double top = -INFINITY, sum = 0.0;
    int nan = 0;
    for (size_t i = 0; i < n; i++)
        top = fmax(top, scores[i]);
    for (size_t i = 0; i < got->size; i++) {
        nan |= isnan(gsl_vector_get(got, i));
        sum += gsl_vector_get(got, i);
    }
    if (top / tau > 700 && (nan || sum == 0.0))
        cr_assert_fail("%s: the weights are %s.\nHint: exp overflowed to inf for a large score "
                       "(inf / inf = NaN, or 1 / inf = 0): subtract the largest score before exp",
                       what, nan ? "NaN" : "all 0");
    cr_assert(!nan, "%s: a weight is NaN.\nHint: %s", what,
              top == -INFINITY ? "every score is masked, and -inf - -inf = NaN: when the "
                                 "largest score is -INFINITY, set every weight to 0"
                               : "a masked score at tau = +INFINITY gives -inf / inf = NaN: "
                                 "give a masked score the weight 0 directly");
}

/* the student's softmax on a strided copy of the scores and softmax_vector
 * on a plain one: the same status, the same weights, no write outside */
static void compare(const double *scores, size_t n, double tau, const char *what, const char *hint)
{
    gsl_vector_const_view in = gsl_vector_const_view_array(scores, n);
    gsl_vector *got = grade_strided(&in.vector), *want = gsl_vector_alloc(n);
    gsl_vector_memcpy(want, &in.vector);
    int want_status = softmax_vector(want, tau);
    grade_status(what, ex07a_softmax(got, tau), want_status, hint);
    grade_canaries(what, got);
    if (want_status == INVENT_OK)
        no_nan(scores, n, tau, what, got);
    grade_vector(what, got, want, 1e-12, hint);
    gsl_vector_free(got), gsl_vector_free(want);
}

/* n random scores of size ~sigma, compared as above */
static void compare_random(size_t n, double sigma, unsigned long seed, const char *what,
                           const char *hint)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *s = grade_gaussian(1, n, sigma, r);
    compare(s->data, n, 1.0, what, hint);
    gsl_matrix_free(s);
    gsl_rng_free(r);
}

GRADE(ex07a, random_scores)
{
    compare_random(12, 2.0, 71, "weights of 12 random scores (tau = 1)", HINT_STABLE);
}

GRADE(ex07a, temperature)
{
    const double s[] = {1.0, 2.0, 3.0, -1.0};
    const char *hint = "divide every (s_i - max) by tau before exp";
    compare(s, 4, 0.25, "weights at tau = 0.25 (sharper)", hint);
    compare(s, 4, 10.0, "weights at tau = 10 (flatter)", hint);
}

GRADE(ex07a, size_one)
{
    const double s[] = {-3.5};
    compare(s, 1, 1.0, "one score", "a single visible score gets weight exactly 1");
}

GRADE(ex07a, large_magnitudes_stay_finite)
{
    const double s[] = {1e4, -1e4, 9999.0, 1e300, -1e300};
    compare(s, 3, 1.0, "scores 1e4, -1e4, 9999", HINT_STABLE);
    compare(s + 3, 2, 1.0, "scores 1e300, -1e300", HINT_STABLE);
}

GRADE(ex07a, masked_entries_get_zero)
{
    const double s[] = {0.5, -INFINITY, 2.0, -INFINITY, -1.0};
    compare(s, 5, 1.0, "scores with two masked (-INFINITY) entries",
            "exp(-INFINITY - max) is 0: a masked score needs no special case once "
            "you subtract the largest score");
}

GRADE(ex07a, fully_masked_row_gives_zeros)
{
    const double s[] = {-INFINITY, -INFINITY, -INFINITY};
    compare(s, 3, 1.0, "a row where every score is masked",
            "when the largest score is -INFINITY, set every weight to 0 "
            "(-inf - -inf is NaN)");
}

GRADE(ex07a, infinite_temperature_keeps_the_mask)
{
    const double s[] = {1.0, -INFINITY, 3.0};
    compare(s, 3, INFINITY, "tau = +INFINITY with a masked score",
            "every visible score gets the same weight, and a masked one still gets exactly "
            "0: (-inf - max) / inf is NaN, so give a masked score 0 directly");
}

GRADE(ex07a, bad_input_is_refused)
{
    const char *hint = "check tau > 0 and every score before writing anything";
    const double ok[] = {1.0, 2.0}, with_nan[] = {1.0, NAN}, with_inf[] = {1.0, INFINITY};
    compare(ok, 2, 0.0, "tau = 0", hint);
    compare(ok, 2, -1.0, "tau = -1", hint);
    compare(ok, 2, NAN, "tau = NaN",
            "every comparison with NaN is false, so `tau <= 0` lets NaN through; "
            "test !(tau > 0) instead");
    compare(with_nan, 2, 1.0, "a NaN score", hint);
    compare(with_inf, 2, 1.0, "a +INFINITY score", hint);
}

GRADE(ex07a, two_sizes_and_a_long_vector)
{
    const char *hint = "n = 1000: an array of a fixed size in your code is too small for some "
                       "n; compute in s itself, and keep nothing from one call to the next";
    compare_random(5, 1.0, 72, "weights of 5 scores", hint);
    compare_random(1000, 3.0, 73, "weights of 1000 scores, after 5", hint);
    compare_random(3, 1.0, 74, "weights of 3 scores, after 1000", hint);
}

GRADE(ex07a, no_memory_leak)
{
    gsl_vector *s = gsl_vector_alloc(64), *ref = gsl_vector_alloc(64);
    gsl_vector_set_all(s, 1.0);
    gsl_vector_set_all(ref, 1.0);
    GRADE_NO_LEAK(softmax_vector(ref, 1.0), ex07a_softmax(s, 1.0), "free anything you allocate");
    gsl_vector_free(s), gsl_vector_free(ref);
}
