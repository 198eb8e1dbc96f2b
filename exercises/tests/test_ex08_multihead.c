/* Grader for exercise 8: multi-head attention with W_o, against mha_forward.
 * X, out and the four weight matrices are views with a tda.
 * Refused calls: mha_forward block_forward ablated_forward gpt_forward gpt_gradcheck
 *   gpt_probe_run learn_recall_attention learn_block_pass ablated_batch_forward
 *   gpt_batch_forward
 * Allowed calls: attn_forward heads_columns heads_const_columns mat_mul mat_product */
#include <math.h>

#include "exercises.h"
#include "grade.h"

static const char *HINT = "out = [C_1 .. C_H] W_o^T, C_j = attn_forward of head j's column "
                          "blocks of X W_q^T, X W_k^T, X W_v^T with scale 1/sqrt(dk)";

/* d, H, dk, dv -> random weights whose matrices have a tda */
static mha_weights *padded_weights(size_t d, size_t H, size_t dk, size_t dv, gsl_rng *r)
{
    mha_weights *w = mha_new(d, H, dk, dv, r);
    cr_assert(w != NULL, "grader: out of memory");
    grade_repad(&w->Wq), grade_repad(&w->Wk), grade_repad(&w->Wv), grade_repad(&w->Wo);
    return w;
}

/* the heads as a mistake computes them: scores scaled by `scale`, under
 * `mask`, mixed by W_o or, without it (when H dv = d), left as they are
 * -> a new (T, d) matrix */
static gsl_matrix *heads_as(const mha_weights *w, const gsl_matrix *X, attn_mask mask,
                            double scale, int with_wo)
{
    size_t T = X->size1, H = w->heads, d = X->size2;
    gsl_matrix *Q = mat_product(X, CblasNoTrans, w->Wq, CblasTrans);
    gsl_matrix *K = mat_product(X, CblasNoTrans, w->Wk, CblasTrans);
    gsl_matrix *V = mat_product(X, CblasNoTrans, w->Wv, CblasTrans);
    gsl_matrix *C = grade_nan(T, w->Wv->size1), *out = grade_nan(T, d), *W = grade_nan(T, T);
    for (size_t j = 0; j < H; j++) {
        gsl_matrix_const_view Qj = heads_const_columns(Q, H, j), Kj = heads_const_columns(K, H, j);
        gsl_matrix_const_view Vj = heads_const_columns(V, H, j);
        gsl_matrix_view Cj = heads_columns(C, H, j);
        attn_forward(&Qj.matrix, &Kj.matrix, &Vj.matrix, scale, mask, W, &Cj.matrix);
    }
    if (with_wo)
        mat_mul(C, CblasNoTrans, w->Wo, CblasTrans, out);
    else if (C->size2 == d)
        gsl_matrix_memcpy(out, C);
    gsl_matrix_free(Q), gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(C);
    gsl_matrix_free(W);
    return out;
}

/* the student's heads on a padded copy of random X and the library's on a
 * plain one; X and W_q must come back unchanged */
static void compare(size_t T, size_t d, size_t H, size_t dk, size_t dv, attn_mask mask,
                    double sigma, unsigned long seed, const char *what)
{
    gsl_rng *r = grade_rng(seed);
    mha_weights *w = padded_weights(d, H, dk, dv, r);
    gsl_matrix *X0 = grade_gaussian(T, d, sigma, r), *X = grade_padded(X0), *Wq0 = mat_clone(w->Wq);
    gsl_matrix *got = grade_nan_padded(T, d), *want = grade_nan(T, d);
    mha_trace *tr = mha_trace_new(T, w);
    cr_assert_eq(mha_forward(w, X0, mask, tr, want), INVENT_OK);
    mha_trace_free(tr);
    double scale = 1.0 / sqrt((double)dk);
    attn_mask other = mask == ATTN_CAUSAL ? ATTN_BIDIRECTIONAL : ATTN_CAUSAL;
    gsl_matrix *known[] = {heads_as(w, X0, mask, 1.0 / sqrt((double)d), 1),
                           heads_as(w, X0, mask, 1.0, 1), heads_as(w, X0, other, scale, 1),
                           heads_as(w, X0, mask, scale, 0)};
    const grade_mistake mistakes[] = {
        {known[0], "the scale is 1/sqrt(dk), the width of one head, not of the model"},
        {known[1], "the scores are not scaled: scale = 1/sqrt(dk) for every head"},
        {known[2], "the mask argument is ignored: pass mask on to attn_forward"},
        {known[3], "W_o is missing: out = [C_1 .. C_H] W_o^T (mat_mul with CblasTrans)"}};
    grade_status(what, ex08_multihead(w, X, mask, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_padding(what, got);
    grade_matrix_why(what, got, want, 1e-10, HINT, mistakes, 4);
    grade_unchanged("X after the call", X, X0);
    grade_unchanged("W_q after the call", w->Wq, Wq0);
    for (size_t k = 0; k < 4; k++)
        gsl_matrix_free(known[k]);
    gsl_matrix_free(X0), gsl_matrix_free(X), gsl_matrix_free(Wq0), gsl_matrix_free(got);
    gsl_matrix_free(want);
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

GRADE(ex08, two_sizes_and_a_long_sequence)
{
    compare(3, 4, 2, 2, 2, ATTN_CAUSAL, 1.0, 87, "out for T = 3, d = 4");
    compare(300, 16, 4, 4, 4, ATTN_CAUSAL, 1.0, 88, "out for T = 300, d = 16, after T = 3");
    compare(2, 6, 3, 1, 2, ATTN_BIDIRECTIONAL, 1.0, 89, "out for T = 2, d = 6, after T = 300");
}

GRADE(ex08, wrong_shapes_are_refused)
{
    gsl_rng *r = grade_rng(85);
    mha_weights *w = padded_weights(4, 2, 2, 2, r);
    gsl_matrix *X = gsl_matrix_calloc(3, 4), *X5 = gsl_matrix_calloc(3, 5);
    gsl_matrix *out = gsl_matrix_calloc(3, 4), *out2 = gsl_matrix_calloc(2, 4);
    gsl_matrix *out5 = gsl_matrix_calloc(3, 5);
    const char *hint = "check X's width against the weights' d and out against (T, d) first";
    grade_status("X of width 5 for d = 4", ex08_multihead(w, X5, ATTN_CAUSAL, out), INVENT_ESHAPE,
                 hint);
    grade_status("out with 2 rows for T = 3", ex08_multihead(w, X, ATTN_CAUSAL, out2),
                 INVENT_ESHAPE, hint);
    grade_status("out of width 5 for d = 4", ex08_multihead(w, X, ATTN_CAUSAL, out5),
                 INVENT_ESHAPE, hint);
    GRADE_NO_LEAK(0, ex08_multihead(w, X, ATTN_CAUSAL, out2),
                  "a refused call must free what it allocated: check the shapes first");
    gsl_matrix_free(X), gsl_matrix_free(X5), gsl_matrix_free(out), gsl_matrix_free(out2);
    gsl_matrix_free(out5);
    mha_free(w);
    gsl_rng_free(r);
}

GRADE(ex08, no_memory_leak)
{
    gsl_rng *r = grade_rng(86);
    mha_weights *w = padded_weights(8, 2, 4, 4, r);
    gsl_matrix *X = grade_gaussian(6, 8, 1.0, r), *out = grade_nan(6, 8);
    mha_trace *tr = mha_trace_new(6, w);
    GRADE_NO_LEAK(mha_forward(w, X, ATTN_CAUSAL, tr, out), ex08_multihead(w, X, ATTN_CAUSAL, out),
                  "free Q, K, V and C before returning, and keep none from one call to the "
                  "next");
    mha_trace_free(tr);
    gsl_matrix_free(X), gsl_matrix_free(out);
    mha_free(w);
    gsl_rng_free(r);
}
