/* Grader for exercise 10: one Transformer block, against block_forward. */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "Y = LN2(H + MLP(H)) with H = LN1(X + MHA_causal(X)): skip "
                          "connections before each norm, gamma1/beta1 first, gamma2/beta2 second";

/* the student's block and the library's on random X */
static void compare(size_t T, size_t d, size_t H, size_t hidden, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    block_weights *w = block_new(d, H, hidden, r);
    cr_assert(w != NULL, "grader: out of memory");
    for (size_t i = 0; i < d; i++) { /* norms that are not the identity, so each one shows */
        gsl_vector_set(w->gamma1, i, 1.0 + 0.1 * (double)i);
        gsl_vector_set(w->beta1, i, 0.2 - 0.05 * (double)i);
        gsl_vector_set(w->gamma2, i, 0.5 + 0.2 * (double)i);
        gsl_vector_set(w->beta2, i, -0.3 + 0.1 * (double)i);
    }
    gsl_matrix *X = grade_gaussian(T, d, sigma, r);
    gsl_matrix *got = grade_nan(T, d), *want = grade_nan(T, d);
    cr_assert_eq(block_forward(w, X, NULL, want), INVENT_OK);
    grade_status(what, ex10_block(w, X, got), INVENT_OK, "return INVENT_OK when shapes fit");
    grade_matrix(what, got, want, 1e-10, HINT);
    gsl_matrix_free(X), gsl_matrix_free(got), gsl_matrix_free(want);
    block_free(w);
    gsl_rng_free(r);
}

GRADE(ex10, random_tokens)
{
    compare(6, 8, 2, 16, 1.0, 101, "Y for T = 6, d = 8, H = 2, m = 16");
}

GRADE(ex10, one_token)
{
    compare(1, 4, 1, 4, 1.0, 102, "Y for a single token");
}

GRADE(ex10, large_magnitudes)
{
    compare(5, 4, 2, 8, 1e3, 103, "Y for inputs ~1e3");
}

GRADE(ex10, the_future_does_not_leak)
{
    gsl_rng *r = grade_rng(104);
    block_weights *w = block_new(4, 2, 8, r);
    gsl_matrix *X = grade_gaussian(5, 4, 1.0, r), *want = grade_nan(5, 4), *got = grade_nan(5, 4);
    cr_assert_eq(block_forward(w, X, NULL, want), INVENT_OK);
    gsl_matrix_set(X, 4, 0, 100.0); /* change the last token only */
    ex10_block(w, X, got);
    gsl_matrix_const_view g = gsl_matrix_const_submatrix(got, 0, 0, 4, 4);
    gsl_matrix_const_view o = gsl_matrix_const_submatrix(want, 0, 0, 4, 4);
    grade_matrix("rows 0..3 of Y after changing token 4", &g.matrix, &o.matrix, 1e-10,
                 "the attention must be causal (ATTN_CAUSAL): no token sees a later one");
    gsl_matrix_free(X), gsl_matrix_free(want), gsl_matrix_free(got);
    block_free(w);
    gsl_rng_free(r);
}

GRADE(ex10, wrong_shape_is_refused)
{
    gsl_rng *r = grade_rng(105);
    block_weights *w = block_new(4, 2, 8, r);
    gsl_matrix *X = gsl_matrix_calloc(3, 4), *Y = gsl_matrix_calloc(3, 5);
    grade_status("Y of shape (3, 5) for X (3, 4)", ex10_block(w, X, Y), INVENT_ESHAPE,
                 "check Y against X's shape before allocating");
    gsl_matrix_free(X), gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}

GRADE(ex10, no_memory_leak)
{
    gsl_rng *r = grade_rng(106);
    block_weights *w = block_new(8, 2, 16, r);
    gsl_matrix *X = grade_gaussian(6, 8, 1.0, r), *Y = grade_nan(6, 8);
    GRADE_NO_LEAK(0, ex10_block(w, X, Y), "free your scratch matrices before returning");
    gsl_matrix_free(X), gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}
