/* Unit tests: an induction head's prefix-matching and copying scores. */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_blas.h>

#include "induction.h"
#include "rng.h"
#include "status.h"

enum { R = 4, T = 2 * R };

/* x: (T) = 0 1 2 3 0 1 2 3, a segment and its repeat */
static const size_t repeat[T] = {0, 1, 2, 3, 0, 1, 2, 3};

Test(induction, an_ideal_induction_head_scores_one)
{
    gsl_matrix *A = gsl_matrix_calloc(T, T);
    for (size_t t = 0; t < T; t++) /* query t in the repeat: all on t - R + 1 */
        gsl_matrix_set(A, t, t >= R ? t - R + 1 : t, 1.0);
    double score = -1.0;
    cr_assert_eq(induction_prefix_score(A, repeat, R, &score), INVENT_OK);
    cr_assert_float_eq(score, 1.0, 1e-15);
    gsl_matrix_free(A);
}

Test(induction, a_head_on_the_earlier_copy_itself_scores_zero)
{
    gsl_matrix *A = gsl_matrix_calloc(T, T);
    for (size_t t = 0; t < T; t++) /* the same-character key, not the one after it */
        gsl_matrix_set(A, t, t >= R ? t - R : t, 1.0);
    double score = -1.0;
    cr_assert_eq(induction_prefix_score(A, repeat, R, &score), INVENT_OK);
    cr_assert_float_eq(score, 0.0, 1e-15);
    gsl_matrix_free(A);
}

Test(induction, uniform_rows_score_the_share_of_matching_keys)
{
    gsl_matrix *A = gsl_matrix_calloc(T, T);
    for (size_t t = 0; t < T; t++)
        for (size_t s = 0; s <= t; s++)
            gsl_matrix_set(A, t, s, 1.0 / (double)(t + 1));
    /* queries t = 4..7 each have one key, s = t - 3, whose previous token is x_t */
    double score = -1.0, want = (1.0 / 5 + 1.0 / 6 + 1.0 / 7 + 1.0 / 8) / 4;
    cr_assert_eq(induction_prefix_score(A, repeat, R, &score), INVENT_OK);
    cr_assert_float_eq(score, want, 1e-15);
    gsl_matrix_free(A);
}

Test(induction, no_matching_query_scores_zero_and_a_non_square_matrix_is_refused)
{
    gsl_matrix *A = gsl_matrix_calloc(R, R), *B = gsl_matrix_calloc(R, R + 1);
    gsl_matrix_set_all(A, 0.25);
    double score = -1.0;
    cr_assert_eq(induction_prefix_score(A, repeat, 0, &score), INVENT_OK); /* 0 1 2 3 */
    cr_assert_float_eq(score, 0.0, 1e-15);
    cr_assert_eq(induction_prefix_score(B, repeat, 0, &score), INVENT_ESHAPE);
    gsl_matrix_free(A), gsl_matrix_free(B);
}

Test(induction, copy_score_ranks_the_next_token)
{
    enum { V = 5 };
    gsl_matrix *Z = gsl_matrix_calloc(T, V);
    for (size_t t = 0; t < T; t++)
        for (size_t v = 0; v < V; v++) /* the next token first, the rest in order */
            gsl_matrix_set(Z, t, v, t + 1 < T && v == repeat[t + 1] ? 10.0 : (double)v);
    cr_assert_float_eq(induction_copy_score(Z, repeat, R), 1.0, 1e-15);
    gsl_matrix_scale(Z, -1.0); /* now last */
    cr_assert_float_eq(induction_copy_score(Z, repeat, R), 0.0, 1e-15);
    gsl_matrix_free(Z);
}

/* the heads' logits add up to those of the attention's whole output */
Test(induction, head_logits_add_up_to_the_attention_output)
{
    const gpt_shape shape = {.vocab = 6, .context = T, .dim = 8, .heads = 2, .layers = 2,
                             .hidden = 16, .norm = BLOCK_PRE_NORM};
    gsl_rng *r = rng_new(5);
    gpt_weights *w = gpt_new(&shape, r);
    for (size_t c = 0; c < shape.dim; c++)
        gsl_vector_set(w->gamma, c, 0.5 + 0.1 * (double)c);
    gpt_probe *p = gpt_probe_new(w, T);
    gsl_matrix *Z = gsl_matrix_alloc(T, shape.vocab), *sum = gsl_matrix_calloc(T, shape.vocab);
    gsl_matrix *U = gsl_matrix_alloc(T, shape.dim), *want = gsl_matrix_alloc(T, shape.vocab);
    size_t x[T] = {1, 2, 3, 4, 5, 0, 1, 2};
    cr_assert_eq(gpt_probe_run(w, x, p), INVENT_OK);
    for (size_t j = 0; j < shape.heads; j++) {
        cr_assert_eq(induction_head_logits(w, p, 1, j, Z), INVENT_OK);
        gsl_matrix_add(sum, Z);
    }
    gsl_matrix_memcpy(U, p->blk[1]->A); /* MHA's output after W_o, centred, times gamma */
    for (size_t t = 0; t < T; t++) {
        double mean = 0.0;
        for (size_t c = 0; c < shape.dim; c++)
            mean += gsl_matrix_get(U, t, c) / (double)shape.dim;
        for (size_t c = 0; c < shape.dim; c++)
            gsl_matrix_set(U, t, c, (gsl_matrix_get(U, t, c) - mean) * gsl_vector_get(w->gamma, c));
    }
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, U, w->Wout, 0.0, want);
    for (size_t t = 0; t < T; t++)
        for (size_t v = 0; v < shape.vocab; v++)
            cr_assert_float_eq(gsl_matrix_get(sum, t, v), gsl_matrix_get(want, t, v), 1e-12);
    cr_assert_eq(induction_head_logits(w, p, 2, 0, Z), INVENT_ESHAPE);
    gsl_matrix_free(Z), gsl_matrix_free(sum), gsl_matrix_free(U), gsl_matrix_free(want);
    gpt_probe_free(p);
    gpt_free(w);
    gsl_rng_free(r);
}
