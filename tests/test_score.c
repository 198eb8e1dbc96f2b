/* Unit tests: the additive tanh score, the product, and the split of a score
 * of two arguments into f(x_i) + g(x_L) + v(x_i, x_L). */
#include <criterion/criterion.h>
#include <math.h>

#include "rng.h"
#include "score.h"
#include "status.h"

Test(score, additive_by_hand)
{
    /* h = 2, d = 2: v . tanh(W1 x_i + W2 x_L) written out */
    double w1[] = {1.0, 2.0, -1.0, 0.5}, w2[] = {0.5, 0.0, 1.0, -2.0}, v[] = {2.0, -1.0};
    double xi[] = {0.3, -0.2}, xl[] = {1.0, 0.4};
    gsl_matrix_view W1 = gsl_matrix_view_array(w1, 2, 2), W2 = gsl_matrix_view_array(w2, 2, 2);
    gsl_vector_view V = gsl_vector_view_array(v, 2), Xi = gsl_vector_view_array(xi, 2),
                    Xl = gsl_vector_view_array(xl, 2);
    double got = 0.0;
    cr_assert_eq(attn_additive_score(&W1.matrix, &W2.matrix, &V.vector, &Xi.vector, &Xl.vector,
                                     &got),
                 INVENT_OK);
    double want = 2.0 * tanh(0.3 - 0.4 + 0.5) - tanh(-0.3 - 0.1 + 1.0 - 0.8);
    cr_assert_float_eq(got, want, 1e-15);
}

Test(score, additive_reduces_to_the_1d_case)
{
    double w1 = 0.7, w2 = -1.3, v = 2.5, xi = 0.4, xl = -0.9, got;
    gsl_matrix_view W1 = gsl_matrix_view_array(&w1, 1, 1), W2 = gsl_matrix_view_array(&w2, 1, 1);
    gsl_vector_view V = gsl_vector_view_array(&v, 1), Xi = gsl_vector_view_array(&xi, 1),
                    Xl = gsl_vector_view_array(&xl, 1);
    cr_assert_eq(attn_additive_score(&W1.matrix, &W2.matrix, &V.vector, &Xi.vector, &Xl.vector,
                                     &got),
                 INVENT_OK);
    cr_assert_float_eq(got, attn_additive_score_1d(w1, w2, v, xi, xl), 1e-15);
    cr_assert_float_eq(attn_additive_score_1d(1, 1, 1, 0.2, 0.5), tanh(0.7), 1e-15);
}

Test(score, additive_rejects_bad_shapes_and_leaves_the_score)
{
    gsl_matrix *W1 = gsl_matrix_calloc(3, 2), *W2 = gsl_matrix_calloc(3, 2);
    gsl_vector *v = gsl_vector_calloc(3), *x2 = gsl_vector_calloc(2), *x3 = gsl_vector_calloc(3);
    gsl_vector *v2 = gsl_vector_calloc(2);
    double score = 42.0;
    cr_assert_eq(attn_additive_score(W1, W2, v, x3, x2, &score), INVENT_ESHAPE);
    cr_assert_eq(attn_additive_score(W1, W2, v, x2, x3, &score), INVENT_ESHAPE);
    cr_assert_eq(attn_additive_score(W1, W2, v2, x2, x2, &score), INVENT_ESHAPE);
    cr_assert_eq(score, 42.0);
    cr_assert_eq(attn_additive_score(W1, W2, v, x2, x2, &score), INVENT_OK);
    cr_assert_eq(score, 0.0);
    gsl_matrix_free(W1);
    gsl_matrix_free(W2);
    gsl_vector_free(v);
    gsl_vector_free(v2);
    gsl_vector_free(x2);
    gsl_vector_free(x3);
}

Test(score, product_is_the_dot_product)
{
    double a[] = {1.0, -2.0, 3.0}, b[] = {0.5, 0.25, -1.0}, s = 0.0;
    gsl_vector_view A = gsl_vector_view_array(a, 3), B = gsl_vector_view_array(b, 3),
                    B2 = gsl_vector_view_array(b, 2);
    cr_assert_eq(attn_product_score(&A.vector, &B.vector, &s), INVENT_OK);
    cr_assert_float_eq(s, 0.5 - 0.5 - 3.0, 1e-15);
    cr_assert_eq(attn_product_score(&A.vector, &B2.vector, &s), INVENT_ESHAPE);
}

Test(score, split_rebuilds_the_score_and_isolates_the_interaction)
{
    gsl_rng *r = rng_new(7);
    attn_additive *a = attn_additive_new(4, 5, 1.0, r);
    cr_assert_not_null(a);
    gsl_vector *xi = gsl_vector_alloc(4), *xl = gsl_vector_alloc(4), *zero = gsl_vector_calloc(4);
    for (size_t k = 0; k < 4; k++) {
        gsl_vector_set(xi, k, 0.3 * (double)k - 0.5);
        gsl_vector_set(xl, k, 1.0 - 0.4 * (double)k);
    }
    score_parts p, at_zero;
    double s;
    cr_assert_eq(score_split(score_additive, a, xi, xl, zero, &p), INVENT_OK);
    cr_assert_eq(score_additive(a, xi, xl, &s), INVENT_OK);
    cr_assert_float_eq(p.f + p.g + p.v, s, 1e-14);
    cr_assert_eq(score_split(score_additive, a, xi, zero, zero, &at_zero), INVENT_OK);
    cr_assert_float_eq(at_zero.v, 0.0, 1e-15, "v must vanish when x_L = 0");
    cr_assert_float_eq(at_zero.f, p.f, 1e-15, "f depends on x_i alone");
    cr_assert_eq(score_split(score_product, NULL, xi, xl, zero, &p), INVENT_OK);
    cr_assert_eq(p.f, 0.0);
    cr_assert_eq(p.g, 0.0);
    cr_assert_eq(score_product(NULL, xi, xl, &s), INVENT_OK);
    cr_assert_float_eq(p.v, s, 1e-15, "the product is all interaction");
    attn_additive_free(a);
    gsl_vector_free(xi);
    gsl_vector_free(xl);
    gsl_vector_free(zero);
    gsl_rng_free(r);
}
