/* Unit tests: attention in sum form and in matrix form (attn_forward). */
#include <criterion/criterion.h>
#include <math.h>

#include "attention.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

typedef struct {
    gsl_matrix *Q, *K, *V, *a, *b;
    gsl_vector *s; /* (Tk): the sum form's scores of one query */
    gsl_matrix *W; /* (T, Tk): the matrix form's weights */
} qkv;

static qkv random_qkv(size_t T, size_t Tk, size_t dk, size_t dv, unsigned long seed)
{
    gsl_rng *r = rng_new(seed);
    qkv p = {mat_gaussian(T, dk, 1.0, r), mat_gaussian(Tk, dk, 1.0, r),
             mat_gaussian(Tk, dv, 1.0, r), gsl_matrix_alloc(T, dv), gsl_matrix_alloc(T, dv),
             gsl_vector_alloc(Tk), gsl_matrix_alloc(T, Tk)};
    gsl_rng_free(r);
    return p;
}

static void free_qkv(qkv *p)
{
    gsl_matrix_free(p->Q);
    gsl_matrix_free(p->K);
    gsl_matrix_free(p->V);
    gsl_matrix_free(p->a);
    gsl_matrix_free(p->b);
    gsl_vector_free(p->s);
    gsl_matrix_free(p->W);
}

/* both forms on random (T, dk) queries and (Tk, dk) keys must agree */
static void assert_forms_agree(size_t T, size_t Tk, double scale, attn_mask mask,
                               unsigned long seed)
{
    qkv p = random_qkv(T, Tk, 4, 3, seed);
    cr_assert_eq(attn_sum_form(p.Q, p.K, p.V, scale, mask, p.s, p.a), INVENT_OK);
    cr_assert_eq(attn_forward(p.Q, p.K, p.V, scale, mask, p.W, p.b), INVENT_OK);
    cr_assert_leq(mat_max_abs_diff(p.a, p.b), 1e-13);
    free_qkv(&p);
}

Test(attention, sum_form_equals_matrix_form_causal)
{
    assert_forms_agree(9, 9, 0.5, ATTN_CAUSAL, 7);
}

Test(attention, sum_form_equals_matrix_form_bidirectional_rectangular)
{
    assert_forms_agree(4, 7, 1.0, ATTN_BIDIRECTIONAL, 8);
}

Test(attention, causal_weights_are_lower_triangular_rows_of_one)
{
    qkv p = random_qkv(6, 6, 3, 2, 9);
    gsl_matrix *W = gsl_matrix_alloc(6, 6);
    cr_assert_eq(attn_weights(p.Q, p.K, 1.0, ATTN_CAUSAL, W), INVENT_OK);
    for (size_t t = 0; t < 6; t++) {
        double total = 0.0;
        for (size_t i = 0; i < 6; i++) {
            double w = gsl_matrix_get(W, t, i);
            if (i > t)
                cr_assert_eq(w, 0.0, "position %zu sees the future position %zu", t, i);
            total += w;
        }
        cr_assert_float_eq(total, 1.0, 1e-14);
    }
    /* the first position sees only itself: its output is v_0 */
    cr_assert_eq(attn_forward(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, p.W, p.a), INVENT_OK);
    for (size_t j = 0; j < 2; j++)
        cr_assert_float_eq(gsl_matrix_get(p.a, 0, j), gsl_matrix_get(p.V, 0, j), 1e-15);
    gsl_matrix_free(W);
    free_qkv(&p);
}

Test(attention, a_hand_computed_example)
{
    /* two keys, one query: scores 1 and 0, so weights e/(e+1) and 1/(e+1) */
    double q[] = {1.0, 0.0}, k[] = {1.0, 0.0, 0.0, 1.0}, v[] = {2.0, 4.0}, o[1];
    gsl_matrix_view Q = gsl_matrix_view_array(q, 1, 2), K = gsl_matrix_view_array(k, 2, 2);
    gsl_matrix_view V = gsl_matrix_view_array(v, 2, 1), O = gsl_matrix_view_array(o, 1, 1);
    double w[2];
    gsl_matrix_view W = gsl_matrix_view_array(w, 1, 2);
    cr_assert_eq(attn_forward(&Q.matrix, &K.matrix, &V.matrix, 1.0, ATTN_BIDIRECTIONAL, &W.matrix,
                              &O.matrix), INVENT_OK);
    double e = exp(1.0);
    cr_assert_float_eq(o[0], (2.0 * e + 4.0) / (e + 1.0), 1e-15);
}

Test(attention, stays_finite_at_huge_scores)
{
    qkv p = random_qkv(5, 5, 2, 2, 10);
    gsl_matrix_scale(p.Q, 1e4);
    cr_assert_eq(attn_sum_form(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, p.s, p.a), INVENT_OK);
    cr_assert_eq(attn_forward(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, p.W, p.b), INVENT_OK);
    for (size_t t = 0; t < 5; t++)
        for (size_t j = 0; j < 2; j++)
            cr_assert(isfinite(gsl_matrix_get(p.b, t, j)));
    cr_assert_leq(mat_max_abs_diff(p.a, p.b), 1e-12);
    free_qkv(&p);
}

Test(attention, rejects_shapes_that_do_not_fit)
{
    qkv p = random_qkv(4, 6, 3, 2, 11);
    gsl_matrix *W = gsl_matrix_alloc(4, 6), *bad = gsl_matrix_alloc(4, 3);
    /* causal needs as many queries as keys */
    cr_assert_eq(attn_weights(p.Q, p.K, 1.0, ATTN_CAUSAL, W), INVENT_ESHAPE);
    cr_assert_eq(attn_sum_form(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, p.s, p.a), INVENT_ESHAPE);
    cr_assert_eq(attn_forward(p.Q, p.K, p.V, 1.0, ATTN_CAUSAL, p.W, p.a), INVENT_ESHAPE);
    /* out of the wrong width, and V with the wrong number of rows */
    cr_assert_eq(attn_forward(p.Q, p.K, p.V, 1.0, ATTN_BIDIRECTIONAL, p.W, bad), INVENT_ESHAPE);
    cr_assert_eq(attn_sum_form(p.Q, p.K, p.V, 1.0, ATTN_BIDIRECTIONAL, p.s, bad), INVENT_ESHAPE);
    cr_assert_eq(attn_sum_form(p.Q, p.K, p.a, 1.0, ATTN_BIDIRECTIONAL, p.s, p.b), INVENT_ESHAPE);
    /* keys of another size than the queries */
    cr_assert_eq(attn_weights(p.Q, p.V, 1.0, ATTN_BIDIRECTIONAL, W), INVENT_ESHAPE);
    gsl_matrix_free(W);
    gsl_matrix_free(bad);
    free_qkv(&p);
}

Test(attention, forward_keeps_the_weights_of_the_matrix_form)
{
    qkv p = random_qkv(5, 5, 4, 3, 31);
    gsl_matrix *W = gsl_matrix_alloc(5, 5), *W2 = gsl_matrix_alloc(5, 5);
    cr_assert_eq(attn_forward(p.Q, p.K, p.V, 0.5, ATTN_CAUSAL, W, p.a), INVENT_OK);
    cr_assert_eq(attn_weights(p.Q, p.K, 0.5, ATTN_CAUSAL, W2), INVENT_OK);
    cr_assert_eq(mat_max_abs_diff(W, W2), 0.0);
    cr_assert_eq(mat_mul(W2, CblasNoTrans, p.V, CblasNoTrans, p.b), INVENT_OK); /* out = W V */
    cr_assert_leq(mat_max_abs_diff(p.a, p.b), 1e-15);
    gsl_matrix *dQ = gsl_matrix_calloc(5, 4), *dK = gsl_matrix_calloc(5, 4);
    gsl_matrix *dV = gsl_matrix_calloc(5, 3), *work = gsl_matrix_alloc(5, 5);
    cr_assert_eq(attn_backward(p.Q, p.K, p.V, 0.5, W, p.a, dQ, dK, dV, work), INVENT_ESHAPE,
                 "the workspace is (2T, T')");
    gsl_matrix_free(W), gsl_matrix_free(W2), gsl_matrix_free(dQ), gsl_matrix_free(dK);
    gsl_matrix_free(dV), gsl_matrix_free(work);
    free_qkv(&p);
}
