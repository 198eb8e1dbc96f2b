/* Unit tests: one Transformer block. */
#include <criterion/criterion.h>
#include <math.h>

#include "block.h"
#include "layernorm.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(block, is_causal_a_later_token_does_not_change_earlier_outputs)
{
    gsl_rng *r = rng_new(6);
    block_weights *w = block_new(8, 2, 16, r);
    gsl_matrix *X = mat_gaussian(5, 8, 1.0, r), *Y = gsl_matrix_alloc(5, 8);
    gsl_matrix *Y2 = gsl_matrix_alloc(5, 8);
    block_trace *tr = block_trace_new(5, w);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    gsl_matrix_set(X, 4, 0, 10.0);
    cr_assert_eq(block_forward(w, X, tr, Y2), INVENT_OK);
    block_trace_free(tr);
    gsl_matrix_const_view a = gsl_matrix_const_submatrix(Y, 0, 0, 4, 8);
    gsl_matrix_const_view b = gsl_matrix_const_submatrix(Y2, 0, 0, 4, 8);
    cr_assert_eq(mat_max_abs_diff(&a.matrix, &b.matrix), 0.0);
    gsl_vector_const_view last = gsl_matrix_const_row(Y, 4), last2 = gsl_matrix_const_row(Y2, 4);
    cr_assert_gt(fabs(gsl_vector_get(&last.vector, 0) - gsl_vector_get(&last2.vector, 0)), 1e-6);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    gsl_matrix_free(Y2);
    block_free(w);
    gsl_rng_free(r);
}

Test(block, trace_holds_the_pieces_in_order)
{
    gsl_rng *r = rng_new(9);
    block_weights *w = block_new(6, 3, 10, r);
    gsl_matrix *X = mat_gaussian(4, 6, 1.0, r), *Y = gsl_matrix_alloc(4, 6);
    block_trace *tr = block_trace_new(4, w);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    gsl_matrix *R1 = mat_clone(X), *H = gsl_matrix_alloc(4, 6), *Yw = gsl_matrix_alloc(4, 6);
    gsl_matrix_add(R1, tr->A);
    cr_assert_lt(mat_max_abs_diff(R1, tr->R1), 1e-15);
    layernorm_forward(tr->R2, w->gamma2, w->beta2, w->eps, Yw, NULL, NULL);
    cr_assert_lt(mat_max_abs_diff(Y, Yw), 1e-15);
    layernorm_forward(tr->R1, w->gamma1, w->beta1, w->eps, H, NULL, NULL);
    cr_assert_lt(mat_max_abs_diff(H, tr->H), 1e-15);
    gsl_matrix_free(R1);
    gsl_matrix_free(H);
    gsl_matrix_free(Yw);
    block_trace_free(tr);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}

Test(block, refuses_heads_that_do_not_divide_d_and_wrong_shapes)
{
    gsl_rng *r = rng_new(1);
    cr_assert_null(block_new(6, 4, 8, r));
    block_weights *w = block_new(6, 2, 8, r);
    gsl_matrix *X = gsl_matrix_calloc(3, 5), *Y = gsl_matrix_alloc(3, 5);
    block_trace *tr = block_trace_new(3, w);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_ESHAPE);
    cr_assert_eq(block_forward(w, X, NULL, Y), INVENT_ERANGE, "no trace of its own");
    block_trace_free(tr);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}

Test(block, pre_norm_trace_holds_the_pieces_in_order)
{
    gsl_rng *r = rng_new(10);
    block_weights *w = block_new(6, 2, 10, r);
    w->norm = BLOCK_PRE_NORM;
    gsl_matrix *X = mat_gaussian(4, 6, 1.0, r), *Y = gsl_matrix_alloc(4, 6);
    block_trace *tr = block_trace_new(4, w);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    gsl_matrix *N = gsl_matrix_alloc(4, 6), *H = gsl_matrix_alloc(4, 6), *R1 = mat_clone(X);
    gsl_vector *mean = gsl_vector_alloc(4), *rstd = gsl_vector_alloc(4);
    layernorm_forward(X, w->gamma1, w->beta1, w->eps, N, mean, rstd);
    cr_assert_lt(mat_max_abs_diff(N, tr->N), 1e-15);
    cr_assert_eq(gsl_vector_get(tr->rstd1, 3), gsl_vector_get(rstd, 3));
    gsl_matrix_add(R1, tr->A);
    cr_assert_lt(mat_max_abs_diff(R1, tr->R1), 1e-15);
    layernorm_forward(tr->R1, w->gamma2, w->beta2, w->eps, H, mean, rstd);
    cr_assert_lt(mat_max_abs_diff(H, tr->H), 1e-15);
    cr_assert_eq(gsl_vector_get(tr->mean2, 0), gsl_vector_get(mean, 0));
    gsl_matrix_add(R1, tr->M);
    cr_assert_lt(mat_max_abs_diff(R1, Y), 1e-15);
    gsl_matrix_free(N), gsl_matrix_free(H), gsl_matrix_free(R1);
    gsl_vector_free(mean), gsl_vector_free(rstd);
    block_trace_free(tr);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}

/* With W_o = 0 and an MLP that writes nothing, a pre-norm block is the
 * identity (its skip path meets no norm); a post-norm block still normalises. */
Test(block, pre_norm_skip_path_is_free_of_norms)
{
    gsl_rng *r = rng_new(11);
    block_weights *w = block_new(6, 3, 8, r);
    gsl_matrix_set_zero(w->attn->Wo);
    gsl_matrix_set_zero(w->mlp->W2);
    gsl_matrix *X = mat_gaussian(5, 6, 2.0, r), *Y = gsl_matrix_alloc(5, 6);
    block_trace *tr = block_trace_new(5, w);
    w->norm = BLOCK_PRE_NORM;
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    cr_assert_eq(mat_max_abs_diff(X, Y), 0.0);
    w->norm = BLOCK_POST_NORM;
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    cr_assert_gt(mat_max_abs_diff(X, Y), 0.1);
    block_trace_free(tr);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    block_free(w);
    gsl_rng_free(r);
}

Test(block, tensors_cover_every_parameter_once)
{
    gsl_rng *r = rng_new(12);
    block_weights *w = block_new(8, 2, 12, r);
    gsl_vector_view v[BLOCK_TENSORS];
    block_tensors(w, v);
    size_t total = 0;
    for (int k = 0; k < BLOCK_TENSORS; k++)
        total += v[k].vector.size;
    cr_assert_eq(total, 4 * 8 * 8 + 2 * 8 * 12 + 12 + 8 + 4 * 8);
    cr_assert_eq(v[4].vector.data, w->gamma1->data);
    cr_assert_eq(v[8].vector.data, w->mlp->W2->data);
    block_set_zero(w);
    cr_assert_eq(gsl_vector_get(w->gamma2, 7), 0.0);
    cr_assert_eq(gsl_matrix_get(w->attn->Wv, 3, 5), 0.0);
    block_free(w);
    gsl_rng_free(r);
}
