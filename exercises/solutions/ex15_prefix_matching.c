/* Exercise 15 (chapter 15): the prefix-matching score of an attention head.
 *
 * An induction head (Olsson et al., 2022) completes a pattern it has seen
 * before in the same sequence: at query t it looks for an earlier position
 * where the current token x_t occurred, and attends to the token right after
 * it, the one that came next last time. Its prefix-matching score measures
 * how much of its weight goes there: a key s is a match for query t when the
 * token before it is the query's token,
 *
 *     x_{s-1} = x_t,   1 <= s <= t - 1,
 *
 * and the score of query t is the sum of a_{t,s} over its matching keys.
 *
 * Contract of ex15_prefix_matching(A, x, from, score):
 *   - A: (T, T) one head's causal attention weights, row t holding query t's
 *     weights over keys 0..t; x: (T) the token ids; from: the first query
 *     counted (chapter 15 counts the second half of a repeated segment);
 *   - *score = the mean, over the queries t >= from that have at least one
 *     matching key, of each one's sum of weights on its matching keys; 0 when
 *     no query has a matching key (also when from >= T); returns INVENT_OK;
 *   - returns INVENT_ESHAPE, *score untouched, when A is not square;
 *     allocates nothing; A may be a view whose rows lie further apart than
 *     its width (a tda).
 * Write it yourself: the grade refuses calls to induction_prefix_score.
 * Grade: make exercise15   Hints: make hint 15 (then LEVEL=2, LEVEL=3) */
#include "exercises.h"

int ex15_prefix_matching(const gsl_matrix *A, const size_t *x, size_t from, double *score)
{
    /* BEGIN SOLUTION */
    /* stub: (void)A; (void)x; (void)from; (void)score; */
    /* stub: return INVENT_OK; */
    if (A->size1 != A->size2)
        return INVENT_ESHAPE;
    double sum = 0.0;
    size_t queries = 0;
    for (size_t t = from; t < A->size1; t++) {
        double weight = 0.0;
        int matched = 0;
        for (size_t s = 1; s < t; s++)
            if (x[s - 1] == x[t]) {
                weight += gsl_matrix_get(A, t, s);
                matched = 1;
            }
        sum += weight;
        queries += (size_t)matched;
    }
    *score = queries ? sum / (double)queries : 0.0;
    return INVENT_OK;
    /* END SOLUTION */
}
