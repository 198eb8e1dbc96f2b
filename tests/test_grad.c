/* Unit tests: every hand-written backward pass against central finite
 * differences (lib/gradcheck.c), and the checker itself. */
#include <criterion/criterion.h>
#include <math.h>

#include "fdcheck.h"
#include "grad_activation.h"
#include "grad_linear.h"
#include "grad_softmax.h"
#include "grad_xent.h"
#include "gradcheck.h"
#include "mask.h"
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
        double e = c->run(r);
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

Test(grad, every_case_is_listed_once)
{
    size_t n;
    const gradcheck_case *c = gradcheck_cases(&n);
    cr_assert_eq(n, 10);
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
    gsl_matrix *W = gsl_matrix_alloc(4, 4), *dW = gsl_matrix_alloc(4, 4), *dS = gsl_matrix_alloc(4, 4);
    rng_fill_gaussian(W, r, 1.0);
    rng_fill_gaussian(dW, r, 1.0);
    mask_causal(W);
    softmax_rows(W, 1.0);
    cr_assert_eq(grad_softmax_rows(W, dW, dS), INVENT_OK);
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
    gsl_matrix *Z = gsl_matrix_calloc(2, 4), *dZ = gsl_matrix_alloc(2, 4);
    size_t y[2] = {1, 3}, right = 7;
    double loss;
    cr_assert_eq(xent_loss(Z, y, &loss, &right), INVENT_OK);
    cr_assert_float_eq(loss, log(4.0), 1e-15);
    cr_assert_eq(right, 0, "a tie is not a right answer");
    cr_assert_eq(grad_xent(Z, y, dZ), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(dZ, 0, 1), (0.25 - 1.0) / 2.0, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(dZ, 0, 0), 0.25 / 2.0, 1e-15);
    size_t bad[2] = {1, 4};
    cr_assert_eq(xent_loss(Z, bad, &loss, NULL), INVENT_ERANGE);
    cr_assert_eq(grad_xent(Z, bad, dZ), INVENT_ERANGE);
    gsl_matrix_free(Z);
    gsl_matrix_free(dZ);
}

Test(grad, shapes_are_checked)
{
    gsl_matrix *X = gsl_matrix_alloc(2, 3), *W = gsl_matrix_alloc(4, 3), *dY = gsl_matrix_alloc(2, 5);
    cr_assert_eq(grad_linear(X, W, dY, NULL, NULL, NULL), INVENT_ESHAPE);
    cr_assert_eq(grad_tanh(X, dY, X), INVENT_ESHAPE);
    cr_assert_eq(grad_softmax_rows(X, W, X), INVENT_ESHAPE);
    gsl_matrix_free(X);
    gsl_matrix_free(W);
    gsl_matrix_free(dY);
}
