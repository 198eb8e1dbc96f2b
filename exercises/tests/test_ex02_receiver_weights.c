/* Grader for exercise 2: the symmetry-breaking generator, against dw_weights
 * with DW_SOURCE_AND_RECEIVER. */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "W[j][i] = attn_additive_score(a->W1, a->W2, a->v, s_i = row i of S, "
                          "r_j = row j of R): row j of W belongs to the receiving unit j";

/* the student's weights and the library's on random S, R */
static void compare(size_t T, size_t d, size_t h, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    attn_additive *a = attn_additive_new(d, h, 1.0, r);
    cr_assert(a != NULL, "grader: out of memory");
    gsl_matrix *S = grade_gaussian(T, d, sigma, r), *R = grade_gaussian(T, d, sigma, r);
    gsl_matrix *got = grade_nan(T, T), *want = grade_nan(T, T);
    cr_assert_eq(dw_weights(a, DW_SOURCE_AND_RECEIVER, S, R, want), INVENT_OK);
    grade_status(what, ex02_receiver_weights(a, S, R, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_matrix(what, got, want, 1e-12, HINT);
    gsl_matrix_free(S), gsl_matrix_free(R), gsl_matrix_free(got), gsl_matrix_free(want);
    attn_additive_free(a);
    gsl_rng_free(r);
}

GRADE(ex02, random_tokens)
{
    compare(5, 4, 3, 1.0, 21, "W for T = 5, d = 4, h = 3");
}

GRADE(ex02, size_one)
{
    compare(1, 1, 1, 1.0, 22, "W for one token, d = h = 1");
}

GRADE(ex02, large_magnitudes)
{
    compare(4, 3, 2, 1e3, 23, "W for tokens of size ~1e3");
}

GRADE(ex02, units_receive_different_weights)
{
    gsl_rng *r = grade_rng(24);
    attn_additive *a = attn_additive_new(3, 4, 1.0, r);
    gsl_matrix *S = grade_gaussian(4, 3, 1.0, r), *R = grade_gaussian(4, 3, 1.0, r);
    gsl_matrix *W = grade_nan(4, 4);
    ex02_receiver_weights(a, S, R, W);
    double spread = 0.0; /* how much column 0 varies from unit to unit */
    for (size_t j = 1; j < 4; j++)
        spread = fmax(spread, fabs(gsl_matrix_get(W, j, 0) - gsl_matrix_get(W, 0, 0)));
    cr_assert(spread > 1e-6,
              "every unit receives the same weight from token 0 (spread %.3g): the symmetry "
              "of claim D1 is back.\nHint: pass the receiver's input r_j = row j of R as the "
              "second argument, not a zero vector",
              spread);
    gsl_matrix_free(S), gsl_matrix_free(R), gsl_matrix_free(W);
    attn_additive_free(a);
    gsl_rng_free(r);
}

GRADE(ex02, wrong_shapes_are_refused)
{
    gsl_rng *r = grade_rng(25);
    attn_additive *a = attn_additive_new(3, 2, 1.0, r);
    gsl_matrix *S = gsl_matrix_calloc(4, 3), *R5 = gsl_matrix_calloc(5, 3);
    gsl_matrix *R2 = gsl_matrix_calloc(4, 2), *W = gsl_matrix_calloc(4, 4);
    gsl_matrix *W3 = gsl_matrix_calloc(4, 3), *S2 = gsl_matrix_calloc(4, 2);
    const char *hint = "compare the shapes of S, R and W before the loops";
    grade_status("R with 5 rows for T = 4", ex02_receiver_weights(a, S, R5, W), INVENT_ESHAPE,
                 hint);
    grade_status("R of width 2, S of width 3", ex02_receiver_weights(a, S, R2, W), INVENT_ESHAPE,
                 hint);
    grade_status("W of shape (4, 3)", ex02_receiver_weights(a, S, S, W3), INVENT_ESHAPE, hint);
    grade_status("tokens of width 2 for a score of width 3", ex02_receiver_weights(a, S2, R2, W),
                 INVENT_ESHAPE, "return the status attn_additive_score gives you");
    gsl_matrix_free(S), gsl_matrix_free(R5), gsl_matrix_free(R2), gsl_matrix_free(W);
    gsl_matrix_free(W3), gsl_matrix_free(S2);
    attn_additive_free(a);
    gsl_rng_free(r);
}

GRADE(ex02, no_memory_leak)
{
    gsl_rng *r = grade_rng(26);
    attn_additive *a = attn_additive_new(3, 2, 1.0, r);
    gsl_matrix *S = grade_gaussian(6, 3, 1.0, r), *W = grade_nan(6, 6);
    GRADE_NO_LEAK(ex02_receiver_weights(a, S, S, W), "free every vector you allocate");
    gsl_matrix_free(S), gsl_matrix_free(W);
    attn_additive_free(a);
    gsl_rng_free(r);
}
