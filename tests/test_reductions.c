/* Cross-chapter reductions: each construction of chapters 8-10 turns into
 * the one before it in its special case. */
#include <criterion/criterion.h>
#include <math.h>

#include "attention.h"
#include "bilinear.h"
#include "block.h"
#include "heads.h"
#include "layernorm.h"
#include "mask.h"
#include "mat.h"
#include "rng.h"
#include "softmax.h"
#include "status.h"

#define T 6

/* X W^T for a weight W: (out, in) -> a new matrix */
static gsl_matrix *project(const gsl_matrix *X, const gsl_matrix *W)
{
    return mat_product(X, CblasNoTrans, W, CblasTrans);
}

Test(reductions, one_head_with_identity_wo_is_single_head_attention)
{
    gsl_rng *r = rng_new(11);
    mha_weights *w = mha_new(5, 1, 3, 5, r);
    gsl_matrix_set_identity(w->Wo);
    gsl_matrix *X = mat_gaussian(T, 5, 1.0, r), *out = gsl_matrix_alloc(T, 5);
    gsl_matrix *want = gsl_matrix_alloc(T, 5);
    gsl_matrix *Q = project(X, w->Wq), *K = project(X, w->Wk), *V = project(X, w->Wv);
    mha_trace *tr = mha_trace_new(T, w);
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, tr, out), INVENT_OK);
    gsl_matrix *W = gsl_matrix_alloc(T, T);
    cr_assert_eq(attn_forward(Q, K, V, 1.0 / sqrt(3.0), ATTN_CAUSAL, W, want), INVENT_OK);
    gsl_matrix_free(W);
    cr_assert_lt(mat_max_abs_diff(out, want), 1e-13, "chapter 8 with H = 1, W_o = I is chapter 7");
    mha_trace_free(tr);
    gsl_matrix *all[] = {X, out, want, Q, K, V};
    for (size_t i = 0; i < 6; i++)
        gsl_matrix_free(all[i]);
    mha_free(w);
    gsl_rng_free(r);
}

Test(reductions, identity_queries_and_keys_give_the_bilinear_score_with_a_equal_i)
{
    gsl_rng *r = rng_new(12);
    size_t d = 4;
    mha_weights *w = mha_new(d, 1, d, d, r);
    gsl_matrix_set_identity(w->Wq);
    gsl_matrix_set_identity(w->Wk);
    gsl_matrix *X = mat_gaussian(T, d, 1.0, r), *out = gsl_matrix_alloc(T, d);
    gsl_matrix *I = gsl_matrix_alloc(d, d), *S = gsl_matrix_alloc(T, T);
    gsl_matrix_set_identity(I);
    mha_trace *tr = mha_trace_new(T, w);
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, tr, out), INVENT_OK);
    gsl_matrix *keys = gsl_matrix_alloc(T, d);
    cr_assert_eq(bilinear_scores(X, I, keys, S), INVENT_OK); /* chapter 5: x_t^T A x_i, A = I */
    gsl_matrix_free(keys);
    gsl_matrix_scale(S, 1.0 / sqrt((double)d));
    mask_causal(S);
    cr_assert_eq(softmax_rows(S, 1.0), INVENT_OK);
    cr_assert_lt(mat_max_abs_diff(tr->A, S), 1e-14,
                 "W_q = W_k = I must score with the plain dot product");
    mha_trace_free(tr);
    gsl_matrix *all[] = {X, out, I, S};
    for (size_t i = 0; i < 4; i++)
        gsl_matrix_free(all[i]);
    mha_free(w);
    gsl_rng_free(r);
}

Test(reductions, without_the_mask_attention_is_bidirectional)
{
    gsl_rng *r = rng_new(13);
    mha_weights *w = mha_new(6, 2, 3, 3, r);
    gsl_matrix *X = mat_gaussian(T, 6, 1.0, r);
    gsl_matrix *causal = gsl_matrix_alloc(T, 6), *both = gsl_matrix_alloc(T, 6);
    mha_trace *tr = mha_trace_new(T, w);
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, tr, causal), INVENT_OK);
    cr_assert_eq(mha_forward(w, X, ATTN_BIDIRECTIONAL, tr, both), INVENT_OK);
    mha_trace_free(tr);
    gsl_vector_view a = gsl_matrix_row(causal, T - 1), b = gsl_matrix_row(both, T - 1);
    gsl_vector_sub(&a.vector, &b.vector);
    cr_assert_lt(gsl_blas_dnrm2(&a.vector), 1e-14, "the last position sees everything either way");
    gsl_vector_view c = gsl_matrix_row(causal, 0), e = gsl_matrix_row(both, 0);
    gsl_vector_sub(&c.vector, &e.vector);
    cr_assert_gt(gsl_blas_dnrm2(&c.vector), 1e-6, "the first position must see more without it");
    gsl_matrix_free(X);
    gsl_matrix_free(causal);
    gsl_matrix_free(both);
    mha_free(w);
    gsl_rng_free(r);
}

Test(reductions, identical_heads_averaged_by_wo_are_one_head)
{
    gsl_rng *r = rng_new(14);
    size_t d = 4, H = 3;
    mha_weights *one = mha_new(d, 1, 2, d, r), *many = mha_new(d, H, 2, d, r);
    gsl_matrix_set_identity(one->Wo);
    for (size_t j = 0; j < H; j++) {
        gsl_matrix_view q = heads_rows(many->Wq, H, j), k = heads_rows(many->Wk, H, j);
        gsl_matrix_view v = heads_rows(many->Wv, H, j), o = heads_columns(many->Wo, H, j);
        gsl_matrix_memcpy(&q.matrix, one->Wq);
        gsl_matrix_memcpy(&k.matrix, one->Wk);
        gsl_matrix_memcpy(&v.matrix, one->Wv);
        gsl_matrix_set_identity(&o.matrix);
        gsl_matrix_scale(&o.matrix, 1.0 / (double)H);
    }
    gsl_matrix *X = mat_gaussian(T, d, 1.0, r);
    gsl_matrix *a = gsl_matrix_alloc(T, d), *b = gsl_matrix_alloc(T, d);
    mha_trace *tr_one = mha_trace_new(T, one), *tr_many = mha_trace_new(T, many);
    cr_assert_eq(mha_forward(one, X, ATTN_CAUSAL, tr_one, a), INVENT_OK);
    cr_assert_eq(mha_forward(many, X, ATTN_CAUSAL, tr_many, b), INVENT_OK);
    mha_trace_free(tr_one);
    mha_trace_free(tr_many);
    cr_assert_lt(mat_max_abs_diff(a, b), 1e-14);
    gsl_matrix_free(X);
    gsl_matrix_free(a);
    gsl_matrix_free(b);
    mha_free(one);
    mha_free(many);
    gsl_rng_free(r);
}

Test(reductions, block_without_attention_and_mlp_is_two_norms)
{
    gsl_rng *r = rng_new(15);
    block_weights *w = block_new(8, 2, 16, r);
    gsl_matrix_set_zero(w->attn->Wo); /* attention adds nothing */
    gsl_matrix_set_zero(w->mlp->W2);  /* neither does the MLP */
    gsl_matrix *X = mat_gaussian(T, 8, 2.0, r), *Y = gsl_matrix_alloc(T, 8);
    gsl_matrix *want = gsl_matrix_alloc(T, 8);
    block_trace *tr = block_trace_new(T, w);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    block_trace_free(tr);
    layernorm_forward(X, w->gamma1, w->beta1, w->eps, want, NULL, NULL);
    layernorm_forward(want, w->gamma2, w->beta2, w->eps, want, NULL, NULL);
    cr_assert_lt(mat_max_abs_diff(Y, want), 1e-14, "only the skips and norms should remain");
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    gsl_matrix_free(want);
    block_free(w);
    gsl_rng_free(r);
}
