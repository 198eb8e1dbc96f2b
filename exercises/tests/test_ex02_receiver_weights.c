/* Grader for exercise 2: the symmetry-breaking generator, against dw_weights
 * with DW_SOURCE_AND_RECEIVER. S, R, W and the score's weights are views
 * with a tda (or a stride).
 * Refused calls: dw_weights
 * Allowed calls: attn_additive_score */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "W[j][i] = attn_additive_score(a->W1, a->W2, a->v, s_i = row i of S, "
                          "r_j = row j of R): row j of W belongs to the receiving unit j";

/* d, h -> a random additive score whose matrices have a tda and whose v
 * has a stride; attn_additive_free releases it */
static attn_additive *viewed_score(size_t d, size_t h, gsl_rng *r)
{
    attn_additive *a = attn_additive_new(d, h, 1.0, r);
    cr_assert(a != NULL, "grader: out of memory");
    grade_repad(&a->W1);
    grade_repad(&a->W2);
    grade_restride(&a->v);
    return a;
}

/* a, S, R, W: the right weights, w: the library's workspace -> what two known
 * mistakes give: W transposed, and the receiver's input left out (the
 * source-only generator) */
static void mistaken_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                             const gsl_matrix *W, const dw_work *w, gsl_matrix *out[2])
{
    size_t T = S->size1;
    out[0] = grade_nan(T, T), out[1] = grade_nan(T, T);
    gsl_matrix_transpose_memcpy(out[0], W);
    dw_weights(a, DW_SOURCE_ONLY, S, R, w, out[1]);
}

/* the student's weights on padded copies of random S, R and the library's
 * on plain ones; S and R must come back unchanged */
static void compare(size_t T, size_t d, size_t h, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    attn_additive *a = viewed_score(d, h, r);
    gsl_matrix *S0 = grade_gaussian(T, d, sigma, r), *R0 = grade_gaussian(T, d, sigma, r);
    gsl_matrix *S = grade_padded(S0), *R = grade_padded(R0), *known[2];
    gsl_matrix *got = grade_nan_padded(T, T), *want = grade_nan(T, T);
    dw_work *w = dw_work_new(T, d, h);
    cr_assert(w != NULL, "grader: out of memory");
    cr_assert_eq(dw_weights(a, DW_SOURCE_AND_RECEIVER, S0, R0, w, want), INVENT_OK);
    mistaken_weights(a, S0, R0, want, w, known);
    dw_work_free(w);
    const grade_mistake mistakes[] = {
        {known[0], "W is transposed: row j of W holds what unit j receives, W[j][i] = a(s_i, r_j)"},
        {known[1], "the receiver's input is left out: pass r_j = row j of R as the second "
                   "argument, so that units differ (claim D2)"}};
    grade_status(what, ex02_receiver_weights(a, S, R, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_padding(what, got);
    grade_matrix_why(what, got, want, 1e-12, HINT, mistakes, 2);
    grade_unchanged("S after the call", S, S0);
    grade_unchanged("R after the call", R, R0);
    gsl_matrix_free(S0), gsl_matrix_free(R0), gsl_matrix_free(S), gsl_matrix_free(R);
    gsl_matrix_free(got), gsl_matrix_free(want), gsl_matrix_free(known[0]);
    gsl_matrix_free(known[1]);
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

GRADE(ex02, two_sizes_and_many_tokens)
{
    compare(3, 2, 2, 1.0, 27, "W for T = 3");
    compare(200, 3, 2, 1.0, 28, "W for T = 200, after T = 3");
    compare(2, 4, 3, 1.0, 29, "W for T = 2, after T = 200");
}

GRADE(ex02, units_receive_different_weights)
{
    gsl_rng *r = grade_rng(24);
    attn_additive *a = viewed_score(3, 4, r);
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
    attn_additive *a = viewed_score(3, 2, r);
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
    GRADE_NO_LEAK(0, ex02_receiver_weights(a, S2, R2, W),
                  "free what you allocate before returning a score's error");
    gsl_matrix_free(S), gsl_matrix_free(R5), gsl_matrix_free(R2), gsl_matrix_free(W);
    gsl_matrix_free(W3), gsl_matrix_free(S2);
    attn_additive_free(a);
    gsl_rng_free(r);
}

GRADE(ex02, no_memory_leak)
{
    gsl_rng *r = grade_rng(26);
    attn_additive *a = viewed_score(3, 2, r);
    gsl_matrix *S = grade_gaussian(6, 3, 1.0, r), *W = grade_nan(6, 6);
    dw_work *w = dw_work_new(6, 3, 2); /* the library's pass first: what it sets up once */
    cr_assert(w != NULL, "grader: out of memory");
    dw_weights(a, DW_SOURCE_AND_RECEIVER, S, S, w, W);
    dw_work_free(w);
    GRADE_NO_LEAK(0, ex02_receiver_weights(a, S, S, W),
                  "free every vector you allocate, and keep none from one call to the next");
    gsl_matrix_free(S), gsl_matrix_free(W);
    attn_additive_free(a);
    gsl_rng_free(r);
}
