/* Unit tests: the float32 training path (gpt32.h) against the float64 path
 * (gpt.h) on the same weights, pre- and post-norm, batches of several
 * sequences and more tokens than one attention tile; and a broken float64
 * reference (one block without its mask) that the comparison must catch.
 *
 * Tolerances: float32 rounds each operation to a relative 6e-8; a logit is a
 * chain of about 2L + 3 products of length up to 4d and norms, so its error
 * could grow to some 1e-6 of the logits' scale, and the gradients, one more
 * pass of the same length, to some 1e-5 of their norm. Measured: 1.1e-7 and
 * 1.2e-6. The bounds (1e-6 for the logits, 1e-5 for every tensor's
 * gradient, relative) leave a factor of about ten over that, and the broken
 * variant's differences (0.15 and 0.64) are far above them. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "gpt.h"
#include "gpt32.h"
#include "rel_norm32.h"
#include "rng.h"
#include "status.h"

typedef struct {
    double logits, grad; /* relative max difference of the logits, worst tensor gradient */
} gaps;

/* shape s at seed, B x T random tokens; broken: the float64 model's last block
 * attends without its mask -> the differences of the two paths */
static gaps compare(gpt_shape s, unsigned long seed, size_t B, size_t T, int broken)
{
    gsl_rng *r = rng_new(seed);
    gpt_weights *w = gpt_new(&s, r), *g = gpt_zeros(&s);
    gpt_trace *tr = gpt_trace_new(w, B, T);
    gpt_work *work = gpt_work_new(w, B, T);
    cr_assert_not_null(work);
    gpt32 *m = gpt32_new(&s, B, T);
    cr_assert(w && g && tr && m);
    size_t count = gpt_tensor_count(&s);
    tensor_ref t[count];
    gpt_tensors(w, g, t);
    /* every number moved off GPT-2's draw (gains off 1, biases off 0, W_q and W_k out of
     * their 0.02 that leaves attention uniform), rounded to float32 */
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < t[k].size; i++)
            t[k].value[i] = (float)(t[k].value[i] + 0.3 * gsl_ran_gaussian(r, 1.0));
    w->blocks[s.layers - 1]->see_future = broken;
    size_t x[B * T], y[B * T];
    for (size_t i = 0; i < B * T; i++) {
        x[i] = gsl_rng_uniform_int(r, s.vocab);
        y[i] = gsl_rng_uniform_int(r, s.vocab);
    }
    double loss64, loss32;
    cr_assert_eq(gpt32_from64(m, w), INVENT_OK);
    cr_assert_eq(gpt_forward(w, x, y, tr, &loss64), INVENT_OK);
    cr_assert_eq(gpt_backward(w, x, y, tr, g, work), INVENT_OK);
    cr_assert_eq(gpt32_forward(m, x, y, &loss32), INVENT_OK);
    cr_assert_eq(gpt32_backward(m, x, y), INVENT_OK);
    const gsl_matrix *Z = gpt_logits(tr);
    gaps out = {0};
    double top = 0.0;
    for (size_t i = 0; i < Z->size1 * Z->size2; i++) {
        out.logits = fmax(out.logits, fabs(gpt32_logits(m)[i] - Z->data[i]));
        top = fmax(top, fabs(Z->data[i]));
    }
    out.logits /= top;
    for (size_t k = 0; k < count; k++)
        out.grad = fmax(out.grad, rel_norm(m->t[k].grad32, t[k].grad, t[k].size));
    cr_log_info("seed %lu B %zu T %zu: loss %.9f / %.9f, logits %.2e, gradients %.2e", seed, B,
                T, loss64, loss32, out.logits, out.grad);
    gpt32_free(m);
    gpt_work_free(work);
    gpt_trace_free(tr);
    gpt_free(w);
    gpt_free(g);
    gsl_rng_free(r);
    return out;
}

static const gpt_shape small = {.vocab = 11, .context = 80, .dim = 16, .heads = 2, .layers = 2,
                                .hidden = 64, .norm = BLOCK_PRE_NORM};

Test(gpt32, pre_norm_follows_the_float64_path)
{
    gaps e = compare(small, 1, 3, 70, 0); /* 70 tokens: two key tiles of the attention */
    cr_assert(e.logits < 1e-6 && e.grad < 1e-5, "logits %g, gradients %g", e.logits, e.grad);
}

Test(gpt32, long_windows_follow_the_float64_path)
{
    gpt_shape s = small;
    s.context = 256; /* chapter 14's long windows (A11): eight key tiles and a partial one */
    gaps e = compare(s, 4, 2, 256, 0), f = compare(s, 5, 1, 250, 0);
    /* a row sums over up to 256 keys instead of 70: the logits' bound doubled (measured
     * 7.4e-7 and 4.4e-7; a block without its mask: 0.2) */
    cr_assert(e.logits < 2e-6 && e.grad < 1e-5, "T 256: logits %g, gradients %g", e.logits,
              e.grad);
    cr_assert(f.logits < 2e-6 && f.grad < 1e-5, "T 250: logits %g, gradients %g", f.logits,
              f.grad);
}

Test(gpt32, post_norm_follows_the_float64_path)
{
    gpt_shape s = small;
    s.norm = BLOCK_POST_NORM;
    gaps e = compare(s, 2, 2, 9, 0);
    cr_assert(e.logits < 1e-6 && e.grad < 1e-5, "logits %g, gradients %g", e.logits, e.grad);
}

Test(gpt32, one_block_without_its_mask_is_caught)
{
    gaps e = compare(small, 1, 3, 70, 1);
    cr_assert(e.logits > 1e-3 && e.grad > 1e-3, "logits %g, gradients %g", e.logits, e.grad);
}

/* one forward and backward pass of a fresh model at seed 3 with `workers` threads ->
 * the loss; grads: (m->n) the gradient */
static double pass_with(size_t workers, float *grads)
{
    gsl_rng *r = rng_new(3);
    gpt_weights *w = gpt_new(&small, r);
    gpt32 *m = gpt32_new(&small, 4, 40);
    cr_assert(w && m);
    m->workers = (int)workers;
    size_t x[160], y[160];
    for (size_t i = 0; i < 160; i++)
        x[i] = gsl_rng_uniform_int(r, small.vocab), y[i] = gsl_rng_uniform_int(r, small.vocab);
    double loss;
    cr_assert_eq(gpt32_from64(m, w), INVENT_OK);
    cr_assert_eq(gpt32_forward(m, x, y, &loss), INVENT_OK);
    cr_assert_eq(gpt32_backward(m, x, y), INVENT_OK);
    memcpy(grads, m->grads, m->n * sizeof(float));
    gpt32_free(m);
    gpt_free(w);
    gsl_rng_free(r);
    return loss;
}

Test(gpt32, the_same_numbers_whatever_the_thread_count)
{
    size_t n = gpt_param_count(&small);
    float *one = calloc(n, sizeof(float)), *two = calloc(n, sizeof(float));
    cr_assert(one && two);
    cr_assert_eq(pass_with(1, one), pass_with(2, two));
    cr_assert_eq(memcmp(one, two, n * sizeof(float)), 0, "1 and 2 threads differ");
    free(one);
    free(two);
}

Test(gpt32, attention_without_the_mask_follows_the_float64_path)
{
    gsl_rng *r = rng_new(5);
    gpt_weights *w = gpt_new(&small, r), *g = gpt_zeros(&small);
    gpt_trace *tr = gpt_trace_new(w, 2, 9);
    gpt_work *work = gpt_work_new(w, 2, 9);
    cr_assert_not_null(work);
    gpt32 *m = gpt32_new(&small, 2, 9);
    cr_assert(w && g && tr && m);
    m->see_future = 1;
    for (size_t l = 0; l < small.layers; l++)
        w->blocks[l]->see_future = 1;
    cr_assert_eq(gpt32_from64(m, w), INVENT_OK);
    cr_assert_eq(gpt32_to64(m, w), INVENT_OK); /* both paths on the float32 numbers */
    size_t x[18], y[18];
    for (size_t i = 0; i < 18; i++)
        x[i] = gsl_rng_uniform_int(r, small.vocab), y[i] = gsl_rng_uniform_int(r, small.vocab);
    double l64, l32;
    cr_assert_eq(gpt_forward(w, x, y, tr, &l64), INVENT_OK);
    cr_assert_eq(gpt_backward(w, x, y, tr, g, work), INVENT_OK);
    cr_assert_eq(gpt32_forward(m, x, y, &l32), INVENT_OK);
    cr_assert_eq(gpt32_backward(m, x, y), INVENT_OK);
    tensor_ref t[gpt_tensor_count(&small)];
    gpt_tensors(w, g, t);
    double worst = 0.0;
    for (size_t k = 0; k < gpt_tensor_count(&small); k++)
        worst = fmax(worst, rel_norm(m->t[k].grad32, t[k].grad, t[k].size));
    cr_assert(fabs(l32 - l64) < 1e-6 * l64 && worst < 1e-5, "loss %g / %g, gradients %g", l32,
              l64, worst);
    gpt32_free(m);
    gpt_work_free(work);
    gpt_trace_free(tr);
    gpt_free(w);
    gpt_free(g);
    gsl_rng_free(r);
}

/* The float32 model takes its norms' epsilon from the float64 weights it is loaded
 * from (a --load of a checkpoint with another eps), and refuses weights whose norms
 * differ (the near miss: only the final norm's changed), leaving its own as it was */
Test(gpt32, from64_carries_the_epsilon_and_refuses_mixed_ones)
{
    gsl_rng *r = rng_new(8);
    gpt_weights *w = gpt_new(&small, r);
    gpt32 *m = gpt32_new(&small, 1, 4);
    cr_assert(w && m);
    gpt_set_eps(w, 3e-4);
    cr_assert_eq(gpt32_from64(m, w), INVENT_OK);
    cr_assert_eq(m->eps, (float)3e-4);
    w->eps = 1e-3;
    cr_assert_eq(gpt32_from64(m, w), INVENT_ERANGE);
    cr_assert_eq(m->eps, (float)3e-4);
    gpt32_free(m);
    gpt_free(w);
    gsl_rng_free(r);
}
