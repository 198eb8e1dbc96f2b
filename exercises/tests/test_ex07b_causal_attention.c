/* Grader for exercise 7b: causal attention in matrix form, against
 * attn_forward with ATTN_CAUSAL. Q, K, V and out are views with a tda.
 * Refused calls: attn_sum_form attn_weights ablated_forward attn_forward
 *   block_forward gpt_forward gpt_gradcheck gpt_probe_run learn_recall_attention
 *   mha_forward learn_block_pass ablated_batch_forward gpt_batch_forward
 * Allowed calls: mask_causal softmax_rows */
#include <math.h>

#include "exercises.h"
#include "grade.h"

static const char *HINT_FORM = "out = softmax_rows(scale * Q K^T with -INFINITY above the "
                               "diagonal) V: dgemm (Q, K transposed), mask_causal, "
                               "softmax_rows, dgemm";

/* attention with a mask that lets position t see keys 0..t+shift (shift
 * >= T: no mask), scores Q K^T or, transposed, K Q^T -> a new (T, dv)
 * matrix: what a mistake gives */
static gsl_matrix *attention_as(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                                double scale, long shift, int transposed)
{
    size_t T = Q->size1;
    gsl_matrix *S = transposed ? mat_product(K, CblasNoTrans, Q, CblasTrans)
                               : mat_product(Q, CblasNoTrans, K, CblasTrans);
    cr_assert(S != NULL, "grader: out of memory");
    gsl_matrix_scale(S, scale);
    for (size_t t = 0; t < T; t++)
        for (size_t i = 0; i < T; i++)
            if ((long)i > (long)t + shift)
                gsl_matrix_set(S, t, i, -INFINITY);
    softmax_rows(S, 1.0);
    gsl_matrix *out = mat_product(S, CblasNoTrans, V, CblasNoTrans);
    gsl_matrix_free(S);
    return out;
}

/* the student's attention on padded copies of random Q, K, V and the
 * library's on plain ones; Q, K and V must come back unchanged */
static void compare(size_t T, size_t dk, size_t dv, double sigma, double scale, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *Q0 = grade_gaussian(T, dk, sigma, r), *K0 = grade_gaussian(T, dk, sigma, r);
    gsl_matrix *V0 = grade_gaussian(T, dv, 1.0, r), *want = grade_nan(T, dv);
    gsl_matrix *Q = grade_padded(Q0), *K = grade_padded(K0), *V = grade_padded(V0);
    gsl_matrix *got = grade_nan_padded(T, dv), *W = grade_nan(T, T);
    cr_assert_eq(attn_forward(Q0, K0, V0, scale, ATTN_CAUSAL, W, want), INVENT_OK);
    gsl_matrix_free(W);
    gsl_matrix *known[] = {
        attention_as(Q0, K0, V0, 1.0, 0, 0),         attention_as(Q0, K0, V0, scale, -1, 0),
        attention_as(Q0, K0, V0, scale, 1, 0),       attention_as(Q0, K0, V0, scale, (long)T, 0),
        attention_as(Q0, K0, V0, scale, 0, 1)};
    const grade_mistake mistakes[] = {
        {known[0], "scale is not applied: S = scale * Q K^T (the alpha of the first dgemm)"},
        {known[1], "the mask hides the diagonal too: position t sees keys 0..t, itself included "
                   "(-INFINITY only where i > t, as mask_causal does)"},
        {known[2], "the mask is one off: position t sees keys 0..t, not t + 1"},
        {known[3], "no causal mask: every position sees the future; mask_causal(S) before the "
                   "softmax"},
        {known[4], "the scores are transposed: S = Q K^T, row t for query t (dgemm with "
                   "CblasNoTrans, CblasTrans)"}};
    grade_status(what, ex07b_causal_attention(Q, K, V, scale, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_padding(what, got);
    grade_matrix_why(what, got, want, 1e-10, HINT_FORM, mistakes, 5);
    grade_unchanged("Q after the call", Q, Q0);
    grade_unchanged("K after the call", K, K0);
    grade_unchanged("V after the call", V, V0);
    for (size_t k = 0; k < 5; k++)
        gsl_matrix_free(known[k]);
    gsl_matrix_free(Q0), gsl_matrix_free(K0), gsl_matrix_free(V0), gsl_matrix_free(Q);
    gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(got), gsl_matrix_free(want);
    gsl_rng_free(r);
}

GRADE(ex07b, random_inputs)
{
    compare(9, 4, 3, 1.0, 0.5, 72, "out for T = 9, dk = 4, dv = 3, scale = 0.5");
}

GRADE(ex07b, size_one)
{
    compare(1, 1, 1, 1.0, 1.0, 73, "out for T = 1 (one position)");
}

GRADE(ex07b, large_magnitudes)
{
    compare(6, 3, 2, 100.0, 1.0, 74, "out for Q and K ~100 (scores near 1e4)");
}

GRADE(ex07b, the_scale)
{
    compare(5, 2, 2, 1.0, 0.125, 78, "out for scale = 0.125");
    compare(5, 2, 2, 1.0, 3.0, 79, "out for scale = 3");
}

GRADE(ex07b, two_sizes_and_a_long_sequence)
{
    compare(4, 2, 2, 1.0, 0.5, 70, "out for T = 4");
    compare(400, 8, 4, 1.0, 0.35, 71, "out for T = 400, after T = 4");
    compare(3, 2, 5, 1.0, 0.5, 69, "out for T = 3, after T = 400");
}

GRADE(ex07b, first_position_sees_only_itself)
{
    gsl_rng *r = grade_rng(75);
    gsl_matrix *Q = grade_gaussian(5, 2, 1.0, r), *K = grade_gaussian(5, 2, 1.0, r);
    gsl_matrix *V = grade_gaussian(5, 3, 1.0, r), *got = grade_nan(5, 3);
    ex07b_causal_attention(Q, K, V, 1.0, got);
    gsl_matrix_const_view got0 = gsl_matrix_const_submatrix(got, 0, 0, 1, 3);
    gsl_matrix_const_view v0 = gsl_matrix_const_submatrix(V, 0, 0, 1, 3);
    grade_matrix("row 0 of out", &got0.matrix, &v0.matrix, 1e-12,
                 "position 0 may look only at itself, so its weight on row 0 of V is 1: "
                 "mask every score above the diagonal with -INFINITY, and only those");
    gsl_matrix_free(Q), gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(got);
    gsl_rng_free(r);
}

GRADE(ex07b, the_future_does_not_leak)
{
    gsl_rng *r = grade_rng(76);
    size_t T = 6, t = 2;
    gsl_matrix *Q = grade_gaussian(T, 3, 1.0, r), *K = grade_gaussian(T, 3, 1.0, r);
    gsl_matrix *V = grade_gaussian(T, 2, 1.0, r);
    gsl_matrix *before = grade_nan(T, 2), *after = grade_nan(T, 2), *W = grade_nan(T, T);
    cr_assert_eq(attn_forward(Q, K, V, 1.0, ATTN_CAUSAL, W, before), INVENT_OK);
    gsl_matrix_free(W);
    for (size_t i = t + 1; i < T; i++) { /* change every key and value after t */
        gsl_matrix_set(K, i, 0, 50.0);
        gsl_matrix_set(V, i, 1, -50.0);
    }
    ex07b_causal_attention(Q, K, V, 1.0, after);
    gsl_matrix_const_view b = gsl_matrix_const_submatrix(before, 0, 0, t + 1, 2);
    gsl_matrix_const_view a = gsl_matrix_const_submatrix(after, 0, 0, t + 1, 2);
    grade_matrix("rows 0..2 of your out after changing keys and values 3..5", &a.matrix, &b.matrix,
                 1e-12, "a position must not see later ones: mask above the diagonal");
    gsl_matrix_free(Q), gsl_matrix_free(K), gsl_matrix_free(V);
    gsl_matrix_free(before), gsl_matrix_free(after);
    gsl_rng_free(r);
}

GRADE(ex07b, wrong_shapes_are_refused)
{
    gsl_matrix *Q = gsl_matrix_calloc(4, 3), *K = gsl_matrix_calloc(4, 3);
    gsl_matrix *V = gsl_matrix_calloc(4, 2), *out = gsl_matrix_calloc(4, 2);
    gsl_matrix *K5 = gsl_matrix_calloc(5, 3), *K2 = gsl_matrix_calloc(4, 2);
    gsl_matrix *V5 = gsl_matrix_calloc(5, 2), *out3 = gsl_matrix_calloc(4, 3);
    gsl_matrix *out_short = gsl_matrix_calloc(3, 2);
    const char *hint = "check every shape in the contract before allocating anything";
    grade_status("K with 5 rows for T = 4", ex07b_causal_attention(Q, K5, V, 1.0, out),
                 INVENT_ESHAPE, hint);
    grade_status("K of width 2 for Q of width 3", ex07b_causal_attention(Q, K2, V, 1.0, out),
                 INVENT_ESHAPE, hint);
    grade_status("V with 5 rows", ex07b_causal_attention(Q, K, V5, 1.0, out), INVENT_ESHAPE, hint);
    grade_status("out of width 3 for dv = 2", ex07b_causal_attention(Q, K, V, 1.0, out3),
                 INVENT_ESHAPE, hint);
    grade_status("out with 3 rows for T = 4", ex07b_causal_attention(Q, K, V, 1.0, out_short),
                 INVENT_ESHAPE, hint);
    GRADE_NO_LEAK(0, ex07b_causal_attention(Q, K5, V, 1.0, out),
                  "a refused call must free what it allocated: check the shapes first");
    gsl_matrix_free(Q), gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(out);
    gsl_matrix_free(K5), gsl_matrix_free(K2), gsl_matrix_free(V5), gsl_matrix_free(out3);
    gsl_matrix_free(out_short);
}

GRADE(ex07b, no_memory_leak)
{
    gsl_rng *r = grade_rng(77);
    gsl_matrix *Q = grade_gaussian(16, 4, 1.0, r), *K = grade_gaussian(16, 4, 1.0, r);
    gsl_matrix *V = grade_gaussian(16, 4, 1.0, r), *out = grade_nan(16, 4), *W = grade_nan(16, 16);
    GRADE_NO_LEAK(attn_forward(Q, K, V, 1.0, ATTN_CAUSAL, W, out),
                  ex07b_causal_attention(Q, K, V, 1.0, out),
                  "free the (T, T) score matrix before you return, and keep none from one "
                  "call to the next");
    gsl_matrix_free(Q), gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(out);
    gsl_matrix_free(W);
    gsl_rng_free(r);
}
