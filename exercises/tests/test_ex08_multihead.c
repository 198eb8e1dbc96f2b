/* Grader for exercise 8: multi-head attention with W_o, against mha_forward. */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "out = [C_1 .. C_H] W_o^T, C_j = attn_matrix_form of head j's column "
                          "blocks of X W_q^T, X W_k^T, X W_v^T with scale 1/sqrt(dk)";

/* the student's heads and the library's on random X and weights */
static void compare(size_t T, size_t d, size_t H, size_t dk, size_t dv, attn_mask mask,
                    double sigma, unsigned long seed, const char *what)
{
    gsl_rng *r = grade_rng(seed);
    mha_weights *w = mha_new(d, H, dk, dv, r);
    cr_assert(w != NULL, "grader: out of memory");
    gsl_matrix *X = grade_gaussian(T, d, sigma, r);
    gsl_matrix *got = grade_nan(T, d), *want = grade_nan(T, d);
    cr_assert_eq(mha_forward(w, X, mask, NULL, want), INVENT_OK);
    grade_status(what, ex08_multihead(w, X, mask, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_matrix(what, got, want, 1e-10, HINT);
    gsl_matrix_free(X), gsl_matrix_free(got), gsl_matrix_free(want);
    mha_free(w);
    gsl_rng_free(r);
}

GRADE(ex08, causal_four_heads)
{
    compare(7, 8, 4, 2, 2, ATTN_CAUSAL, 1.0, 81, "out, causal, T = 7, d = 8, H = 4");
}

GRADE(ex08, bidirectional_heads_of_unequal_sizes)
{
    compare(5, 6, 2, 4, 3, ATTN_BIDIRECTIONAL, 1.0, 82,
            "out, bidirectional, H = 2, dk = 4, dv = 3");
}

GRADE(ex08, one_head_one_token)
{
    compare(1, 1, 1, 1, 1, ATTN_CAUSAL, 1.0, 83, "out, T = d = H = 1");
}

GRADE(ex08, large_magnitudes)
{
    compare(6, 4, 2, 2, 2, ATTN_CAUSAL, 300.0, 84, "out for inputs ~300 (scores ~1e5)");
}

GRADE(ex08, wrong_shapes_are_refused)
{
    gsl_rng *r = grade_rng(85);
    mha_weights *w = mha_new(4, 2, 2, 2, r);
    gsl_matrix *X = gsl_matrix_calloc(3, 4), *X5 = gsl_matrix_calloc(3, 5);
    gsl_matrix *out = gsl_matrix_calloc(3, 4), *out2 = gsl_matrix_calloc(2, 4);
    const char *hint = "check X's width against the weights' d and out against (T, d) first";
    grade_status("X of width 5 for d = 4", ex08_multihead(w, X5, ATTN_CAUSAL, out), INVENT_ESHAPE,
                 hint);
    grade_status("out with 2 rows for T = 3", ex08_multihead(w, X, ATTN_CAUSAL, out2),
                 INVENT_ESHAPE, hint);
    gsl_matrix_free(X), gsl_matrix_free(X5), gsl_matrix_free(out), gsl_matrix_free(out2);
    mha_free(w);
    gsl_rng_free(r);
}

GRADE(ex08, no_memory_leak)
{
    gsl_rng *r = grade_rng(86);
    mha_weights *w = mha_new(8, 2, 4, 4, r);
    gsl_matrix *X = grade_gaussian(6, 8, 1.0, r), *out = grade_nan(6, 8);
    GRADE_NO_LEAK(0, ex08_multihead(w, X, ATTN_CAUSAL, out), "free Q, K, V and C before returning");
    gsl_matrix_free(X), gsl_matrix_free(out);
    mha_free(w);
    gsl_rng_free(r);
}
