/* Unit tests: AdamW, gradient clipping and the learning-rate schedule,
 * against their formulas written out for one number, and against chapter 12's Adam. */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

#include "adam.h"
#include "adamw.h"
#include "rng.h"
#include "schedule.h"
#include "status.h"

Test(adamw, two_steps_follow_the_formula_and_decay_only_weights)
{
    double w[2] = {1.0, -2.0}, gw[2] = {0.5, 0.1}, b[1] = {3.0}, gb[1] = {-1.0};
    tensor_ref t[2] = {{.name = "W", .value = w, .grad = gw, .ndim = 1, .shape = {2}, .size = 2,
                        .decay = 1},
                       {.name = "b", .value = b, .grad = gb, .ndim = 1, .shape = {1}, .size = 1}};
    adamw opt;
    cr_assert_eq(adamw_init(&opt, t, 2, 0.1), INVENT_OK);
    double rate = 0.01, m = 0.0, v = 0.0, p = 1.0, q = 3.0, mq = 0.0, vq = 0.0;
    for (int s = 1; s <= 2; s++) {
        cr_assert_eq(adamw_step(&opt, t, 2, rate), INVENT_OK);
        m = 0.9 * m + 0.1 * 0.5, v = 0.95 * v + 0.05 * 0.25;
        p = p * (1 - rate * 0.1) -
            rate / (1 - pow(0.9, s)) * m / (sqrt(v) / sqrt(1 - pow(0.95, s)) + 1e-8);
        mq = 0.9 * mq - 0.1, vq = 0.95 * vq + 0.05;
        q = q - rate / (1 - pow(0.9, s)) * mq / (sqrt(vq) / sqrt(1 - pow(0.95, s)) + 1e-8);
    }
    cr_assert_float_eq(w[0], p, 1e-15);
    cr_assert_float_eq(b[0], q, 1e-15); /* a bias: no decay */
    adamw_free(&opt);
}

/* The float32 step is the float64 step rounded: after two steps each weight agrees to a
 * few float32 units (relative 1e-6), and a float32 tensor list gets float32 moments. */
Test(adamw, float32_tensors_step_as_float64_ones_within_float32_rounding)
{
    double w[2] = {1.0, -2.0}, gw[2] = {0.5, 0.1};
    float w32[2] = {1.0f, -2.0f}, g32[2] = {0.5f, 0.1f};
    tensor_ref t = {.value = w, .grad = gw, .ndim = 1, .shape = {2}, .size = 2, .decay = 1};
    tensor_ref t32 = {.value32 = w32, .grad32 = g32, .ndim = 1, .shape = {2}, .size = 2,
                      .decay = 1};
    adamw opt, opt32;
    cr_assert_eq(adamw_init(&opt, &t, 1, 0.1), INVENT_OK);
    cr_assert_eq(adamw_init(&opt32, &t32, 1, 0.1), INVENT_OK);
    cr_assert(opt32.m32 && !opt32.m, "float32 tensors get float32 moments");
    for (int s = 0; s < 2; s++) {
        cr_assert_eq(adamw_step(&opt, &t, 1, 0.01), INVENT_OK);
        cr_assert_eq(adamw_step(&opt32, &t32, 1, 0.01), INVENT_OK);
    }
    for (int i = 0; i < 2; i++)
        cr_assert(fabs(w32[i] - w[i]) <= 1e-6 * fabs(w[i]), "%g against %g", w32[i], w[i]);
    cr_assert(w32[0] != 1.0f, "the float32 weights moved");
    adamw_free(&opt);
    adamw_free(&opt32);
}

Test(adamw, clipping_scales_to_the_maximum_norm_only_above_it)
{
    double g[2] = {3.0, 4.0}, v[2] = {0};
    tensor_ref t = {.value = v, .grad = g, .ndim = 1, .shape = {2}, .size = 2};
    double before = grad_clip(&t, 1, 10.0); /* the macros below evaluate twice */
    cr_assert_float_eq(before, 5.0, 1e-15);
    cr_assert_float_eq(g[0], 3.0, 0);
    before = grad_clip(&t, 1, 1.0);
    double after = grad_norm(&t, 1);
    cr_assert_float_eq(before, 5.0, 1e-15);
    cr_assert_float_eq(after, 5.0 / (5.0 + 1e-6), 1e-15);
}

Test(schedule, warm_up_then_half_cosine_then_floor)
{
    lr_schedule s = {.peak = 1e-3, .floor = 1e-4, .warmup = 9, .decay = 109};
    cr_assert_float_eq(lr_at(&s, 0), 1e-4, 1e-18);
    cr_assert_float_eq(lr_at(&s, 8), 9e-4, 1e-18);
    cr_assert_float_eq(lr_at(&s, 9), 1e-3, 1e-18);
    cr_assert_float_eq(lr_at(&s, 59), 5.5e-4, 1e-15);
    cr_assert_float_eq(lr_at(&s, 109), 1e-4, 1e-18);
    cr_assert_float_eq(lr_at(&s, 500), 1e-4, 1e-18);
}

/* Chapter 12's Adam (lib/toys/adam.c, the paper's form, exercise 12b's reference) and
 * this AdamW without decay and with Adam's beta2 are one method: 50 steps on the same
 * gradients agree to rounding, so neither copy can drift from the other */
Test(adamw, without_decay_it_is_chapter_12s_adam)
{
    gsl_rng *r = rng_new(6);
    param_set ps = {0};
    gsl_matrix *p = params_add(&ps, 4, 5, 1.0, r);
    double q[20], g[20];
    memcpy(q, p->data, sizeof q);
    tensor_ref t = {.name = "q", .ndim = 2, .shape = {4, 5}, .size = 20, .value = q, .grad = g};
    adam opt;
    adamw optw;
    cr_assert_eq(adam_init(&opt, &ps, 0.01), INVENT_OK);
    cr_assert_eq(adamw_init(&optw, &t, 1, 0.0), INVENT_OK);
    optw.beta2 = opt.beta2;
    double worst = 0.0;
    for (int step = 0; step < 50; step++) {
        for (size_t i = 0; i < 20; i++)
            g[i] = ps.grad[0]->data[i] = gsl_ran_gaussian(r, 1.0) + 0.5;
        cr_assert_eq(adam_step(&opt, &ps), INVENT_OK);
        cr_assert_eq(adamw_step(&optw, &t, 1, 0.01), INVENT_OK);
        for (size_t i = 0; i < 20; i++)
            worst = fmax(worst, fabs(q[i] - p->data[i]));
    }
    cr_assert(worst < 1e-14, "Adam and AdamW without decay differ by %g", worst);
    adam_free(&opt);
    adamw_free(&optw);
    params_free(&ps);
    gsl_rng_free(r);
}
