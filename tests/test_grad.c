/* Unit tests: every hand-written backward pass against central finite
 * differences (lib/toys/gradcheck.c), and the checker itself. */
#include <criterion/criterion.h>
#include <math.h>

#include "activation.h"
#include "block.h"
#include "fdcheck.h"
#include "gradcheck.h"
#include "linear.h"
#include "mask.h"
#include "mat.h"
#include "rng.h"
#include "softmax.h"
#include "status.h"
#include "xent.h"

static void agrees(const char *name)
{
    const gradcheck_case *c = gradcheck_find(name);
    cr_assert_not_null(c, "no gradient check named '%s'", name);
    for (unsigned long seed = 1; seed <= 3; seed++) {
        gsl_rng *r = rng_new(seed);
        double e = c->run(r, 0);
        gsl_rng_free(r);
        cr_log_info("%-28s seed %lu: relative error %.2e", name, seed, e);
        cr_assert(e <= 1e-6, "backward pass of %s: relative error %g against finite "
                             "differences (seed %lu)", name, e, seed);
    }
}

Test(grad, linear) { agrees("linear"); }
Test(grad, tanh) { agrees("tanh"); }
Test(grad, relu) { agrees("relu"); }
Test(grad, softmax_with_causal_mask) { agrees("softmax (causal mask)"); }
Test(grad, attention_one_head) { agrees("attention (one head)"); }
Test(grad, attention_two_heads_with_wo) { agrees("attention (two heads, W_o)"); }
Test(grad, layer_normalisation) { agrees("layer normalisation"); }
Test(grad, recurrent_cell_tanh_through_time) { agrees("recurrent cell (tanh)"); }
Test(grad, recurrent_cell_linear_through_time) { agrees("recurrent cell (linear)"); }
Test(grad, cross_entropy) { agrees("cross-entropy"); }
Test(grad, mlp_relu) { agrees("MLP (ReLU)"); }
Test(grad, block_post_norm) { agrees("block (post-norm)"); }
Test(grad, block_pre_norm) { agrees("block (pre-norm)"); }
Test(grad, block_without_skips) { agrees("block (pre-norm, no skips)"); }
Test(grad, block_without_norms) { agrees("block (post-norm, no norms)"); }

Test(grad, every_near_miss_is_caught)
{
    size_t n;
    const gradcheck_case *c = gradcheck_cases(&n);
    for (size_t k = 0; k < n; k++)
        for (unsigned long seed = 1; seed <= 3; seed++) {
            gsl_rng *r = rng_new(seed);
            double e = c[k].run(r, 1);
            gsl_rng_free(r);
            cr_assert_gt(e, 1e-2, "%s, near miss (%s): should be far off, not %g (seed %lu)",
                         c[k].name, c[k].near_miss, e, seed);
        }
}

Test(grad, every_case_is_listed_once)
{
    size_t n;
    const gradcheck_case *c = gradcheck_cases(&n);
    cr_assert_eq(n, 15);
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(gradcheck_find(c[k].name), &c[k]);
    cr_assert_null(gradcheck_find("no such pass"));
}

/* the loss x0^2 + 3 x0 x1 has gradient (2 x0 + 3 x1, 3 x0) */
static double quadratic(void *ctx)
{
    const gsl_matrix *P = ctx;
    double a = gsl_matrix_get(P, 0, 0), b = gsl_matrix_get(P, 0, 1);
    return a * a + 3.0 * a * b;
}

Test(fdcheck, accepts_a_right_gradient_and_rejects_a_wrong_one)
{
    gsl_matrix *P = gsl_matrix_alloc(1, 2), *G = gsl_matrix_alloc(1, 2);
    gsl_matrix_set(P, 0, 0, 0.7);
    gsl_matrix_set(P, 0, 1, -1.3);
    gsl_matrix_set(G, 0, 0, 2.0 * 0.7 + 3.0 * -1.3);
    gsl_matrix_set(G, 0, 1, 3.0 * 0.7);
    cr_assert_lt(fdcheck_matrix(quadratic, P, P, G, 1e-5), 1e-9);
    cr_assert_eq(gsl_matrix_get(P, 0, 0), 0.7, "the parameter must be restored exactly");
    gsl_matrix_set(G, 0, 1, 3.0 * 0.7 * 1.001); /* off by 0.1% */
    cr_assert_gt(fdcheck_matrix(quadratic, P, P, G, 1e-5), 1e-4);
    gsl_matrix *wrong = gsl_matrix_alloc(2, 1);
    cr_assert(isinf(fdcheck_matrix(quadratic, P, P, wrong, 1e-5)));
    gsl_matrix_free(wrong);
    gsl_matrix_free(P);
    gsl_matrix_free(G);
}

Test(grad, masked_scores_get_no_gradient)
{
    gsl_rng *r = rng_new(4);
    gsl_matrix *W = gsl_matrix_alloc(4, 4), *dW = gsl_matrix_alloc(4, 4), *dS = gsl_matrix_calloc(4, 4);
    rng_fill_gaussian(W, r, 1.0);
    rng_fill_gaussian(dW, r, 1.0);
    mask_causal(W);
    softmax_rows(W, 1.0);
    cr_assert_eq(softmax_rows_backward(W, dW, dS), INVENT_OK);
    for (size_t i = 0; i < 4; i++) {
        double row = 0.0;
        for (size_t j = 0; j < 4; j++)
            row += gsl_matrix_get(dS, i, j);
        cr_assert_float_eq(row, 0.0, 1e-14, "shifting a row of scores changes nothing");
        for (size_t j = i + 1; j < 4; j++)
            cr_assert_eq(gsl_matrix_get(dS, i, j), 0.0);
    }
    gsl_matrix_free(W);
    gsl_matrix_free(dW);
    gsl_matrix_free(dS);
    gsl_rng_free(r);
}

Test(grad, cross_entropy_of_uniform_logits)
{
    gsl_matrix *Z = gsl_matrix_calloc(2, 4), *dZ = gsl_matrix_calloc(2, 4);
    size_t y[2] = {1, 3}, right = 7;
    double loss;
    cr_assert_eq(xent_forward(Z, y, &loss, &right), INVENT_OK);
    cr_assert_float_eq(loss, log(4.0), 1e-15);
    cr_assert_eq(right, 0, "a tie is not a right answer");
    cr_assert_eq(xent_backward(Z, y, dZ), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(dZ, 0, 1), (0.25 - 1.0) / 2.0, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(dZ, 0, 0), 0.25 / 2.0, 1e-15);
    size_t bad[2] = {1, 4};
    cr_assert_eq(xent_forward(Z, bad, &loss, NULL), INVENT_ERANGE);
    cr_assert_eq(xent_backward(Z, bad, dZ), INVENT_ERANGE);
    gsl_matrix_free(Z);
    gsl_matrix_free(dZ);
}

Test(grad, shapes_are_checked)
{
    gsl_matrix *X = gsl_matrix_alloc(2, 3), *W = gsl_matrix_alloc(4, 3), *dY = gsl_matrix_alloc(2, 5);
    cr_assert_eq(linear_backward(X, W, dY, NULL, NULL, NULL), INVENT_ESHAPE);
    cr_assert_eq(activation_tanh_backward(X, dY, X), INVENT_ESHAPE);
    cr_assert_eq(softmax_rows_backward(X, W, X), INVENT_ESHAPE);
    cr_assert_eq(softmax_rows_backward(X, X, X), INVENT_ESHAPE, "dS may not be dW");
    gsl_matrix_free(X);
    gsl_matrix_free(W);
    gsl_matrix_free(dY);
}

/* the convention: a second backward pass over the same dY adds as much again,
 * to the parameters' gradients and to the input's */
Test(grad, block_backward_accumulates)
{
    gsl_rng *r = rng_new(7);
    block_weights *w = block_new(6, 2, 8, r), *g = block_new(6, 2, 8, r);
    gsl_matrix *X = mat_gaussian(4, 6, 1.0, r), *Y = gsl_matrix_alloc(4, 6);
    gsl_matrix *dY = mat_gaussian(4, 6, 1.0, r), *dX = gsl_matrix_calloc(4, 6);
    block_trace *tr = block_trace_new(4, w);
    block_work *work = block_work_new(4, w);
    block_set_zero(g);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    cr_assert_eq(block_backward(w, X, tr, dY, g, dX, work), INVENT_OK);
    gsl_matrix *dX1 = mat_clone(dX), *dWq1 = mat_clone(g->attn->Wq);
    double dg1 = gsl_vector_get(g->gamma1, 2);
    cr_assert_eq(block_backward(w, X, tr, dY, g, dX, work), INVENT_OK);
    gsl_matrix_scale(dX1, 2.0);
    gsl_matrix_scale(dWq1, 2.0);
    cr_assert_lt(mat_max_abs_diff(dX, dX1), 1e-12);
    cr_assert_lt(mat_max_abs_diff(g->attn->Wq, dWq1), 1e-12);
    cr_assert_float_eq(gsl_vector_get(g->gamma1, 2), 2.0 * dg1, 1e-12);
    gsl_matrix_free(X), gsl_matrix_free(Y), gsl_matrix_free(dY), gsl_matrix_free(dX);
    gsl_matrix_free(dX1), gsl_matrix_free(dWq1);
    block_trace_free(tr), block_work_free(work), block_free(w), block_free(g);
    gsl_rng_free(r);
}

Test(grad, block_backward_checks_shapes)
{
    gsl_rng *r = rng_new(8);
    block_weights *w = block_new(6, 2, 8, r), *g = block_new(6, 2, 8, r);
    gsl_matrix *X = mat_gaussian(4, 6, 1.0, r), *Y = gsl_matrix_alloc(4, 6);
    gsl_matrix *dY = gsl_matrix_calloc(4, 6), *dX5 = gsl_matrix_calloc(5, 6);
    block_trace *tr = block_trace_new(4, w);
    block_work *small = block_work_new(3, w);
    cr_assert_eq(block_forward(w, X, tr, Y), INVENT_OK);
    cr_assert_eq(block_backward(w, X, tr, dY, g, NULL, small), INVENT_ESHAPE);
    block_work *work = block_work_new(4, w);
    cr_assert_eq(block_backward(w, X, tr, dY, g, dX5, work), INVENT_ESHAPE);
    cr_assert_eq(block_backward(w, X, tr, dY, g, NULL, work), INVENT_OK);
    gsl_matrix_free(X), gsl_matrix_free(Y), gsl_matrix_free(dY), gsl_matrix_free(dX5);
    block_trace_free(tr), block_work_free(small), block_work_free(work);
    block_free(w), block_free(g);
    gsl_rng_free(r);
}
