/* Unit tests: generated weights, the layer with its skip connection, and the
 * diagonal and mixture weights of chapter 3. */
#include <criterion/criterion.h>
#include <math.h>

#include "dynamic_weights.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

static attn_additive *generator(gsl_rng *r) { return attn_additive_new(2, 3, 1.0, r); }

Test(dynamic_weights, source_only_rows_are_equal_receiver_rows_differ)
{
    gsl_rng *r = rng_new(3);
    attn_additive *a = generator(r);
    gsl_matrix *X = mat_gaussian(4, 2, 1.0, r), *W = gsl_matrix_alloc(4, 4);
    dw_work *work = dw_work_new(4, 2, 3);
    gsl_vector_set_all(work->zero, 1.0); /* the workspace's numbers do not matter */
    cr_assert_eq(dw_weights(a, DW_SOURCE_ONLY, X, X, work, W), INVENT_OK);
    for (size_t j = 1; j < 4; j++)
        for (size_t i = 0; i < 4; i++)
            cr_assert_eq(gsl_matrix_get(W, j, i), gsl_matrix_get(W, 0, i));
    cr_assert_eq(dw_row_spread(W), 0.0);
    double alone;
    gsl_vector *zero = gsl_vector_calloc(2);
    gsl_vector_view x0 = gsl_matrix_row(X, 0);
    cr_assert_eq(score_additive(a, &x0.vector, zero, &alone), INVENT_OK);
    gsl_vector_free(zero);
    cr_assert_float_eq(gsl_matrix_get(W, 3, 0), alone, 1e-15, "W[j][i] = a(s_i, 0)");
    cr_assert_eq(dw_weights(a, DW_SOURCE_AND_RECEIVER, X, X, work, W), INVENT_OK);
    cr_assert_gt(dw_row_spread(W), 1e-6);
    double w;
    gsl_vector_view x1 = gsl_matrix_row(X, 1), x2 = gsl_matrix_row(X, 2);
    cr_assert_eq(score_additive(a, &x1.vector, &x2.vector, &w), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(W, 2, 1), w, 1e-15, "W[j][i] = a(s_i, r_j)");
    cr_assert_eq(dw_weights(a, DW_SELF_ONLY, X, X, work, W), INVENT_OK);
    cr_assert_eq(gsl_matrix_get(W, 2, 1), 0.0);
    cr_assert_neq(gsl_matrix_get(W, 2, 2), 0.0);
    dw_work_free(work);
    attn_additive_free(a);
    gsl_matrix_free(X);
    gsl_matrix_free(W);
    gsl_rng_free(r);
}

Test(dynamic_weights, layer_adds_the_skip_input)
{
    double w[] = {0.0, 1.0, 2.0, 0.0}, x[] = {1.0, 2.0, 3.0, 4.0}, y[4];
    gsl_matrix_view W = gsl_matrix_view_array(w, 2, 2), X = gsl_matrix_view_array(x, 2, 2),
                    Y = gsl_matrix_view_array(y, 2, 2);
    cr_assert_eq(dw_layer(&W.matrix, &X.matrix, &Y.matrix), INVENT_OK);
    const double want[] = {1.0 + 3.0, 2.0 + 4.0, 3.0 + 2.0, 4.0 + 4.0};
    for (int k = 0; k < 4; k++)
        cr_assert_float_eq(y[k], want[k], 1e-15);
}

Test(dynamic_weights, rejects_bad_shapes)
{
    gsl_rng *r = rng_new(1);
    attn_additive *a = generator(r);
    gsl_matrix *S = gsl_matrix_calloc(3, 2), *R = gsl_matrix_calloc(4, 2), *W = gsl_matrix_alloc(3, 3);
    dw_work *w = dw_work_new(3, 2, 3), *wide = dw_work_new(3, 3, 3);
    cr_assert_eq(dw_weights(a, DW_SOURCE_AND_RECEIVER, S, R, w, W), INVENT_ESHAPE);
    cr_assert_eq(dw_weights(a, DW_SOURCE_ONLY, S, S, wide, W), INVENT_ESHAPE, "zero of 3, d = 2");
    cr_assert_eq(dw_weights(a, DW_SOURCE_ONLY, S, S, w, W), INVENT_OK);
    cr_assert_null(dw_work_new(0, 2, 3));
    cr_assert_eq(dw_layer(W, R, R), INVENT_ESHAPE);
    dw_work_free(w);
    dw_work_free(wide);
    attn_additive_free(a);
    gsl_matrix_free(S);
    gsl_matrix_free(R);
    gsl_matrix_free(W);
    gsl_rng_free(r);
}

Test(dynamic_weights, diagonal_equals_sum_of_one_hots)
{
    double c[] = {1.5, -2.0, 0.25};
    gsl_vector_view C = gsl_vector_view_array(c, 3);
    gsl_matrix *D = gsl_matrix_alloc(3, 3), *E = gsl_matrix_alloc(3, 3);
    gsl_matrix *onehot[3] = {gsl_matrix_alloc(3, 3), gsl_matrix_alloc(3, 3), gsl_matrix_alloc(3, 3)};
    cr_assert_eq(dw_diagonal(&C.vector, D), INVENT_OK);
    cr_assert_eq(dw_onehot_sum(&C.vector, onehot, E), INVENT_OK);
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++) {
            cr_assert_eq(gsl_matrix_get(D, i, j), i == j ? c[i] : 0.0);
            cr_assert_eq(gsl_matrix_get(E, i, j), gsl_matrix_get(D, i, j));
            cr_assert_eq(gsl_matrix_get(onehot[1], i, j), i == 1 && j == 1);
        }
    gsl_matrix_free(D);
    gsl_matrix_free(E);
    for (int k = 0; k < 3; k++)
        gsl_matrix_free(onehot[k]);
}

Test(dynamic_weights, mixture_and_coefficients)
{
    double v1[] = {1, 2, 3, 4}, v2[] = {0, 1, 1, 0}, c[] = {2.0, -1.0}, m[4];
    gsl_matrix_view V1 = gsl_matrix_view_array(v1, 2, 2), V2 = gsl_matrix_view_array(v2, 2, 2),
                    M = gsl_matrix_view_array(m, 2, 2);
    gsl_matrix *V[] = {&V1.matrix, &V2.matrix};
    gsl_vector_view C = gsl_vector_view_array(c, 2);
    cr_assert_eq(dw_mixture(&C.vector, V, &M.matrix), INVENT_OK);
    const double want[] = {2, 3, 5, 8};
    for (int k = 0; k < 4; k++)
        cr_assert_float_eq(m[k], want[k], 1e-15);

    gsl_rng *r = rng_new(5);
    attn_additive *bank[2] = {generator(r), generator(r)};
    double xi[] = {0.1, 0.2}, xl[] = {-0.3, 0.4}, got[2], want1;
    gsl_vector_view Xi = gsl_vector_view_array(xi, 2), Xl = gsl_vector_view_array(xl, 2),
                    G = gsl_vector_view_array(got, 2);
    cr_assert_eq(dw_coefficients(bank, &Xi.vector, &Xl.vector, &G.vector), INVENT_OK);
    cr_assert_eq(score_additive(bank[1], &Xi.vector, &Xl.vector, &want1), INVENT_OK);
    cr_assert_eq(got[1], want1);
    attn_additive_free(bank[0]);
    attn_additive_free(bank[1]);
    gsl_rng_free(r);
}
