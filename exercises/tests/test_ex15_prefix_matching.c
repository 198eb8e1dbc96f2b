/* Grader for exercise 15: the prefix-matching score of one head, against
 * induction_prefix_score, on random causal weights over a repeated segment.
 * A is a view with a tda.
 * Refused calls: induction_prefix_score */
#include "exercises.h"
#include "grade.h"

#define RULE "key s matches query t when x[s - 1] == x[t], 1 <= s <= t - 1; average the " \
             "matched weight over the queries t >= from that have a match"
static const char *HINT = RULE;

/* segment 2 0 1 1 3 4 and its repeat: a doubled token, so that key t itself can match */
enum { R = 6, T = 2 * R };
static const size_t repeat[T] = {2, 0, 1, 1, 3, 4, 2, 0, 1, 1, 3, 4};

/* the ways to get the score wrong that the grader names */
typedef enum { RIGHT, OWN_TOKEN, WITH_SELF, EVERY_QUERY, FROM_ZERO } variant;

/* A, x, from as one of the variants computes it -> (1, 1) the score */
static gsl_matrix *score_as(const gsl_matrix *A, const size_t *x, size_t from, variant v)
{
    gsl_matrix *out = grade_nan(1, 1);
    size_t n = A->size1, queries = 0, counted = 0;
    double sum = 0.0;
    for (size_t t = v == FROM_ZERO ? 0 : from; t < n; t++, counted++) {
        int any = 0;
        for (size_t s = 1; s < (v == WITH_SELF ? t + 1 : t); s++)
            if ((v == OWN_TOKEN ? x[s] : x[s - 1]) == x[t])
                sum += gsl_matrix_get(A, t, s), any = 1;
        queries += (size_t)any;
    }
    size_t by = v == EVERY_QUERY ? counted : queries;
    gsl_matrix_set(out, 0, 0, by ? sum / (double)by : 0.0);
    return out;
}

/* -> (n, n) causal weights: each row a softmax of random scores over keys 0..t */
static gsl_matrix *causal_weights(size_t n, double sigma, gsl_rng *r)
{
    gsl_matrix *A = grade_gaussian(n, n, sigma, r);
    for (size_t t = 0; t < n; t++) {
        double total = 0.0;
        for (size_t s = 0; s < n; s++) {
            double e = s <= t ? exp(gsl_matrix_get(A, t, s)) : 0.0;
            gsl_matrix_set(A, t, s, e), total += e;
        }
        for (size_t s = 0; s <= t; s++)
            gsl_matrix_set(A, t, s, gsl_matrix_get(A, t, s) / total);
    }
    return A;
}

/* the student's score of random weights (as a padded view) over x, against the library's */
static void compare(const size_t *x, size_t n, size_t from, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *A0 = causal_weights(n, sigma, r), *A = grade_padded(A0);
    gsl_matrix *want = grade_nan(1, 1), *got = grade_nan(1, 1);
    double score = NAN;
    cr_assert_eq(induction_prefix_score(A0, x, from, gsl_matrix_ptr(want, 0, 0)), INVENT_OK);
    gsl_matrix_const_view packed = gsl_matrix_const_view_array(A->data, n, n); /* tda = n */
    gsl_matrix *known[] = {score_as(A0, x, from, OWN_TOKEN), score_as(A0, x, from, WITH_SELF),
                           score_as(A0, x, from, EVERY_QUERY), score_as(A0, x, from, FROM_ZERO),
                           score_as(&packed.matrix, x, from, RIGHT)};
    const grade_mistake mistakes[] = {
        {known[0], "the key's own token was compared: key s matches when the token before "
                   "it, x[s - 1], is the query's"},
        {known[1], "key t (the query itself) was counted: the keys run from 1 to t - 1"},
        {known[2], "the sum was divided by every query: divide by the queries that had a "
                   "matching key"},
        {known[3], "the queries before from were counted: start at t = from"},
        {known[4], "A's rows were read n entries apart: a view's rows lie tda entries apart "
                   "(read A with gsl_matrix_get)"}};
    grade_status(what, ex15_prefix_matching(A, x, from, &score), INVENT_OK,
                 "return INVENT_OK when A is square");
    gsl_matrix_set(got, 0, 0, score);
    gsl_vector_view g = gsl_matrix_row(got, 0), w = gsl_matrix_row(want, 0);
    grade_vector_why(what, &g.vector, &w.vector, 1e-12,
                     RULE, mistakes, 5);
    grade_padding("A after the call", A);
    grade_unchanged("A after the call", A, A0);
    for (size_t k = 0; k < 5; k++)
        gsl_matrix_free(known[k]);
    gsl_matrix_free(A0), gsl_matrix_free(A), gsl_matrix_free(want), gsl_matrix_free(got);
    gsl_rng_free(r);
}

GRADE(ex15, a_repeated_segment)
{
    compare(repeat, T, R, 1.0, 151, "the score of random weights on a repeated segment");
}

GRADE(ex15, every_query_counted)
{
    compare(repeat, T, 0, 2.0, 152, "the score from query 0");
}

GRADE(ex15, tokens_of_a_larger_alphabet)
{
    size_t x[40];
    gsl_rng *r = grade_rng(153);
    for (size_t t = 0; t < 40; t++)
        x[t] = t < 20 ? gsl_rng_uniform_int(r, 7) : x[t - 20];
    compare(x, 40, 20, 1.0, 154, "the score on 40 tokens, the second 20 a repeat");
    gsl_rng_free(r);
}

GRADE(ex15, an_ideal_induction_head_scores_one)
{
    size_t x[T] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5};
    gsl_matrix *A = grade_padded(grade_nan(T, T));
    gsl_matrix_set_zero(A);
    for (size_t t = 0; t < T; t++) /* on the token after the earlier copy */
        gsl_matrix_set(A, t, t >= R ? t - R + 1 : t, 1.0);
    double score = NAN;
    grade_status("an ideal induction head", ex15_prefix_matching(A, x, R, &score), INVENT_OK,
                 "return INVENT_OK when A is square");
    cr_assert(fabs(score - 1.0) < 1e-12, "an ideal induction head (all of query t's weight on "
              "t - 5, the token after the earlier copy of x[t]): expected 1, got %g.\nHint: %s",
              score, HINT);
    gsl_matrix_free(A);
}

GRADE(ex15, no_matching_key_scores_zero)
{
    size_t x[5] = {0, 1, 2, 3, 4};
    compare(x, 5, 0, 1.0, 155, "five distinct tokens (no query has a match)");
    compare(repeat, T, T, 1.0, 156, "from = T (no query at all)");
}

GRADE(ex15, a_non_square_matrix_is_refused)
{
    gsl_matrix *A = gsl_matrix_calloc(4, 5);
    double score = 7.0;
    grade_status("A of 4 x 5", ex15_prefix_matching(A, repeat, 0, &score), INVENT_ESHAPE,
                 "attention weights are (T, T): refuse any other shape");
    cr_assert(score == 7.0, "A of 4 x 5 was refused, but *score was changed to %g: leave it "
              "untouched when refusing", score);
    GRADE_NO_LEAK(0, ex15_prefix_matching(A, repeat, 0, &score), "allocate nothing");
    gsl_matrix_free(A);
}

GRADE(ex15, no_memory_leak)
{
    gsl_rng *r = grade_rng(157);
    gsl_matrix *A = causal_weights(T, 1.0, r);
    double score;
    GRADE_NO_LEAK(induction_prefix_score(A, repeat, R, &score),
                  ex15_prefix_matching(A, repeat, R, &score), "allocate nothing");
    gsl_matrix_free(A);
    gsl_rng_free(r);
}
