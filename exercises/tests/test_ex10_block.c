/* Grader for exercise 10: one Transformer block, against block_forward.
 * X and Y are views with a tda.
 * Refused calls: block_forward ablated_forward gpt_forward gpt_gradcheck gpt_probe_run
 *   learn_block_pass ablated_batch_forward gpt_batch_forward
 * Allowed calls: layernorm_forward mha_forward mlp_forward mha_trace_new mha_trace_free
 *   mlp_trace_new mlp_trace_free */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "Y = LN2(H + MLP(H)) with H = LN1(X + MHA_causal(X)): skip "
                          "connections before each norm, gamma1/beta1 first, gamma2/beta2 second";

/* d, H, hidden -> random weights whose norms are not the identity, so that
 * each one shows */
static block_weights *random_block(size_t d, size_t H, size_t hidden, gsl_rng *r)
{
    block_weights *w = block_new(d, H, hidden, r);
    cr_assert(w != NULL, "grader: out of memory");
    for (size_t i = 0; i < d; i++) {
        gsl_vector_set(w->gamma1, i, 1.0 + 0.1 * (double)i);
        gsl_vector_set(w->beta1, i, 0.2 - 0.05 * (double)i);
        gsl_vector_set(w->gamma2, i, 0.5 + 0.2 * (double)i);
        gsl_vector_set(w->beta2, i, -0.3 + 0.1 * (double)i);
    }
    return w;
}

/* the block as a mistake computes it: attention under `mask`, each skip
 * connection kept or left out -> a new (T, d) matrix */
static gsl_matrix *block_as(const block_weights *w, const gsl_matrix *X, attn_mask mask,
                            int skip1, int skip2)
{
    size_t T = X->size1, d = X->size2;
    gsl_matrix *A = grade_nan(T, d), *H = grade_nan(T, d), *Y = grade_nan(T, d);
    mha_trace *at = mha_trace_new(T, w->attn);
    mlp_trace *mt = mlp_trace_new(T, w->mlp);
    mha_forward(w->attn, X, mask, at, A);
    if (skip1)
        gsl_matrix_add(A, X);
    layernorm_forward(A, w->gamma1, w->beta1, w->eps, H, NULL, NULL);
    mlp_forward(w->mlp, H, mt, A);
    if (skip2)
        gsl_matrix_add(A, H);
    layernorm_forward(A, w->gamma2, w->beta2, w->eps, Y, NULL, NULL);
    gsl_matrix_free(A), gsl_matrix_free(H);
    mha_trace_free(at), mlp_trace_free(mt);
    return Y;
}

/* -> the block with its two norms swapped, a new (T, d) matrix */
static gsl_matrix *swapped_norms(const block_weights *w, const gsl_matrix *X)
{
    block_weights s = *w;
    s.gamma1 = w->gamma2, s.beta1 = w->beta2, s.gamma2 = w->gamma1, s.beta2 = w->beta1;
    gsl_matrix *Y = grade_nan(X->size1, X->size2);
    block_trace *tr = block_trace_new(X->size1, w);
    block_forward(&s, X, tr, Y);
    block_trace_free(tr);
    return Y;
}

/* the student's block on a padded copy of random X and the library's on a
 * plain one; X must come back unchanged */
static void compare(size_t T, size_t d, size_t H, size_t hidden, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    block_weights *w = random_block(d, H, hidden, r);
    gsl_matrix *X0 = grade_gaussian(T, d, sigma, r), *X = grade_padded(X0);
    gsl_matrix *got = grade_nan_padded(T, d), *want = grade_nan(T, d);
    block_trace *tr = block_trace_new(T, w);
    cr_assert_eq(block_forward(w, X0, tr, want), INVENT_OK);
    block_trace_free(tr);
    gsl_matrix *known[] = {block_as(w, X0, ATTN_BIDIRECTIONAL, 1, 1),
                           block_as(w, X0, ATTN_CAUSAL, 0, 1), block_as(w, X0, ATTN_CAUSAL, 1, 0),
                           swapped_norms(w, X0)};
    const grade_mistake mistakes[] = {
        {known[0], "the attention sees the future: call mha_forward with ATTN_CAUSAL"},
        {known[1], "the first skip connection is missing: H = LN1(X + MHA(X))"},
        {known[2], "the second skip connection is missing: Y = LN2(H + MLP(H))"},
        {known[3], "the norms are swapped: gamma1/beta1 after the attention, gamma2/beta2 "
                   "after the MLP"}};
    grade_status(what, ex10_block(w, X, got), INVENT_OK, "return INVENT_OK when shapes fit");
    grade_padding(what, got);
    grade_matrix_why(what, got, want, 1e-10, HINT, mistakes, 4);
    grade_unchanged("X after the call", X, X0);
    for (size_t k = 0; k < 4; k++)
        gsl_matrix_free(known[k]);
    gsl_matrix_free(X0), gsl_matrix_free(X), gsl_matrix_free(got), gsl_matrix_free(want);
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

GRADE(ex10, two_sizes_and_a_long_sequence)
{
    compare(3, 4, 2, 8, 1.0, 107, "Y for T = 3, d = 4");
    compare(200, 16, 4, 32, 1.0, 108, "Y for T = 200, d = 16, after T = 3");
    compare(2, 6, 3, 4, 1.0, 109, "Y for T = 2, d = 6, after T = 200");
}

GRADE(ex10, the_future_does_not_leak)
{
    gsl_rng *r = grade_rng(104);
    block_weights *w = random_block(4, 2, 8, r);
    gsl_matrix *X = grade_gaussian(5, 4, 1.0, r), *want = grade_nan(5, 4), *got = grade_nan(5, 4);
    block_trace *tr = block_trace_new(5, w);
    cr_assert_eq(block_forward(w, X, tr, want), INVENT_OK);
    block_trace_free(tr);
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

GRADE(ex10, wrong_shapes_are_refused)
{
    gsl_rng *r = grade_rng(105);
    block_weights *w = random_block(4, 2, 8, r);
    gsl_matrix *X = gsl_matrix_calloc(3, 4), *Y = gsl_matrix_calloc(3, 5);
    gsl_matrix *X5 = gsl_matrix_calloc(3, 5);
    grade_status("Y of shape (3, 5) for X (3, 4)", ex10_block(w, X, Y), INVENT_ESHAPE,
                 "check Y against X's shape before allocating");
    grade_status("X and Y of width 5 for weights of width 4", ex10_block(w, X5, Y), INVENT_ESHAPE,
                 "return the status of the library call that fails (mha_forward here)");
    GRADE_NO_LEAK(0, ex10_block(w, X5, Y),
                  "free your scratch matrices on every path, also when a library call fails");
    gsl_matrix_free(X), gsl_matrix_free(Y), gsl_matrix_free(X5);
    block_free(w);
    gsl_rng_free(r);
}

GRADE(ex10, no_memory_leak)
{
    gsl_rng *r = grade_rng(106);
    block_weights *w = random_block(8, 2, 16, r);
    gsl_matrix *X = grade_gaussian(6, 8, 1.0, r), *Y = grade_nan(6, 8);
    block_trace *tr = block_trace_new(6, w);
    GRADE_NO_LEAK(block_forward(w, X, tr, Y), ex10_block(w, X, Y),
                  "free your scratch matrices before returning, and keep none from one call to "
                  "the next");
    block_trace_free(tr);
    gsl_matrix_free(X), gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}
