/* Unit tests: multi-head attention, heads as views, concatenation. */
#include <criterion/criterion.h>
#include <math.h>

#include "attention.h"
#include "heads.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(heads, column_blocks_are_views_not_copies)
{
    gsl_matrix *M = gsl_matrix_calloc(3, 8);
    gsl_matrix_view b = heads_columns(M, 4, 2);
    cr_assert_eq(b.matrix.size1, 3);
    cr_assert_eq(b.matrix.size2, 2);
    gsl_matrix_set(&b.matrix, 1, 0, 5.0);
    cr_assert_eq(gsl_matrix_get(M, 1, 4), 5.0, "writing the view must write the matrix");
    gsl_matrix_const_view r = heads_const_rows(M, 3, 1);
    cr_assert_eq(r.matrix.size1, 1);
    cr_assert_eq(gsl_matrix_get(&r.matrix, 0, 4), 5.0);
    gsl_matrix_free(M);
}

Test(heads, concat_places_heads_side_by_side)
{
    gsl_matrix *a = gsl_matrix_alloc(2, 3), *b = gsl_matrix_alloc(2, 3);
    gsl_matrix_set_all(a, 1.0);
    gsl_matrix_set_all(b, 2.0);
    const gsl_matrix *O[2] = {a, b};
    gsl_matrix *C = gsl_matrix_alloc(2, 6);
    cr_assert_eq(heads_concat(O, 2, C), INVENT_OK);
    cr_assert_eq(gsl_matrix_get(C, 1, 2), 1.0);
    cr_assert_eq(gsl_matrix_get(C, 1, 3), 2.0);
    gsl_matrix *bad = gsl_matrix_alloc(2, 5);
    cr_assert_eq(heads_concat(O, 2, bad), INVENT_ESHAPE);
    gsl_matrix_free(a);
    gsl_matrix_free(b);
    gsl_matrix_free(C);
    gsl_matrix_free(bad);
}

/* out = sum_j attn_sum_form(head j) (W_o^(j))^T, head by head with attention.h */
static gsl_matrix *per_head_reference(const mha_weights *w, const gsl_matrix *X, attn_mask mask)
{
    size_t T = X->size1, d = X->size2, H = w->heads;
    size_t dk = w->Wq->size1 / H, dv = w->Wv->size1 / H;
    gsl_matrix *out = gsl_matrix_calloc(T, d);
    gsl_matrix *Q = gsl_matrix_alloc(T, dk), *K = gsl_matrix_alloc(T, dk);
    gsl_matrix *V = gsl_matrix_alloc(T, dv), *O = gsl_matrix_alloc(T, dv);
    gsl_vector *scores = gsl_vector_alloc(T);
    for (size_t j = 0; j < H; j++) {
        gsl_matrix_const_view q = heads_const_rows(w->Wq, H, j), k = heads_const_rows(w->Wk, H, j);
        gsl_matrix_const_view v = heads_const_rows(w->Wv, H, j);
        gsl_matrix_const_view o = heads_const_columns(w->Wo, H, j);
        mat_mul(X, CblasNoTrans, &q.matrix, CblasTrans, Q);
        mat_mul(X, CblasNoTrans, &k.matrix, CblasTrans, K);
        mat_mul(X, CblasNoTrans, &v.matrix, CblasTrans, V);
        cr_assert_eq(attn_sum_form(Q, K, V, 1.0 / sqrt((double)dk), mask, scores, O), INVENT_OK);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, O, &o.matrix, 1.0, out);
    }
    gsl_matrix_free(Q);
    gsl_matrix_free(K);
    gsl_matrix_free(V);
    gsl_matrix_free(O);
    gsl_vector_free(scores);
    return out;
}

static void matches_per_head_sum(attn_mask mask, size_t d, size_t H, size_t dk, size_t dv)
{
    gsl_rng *r = rng_new(3);
    mha_weights *w = mha_new(d, H, dk, dv, r);
    gsl_matrix *X = mat_gaussian(6, d, 1.0, r), *out = gsl_matrix_alloc(6, d);
    mha_trace *tr = mha_trace_new(6, w);
    cr_assert_eq(mha_forward(w, X, mask, tr, out), INVENT_OK);
    gsl_matrix *want = per_head_reference(w, X, mask);
    cr_assert_lt(mat_max_abs_diff(out, want), 1e-12);
    for (size_t j = 0; j < H; j++) /* every head's weights are a distribution per row */
        for (size_t t = 0; t < 6; t++) {
            gsl_vector_view row = gsl_matrix_row(tr->A, j * 6 + t);
            double s = 0.0;
            for (size_t i = 0; i < 6; i++)
                s += gsl_vector_get(&row.vector, i);
            cr_assert_float_eq(s, 1.0, 1e-12);
            if (mask == ATTN_CAUSAL && t < 5)
                cr_assert_eq(gsl_vector_get(&row.vector, 5), 0.0, "a future token was seen");
        }
    mha_trace_free(tr);
    gsl_matrix_free(want);
    gsl_matrix_free(X);
    gsl_matrix_free(out);
    mha_free(w);
    gsl_rng_free(r);
}

Test(heads, causal_multi_head_equals_sum_over_heads)
{
    matches_per_head_sum(ATTN_CAUSAL, 8, 4, 2, 2);
}

Test(heads, bidirectional_with_other_head_sizes)
{
    matches_per_head_sum(ATTN_BIDIRECTIONAL, 6, 3, 4, 5);
}

Test(heads, forward_refuses_no_trace_and_reuses_one)
{
    gsl_rng *r = rng_new(5);
    mha_weights *w = mha_new(4, 2, 2, 2, r);
    gsl_matrix *X = mat_gaussian(3, 4, 1.0, r);
    gsl_matrix *a = gsl_matrix_alloc(3, 4), *b = gsl_matrix_alloc(3, 4);
    mha_trace *tr = mha_trace_new(3, w);
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, NULL, b), INVENT_ERANGE,
                 "the forward pass allocates no trace of its own");
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, tr, a), INVENT_OK);
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, tr, b), INVENT_OK);
    cr_assert_eq(mat_max_abs_diff(a, b), 0.0);
    mha_trace_free(tr);
    gsl_matrix_free(X);
    gsl_matrix_free(a);
    gsl_matrix_free(b);
    mha_free(w);
    gsl_rng_free(r);
}

Test(heads, rejects_shapes_that_do_not_fit)
{
    gsl_rng *r = rng_new(1);
    mha_weights *w = mha_new(4, 2, 2, 2, r);
    gsl_matrix *X = gsl_matrix_calloc(3, 5), *out = gsl_matrix_alloc(3, 4);
    mha_trace *small = mha_trace_new(2, w), *tr = mha_trace_new(3, w);
    cr_assert_eq(mha_forward(w, X, ATTN_CAUSAL, tr, out), INVENT_ESHAPE);
    gsl_matrix *X4 = gsl_matrix_calloc(3, 4);
    cr_assert_eq(mha_forward(w, X4, ATTN_CAUSAL, small, out), INVENT_ESHAPE);
    cr_assert_null(mha_new(4, 0, 2, 2, r));
    mha_trace_free(small);
    mha_trace_free(tr);
    gsl_matrix_free(X);
    gsl_matrix_free(X4);
    gsl_matrix_free(out);
    mha_free(w);
    gsl_rng_free(r);
}
