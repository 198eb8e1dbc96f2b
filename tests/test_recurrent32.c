/* Unit tests: the float32 recurrent models (recurrent32.h).
 * - Elman's cell with b = 0 and e = m is chapter 1's float64 model (rnn_lm.h, its own
 *   gradient checked against finite differences in float64): the same loss and
 *   gradients on the same (float32) weights; control: the float64 model with W
 *   transposed (the product W h_{t-1} taken the wrong way round) must be caught.
 *   Tolerances as test_gpt32.c argues them: float32 rounds to 6e-8 a step, a chain
 *   of T products of length m grows it to some 1e-6, the gradient one more pass to
 *   some 1e-5. Measured: 4e-9 and 1.8e-7; bounds 1e-6 (loss, relative) and 1e-5
 *   (each tensor's gradient, relative norm); the transposed W: 0.19 and 1.5.
 * - Both cells' gradients against central differences of the float32 loss along
 *   one direction per tensor (the gradient's own plus a random one, so that an
 *   error in any component shows at first order). The loss is float32 arithmetic
 *   summed in double; its rounding noise (about 1e-6 of a loss near 2) over a
 *   step of 2e-2 gives 5e-5 in the slope, and the step's curvature about as much.
 *   Measured: at most 5e-5 of the slope; bound 1e-3; the control: 2e-2 to 0.44.
 *   Control: the gradient of the same weights on windows
 *   whose first input differs (one token in 7, whose effect on the later positions
 *   reaches them only through time) must fail the bound.
 * - Without recurrence the output at t ignores every earlier input, exactly;
 *   controls: the recurrent model, and the GRU with W = 0 but its carry z h_{t-1}
 *   kept, must both remember.
 * - W is out of the trained list without recurrence and stays 0 when trained; one seed
 *   draws the model and its control alike but for W.
 * - The same numbers with 1 and 2 threads. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "adamw.h"
#include "recurrent32.h"
#include "rng.h"
#include "rnn_lm.h"
#include "status.h"
#include "train_step.h"

/* a, b: (n) -> ||a - b|| / ||b|| */
static double rel_norm(const float *a, const double *b, size_t n)
{
    double diff = 0.0, top = 0.0;
    for (size_t i = 0; i < n; i++) {
        diff += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
        top += b[i] * b[i];
    }
    return top > 0.0 ? sqrt(diff / top) : sqrt(diff);
}

static void draw_tokens(gsl_rng *r, size_t V, size_t n, size_t *x, size_t *y)
{
    for (size_t i = 0; i < n; i++)
        x[i] = gsl_rng_uniform_int(r, V), y[i] = gsl_rng_uniform_int(r, V);
}

/* m's tensor called name, or NULL */
static tensor_ref *find(recurrent32 *m, const char *name)
{
    for (size_t k = 0; k < m->count; k++)
        if (strcmp(m->t[k].name, name) == 0)
            return &m->t[k];
    return NULL;
}

typedef struct {
    double loss, grad; /* relative differences of the loss and the worst tensor's gradient */
} gaps;

/* the float64 model (W transposed when broken) against Elman's float32 cell on its weights */
static gaps against_rnn_lm(int broken)
{
    enum { V = 7, M = 6, B = 3, T = 9 };
    gsl_rng *r = rng_new(11);
    rnn_lm *w = rnn_lm_new(V, M, r), *g = rnn_lm_zeros(V, M);
    rnn_lm_trace *tr = rnn_lm_trace_new(w, B, T);
    recurrent_shape s = {RECURRENT_ELMAN, V, M, M};
    recurrent32 *m = recurrent32_new(&s, B, T, 0);
    cr_assert(w && g && tr && m);
    gsl_matrix_scale(w->Wout, 50.0); /* a read-out that sends gradients back */
    tensor_ref tw[RNN_LM_TENSORS], tg[RNN_LM_TENSORS];
    rnn_lm_tensors(w, g, tw);
    for (size_t k = 0; k < RNN_LM_TENSORS; k++) {
        tensor_ref *mine = find(m, tw[k].name);
        cr_assert(mine && mine->size == tw[k].size, "%s", tw[k].name);
        for (size_t i = 0; i < tw[k].size; i++) /* both on the float32 numbers */
            mine->value32[i] = (float)(tw[k].value[i] = (float)tw[k].value[i]);
    }
    if (broken)
        gsl_matrix_transpose(w->cell->W);
    size_t x[B * T], y[B * T];
    draw_tokens(r, V, B * T, x, y);
    double l64, l32;
    cr_assert_eq(rnn_lm_forward(w, x, y, tr, &l64), INVENT_OK);
    cr_assert_eq(rnn_lm_backward(w, x, y, tr, g), INVENT_OK);
    cr_assert_eq(recurrent32_forward(m, x, y, &l32), INVENT_OK);
    cr_assert_eq(recurrent32_backward(m, x, y), INVENT_OK);
    gaps out = {fabs(l32 - l64) / l64, 0.0};
    rnn_lm_tensors(g, NULL, tg);
    for (size_t k = 0; k < RNN_LM_TENSORS; k++)
        out.grad = fmax(out.grad, rel_norm(find(m, tw[k].name)->grad32, tg[k].value, tg[k].size));
    cr_assert(fabs(find(m, "rnn.bx")->grad32[0]) > 0.0); /* the bias is trained all the same */
    cr_log_info("broken %d: loss %.9f / %.9f, gradients %.2e", broken, l32, l64, out.grad);
    recurrent32_free(m);
    rnn_lm_trace_free(tr);
    rnn_lm_free(w);
    rnn_lm_free(g);
    gsl_rng_free(r);
    return out;
}

Test(recurrent32, elman_is_chapter_1s_float64_model)
{
    gaps e = against_rnn_lm(0);
    cr_assert(e.loss < 1e-6 && e.grad < 1e-5, "loss %g, gradients %g", e.loss, e.grad);
}

Test(recurrent32, a_transposed_recurrence_is_caught)
{
    gaps e = against_rnn_lm(1);
    cr_assert(e.loss > 1e-3 && e.grad > 1e-2, "loss %g, gradients %g", e.loss, e.grad);
}

enum { FV = 5, FE = 4, FM = 6, FB = 2, FT = 7 };

/* a small model of cell c, drawn, with a read-out large enough to send gradients back
 * and biases away from 0 */
static recurrent32 *small_model(recurrent_cell c, int no_recurrence, gsl_rng *r)
{
    recurrent_shape s = {c, FV, FE, FM};
    recurrent32 *m = recurrent32_new(&s, FB, FT, no_recurrence);
    cr_assert(m);
    cr_assert_eq(recurrent32_draw(m, r), INVENT_OK);
    for (size_t i = 0; i < FV * FM; i++)
        m->w.Wout[i] *= 100.0f;
    for (size_t k = 0; k < m->count; k++)
        for (size_t i = 0; m->t[k].ndim == 1 && i < m->t[k].size; i++)
            m->t[k].value32[i] += (float)gsl_ran_gaussian(r, 0.3);
    return m;
}

/* the loss of m on x, y at the current weights */
static double loss_at(recurrent32 *m, const size_t *x, const size_t *y)
{
    double loss;
    cr_assert_eq(recurrent32_forward(m, x, y, &loss), INVENT_OK);
    return loss;
}

/* tensor t, gradient grad: (t->size), x, y -> the worst of (central difference along
 * u - grad . u) / |grad . u| over u = grad/|grad| + a random unit vector */
static double slope_error(recurrent32 *m, tensor_ref *t, const float *grad, const size_t *x,
                          const size_t *y, gsl_rng *r)
{
    const double eps = 1e-2;
    size_t n = t->size;
    double *u = malloc(n * sizeof *u), gnorm = 0.0, rnorm = 0.0;
    float *keep = malloc(n * sizeof *keep);
    cr_assert(u && keep);
    memcpy(keep, t->value32, n * sizeof *keep);
    for (size_t i = 0; i < n; i++)
        u[i] = gsl_ran_gaussian(r, 1.0), gnorm += (double)grad[i] * grad[i], rnorm += u[i] * u[i];
    double loss[2], predicted = 0.0; /* grad . (the steps actually taken, after rounding) */
    for (int side = 0; side < 2; side++) {
        double sign = side ? -1.0 : 1.0;
        for (size_t i = 0; i < n; i++)
            t->value32[i] =
                (float)(keep[i] + sign * eps * (grad[i] / sqrt(gnorm) + u[i] / sqrt(rnorm)));
        loss[side] = loss_at(m, x, y);
        for (size_t i = 0; i < n; i++)
            predicted += sign * grad[i] * ((double)t->value32[i] - keep[i]);
    }
    memcpy(t->value32, keep, n * sizeof *keep);
    free(u);
    free(keep);
    return fabs((loss[0] - loss[1]) - predicted) / fabs(predicted);
}

/* cell c; shifted: the gradient taken on windows whose first input differs -> the worst
 * tensor's slope error */
static double gradient_check(recurrent_cell c, int no_recurrence, int shifted)
{
    gsl_rng *r = rng_new(21 + (unsigned long)c);
    recurrent32 *m = small_model(c, no_recurrence, r);
    size_t x[FB * FT], y[FB * FT], x2[FB * FT];
    draw_tokens(r, FV, FB * FT, x, y);
    memcpy(x2, x, sizeof x);
    for (size_t b = 0; shifted && b < FB; b++)
        x2[b * FT] = (x[b * FT] + 1) % FV;
    double loss;
    cr_assert_eq(recurrent32_forward(m, x2, y, &loss), INVENT_OK);
    cr_assert_eq(recurrent32_backward(m, x2, y), INVENT_OK);
    float *grads = malloc(m->n * sizeof *grads);
    cr_assert(grads);
    memcpy(grads, m->grads, m->n * sizeof *grads);
    double worst = 0.0;
    for (size_t k = 0; k < m->count; k++) {
        const float *g = grads + (m->t[k].grad32 - m->grads);
        double e = slope_error(m, &m->t[k], g, x, y, r);
        cr_log_info("cell %d shifted %d %s: %.2e", c, shifted, m->t[k].name, e);
        worst = fmax(worst, e);
    }
    free(grads);
    recurrent32_free(m);
    gsl_rng_free(r);
    return worst;
}

Test(recurrent32, elman_gradient_agrees_with_finite_differences)
{
    double e = gradient_check(RECURRENT_ELMAN, 0, 0);
    cr_assert(e < 1e-3, "worst slope error %g", e);
}

Test(recurrent32, gru_gradient_agrees_with_finite_differences)
{
    double e = gradient_check(RECURRENT_GRU, 0, 0);
    cr_assert(e < 1e-3, "worst slope error %g", e);
}

Test(recurrent32, gru_without_recurrence_gradient_agrees_with_finite_differences)
{
    double e = gradient_check(RECURRENT_GRU, 1, 0);
    cr_assert(e < 1e-3, "worst slope error %g", e);
}

Test(recurrent32, a_gradient_off_through_time_is_caught)
{
    double elman = gradient_check(RECURRENT_ELMAN, 0, 1), gru = gradient_check(RECURRENT_GRU, 0, 1);
    cr_assert(elman > 1e-3 && gru > 1e-3, "Elman %g, GRU %g", elman, gru);
}

/* cell c, no_recurrence, zero_W: W set to 0 by hand -> the largest change of the
 * logits at position t when every input before t changes */
static double memory_of(recurrent_cell c, int no_recurrence, int zero_W)
{
    enum { t = 5 };
    gsl_rng *r = rng_new(31);
    recurrent32 *m = small_model(c, no_recurrence, r);
    if (zero_W)
        memset(m->w.W, 0, (c == RECURRENT_GRU ? 3 : 1) * FM * FM * sizeof(float));
    size_t x[FB * FT], y[FB * FT], x2[FB * FT];
    float before[FB * FT * FV];
    draw_tokens(r, FV, FB * FT, x, y);
    memcpy(x2, x, sizeof x);
    for (size_t b = 0; b < FB; b++)
        for (size_t s = 0; s < t; s++)
            x2[b * FT + s] = (x[b * FT + s] + 1 + b) % FV;
    loss_at(m, x, y);
    memcpy(before, recurrent32_logits(m), sizeof before);
    loss_at(m, x2, y);
    double change = 0.0;
    for (size_t b = 0; b < FB; b++)
        for (size_t v = 0; v < FV; v++) {
            size_t i = (b * FT + t) * FV + v;
            change = fmax(change, fabs((double)recurrent32_logits(m)[i] - before[i]));
        }
    recurrent32_free(m);
    gsl_rng_free(r);
    return change;
}

Test(recurrent32, without_recurrence_the_output_ignores_earlier_inputs)
{
    cr_assert_eq(memory_of(RECURRENT_ELMAN, 1, 0), 0.0);
    cr_assert_eq(memory_of(RECURRENT_GRU, 1, 0), 0.0);
}

Test(recurrent32, the_recurrent_models_and_a_gru_with_only_w_zero_remember)
{
    double elman = memory_of(RECURRENT_ELMAN, 0, 0), gru = memory_of(RECURRENT_GRU, 0, 0);
    double carry = memory_of(RECURRENT_GRU, 0, 1);
    cr_log_info("logit changes: Elman %.3g, GRU %.3g, GRU with W = 0 %.3g", elman, gru, carry);
    cr_assert(elman > 1e-2 && gru > 1e-2 && carry > 1e-2, "Elman %g, GRU %g, W = 0 %g", elman,
              gru, carry);
}

/* cell c: three AdamW steps without recurrence -> W untouched and out of the list, every
 * other tensor moved */
static void trains_without_w(recurrent_cell c)
{
    gsl_rng *r = rng_new(41);
    recurrent32 *m = small_model(c, 1, r);
    cr_assert(find(m, c == RECURRENT_GRU ? "gru.W" : "rnn.W") == NULL);
    cr_assert(find(m, c == RECURRENT_GRU ? "gru.U" : "rnn.U") != NULL);
    cr_assert_eq(m->count, c == RECURRENT_GRU ? 6u : 5u);
    float *start = malloc(m->n * sizeof *start);
    cr_assert(start);
    memcpy(start, m->params, m->n * sizeof *start);
    adamw opt;
    cr_assert_eq(adamw_init(&opt, m->t, m->count, 0.1), INVENT_OK);
    step_plan plan = {.model = m, .forward = recurrent32_train_forward,
                      .backward = recurrent32_train_backward, .t = m->t, .count = m->count,
                      .opt = &opt, .sch = {.peak = 1e-2, .floor = 1e-3, .warmup = 1, .decay = 3},
                      .clip = 1.0};
    size_t x[FB * FT], y[FB * FT];
    for (size_t step = 0; step < 3; step++) {
        draw_tokens(r, FV, FB * FT, x, y);
        cr_assert_eq(train_step(&plan, step, x, y, NULL), INVENT_OK);
    }
    size_t gm = (c == RECURRENT_GRU ? 3 : 1) * FM;
    for (size_t i = 0; i < gm * FM; i++)
        cr_assert_eq(m->w.W[i], 0.0f);
    for (size_t k = 0; k < m->count; k++) {
        size_t at = (size_t)(m->t[k].value32 - m->params);
        cr_assert(memcmp(start + at, m->t[k].value32, m->t[k].size * sizeof(float)) != 0, "%s",
                  m->t[k].name);
    }
    adamw_free(&opt);
    free(start);
    recurrent32_free(m);
    gsl_rng_free(r);
}

Test(recurrent32, without_recurrence_w_stays_zero_and_the_rest_trains)
{
    trains_without_w(RECURRENT_ELMAN);
    trains_without_w(RECURRENT_GRU);
}

/* a GRU of 70 units (two chunks of the pointwise part), one pass with `workers`
 * threads -> the loss; grads: (m->n) */
static double pass_with(int workers, float *grads, size_t n)
{
    gsl_rng *r = rng_new(51);
    recurrent_shape s = {RECURRENT_GRU, 9, 8, 70};
    recurrent32 *m = recurrent32_new(&s, 3, 40, 0);
    cr_assert(m && m->n == n);
    cr_assert_eq(recurrent32_draw(m, r), INVENT_OK);
    m->workers = workers;
    size_t x[120], y[120];
    draw_tokens(r, 9, 120, x, y);
    double loss = loss_at(m, x, y);
    cr_assert_eq(recurrent32_backward(m, x, y), INVENT_OK);
    memcpy(grads, m->grads, n * sizeof(float));
    recurrent32_free(m);
    gsl_rng_free(r);
    return loss;
}

Test(recurrent32, the_same_numbers_whatever_the_thread_count)
{
    size_t n = 9 * 8 + 210 * 8 + 210 + 210 * 70 + 210 + 9 * 70 + 9;
    float *one = calloc(n, sizeof(float)), *two = calloc(n, sizeof(float));
    cr_assert(one && two);
    cr_assert_eq(pass_with(1, one, n), pass_with(2, two, n));
    cr_assert_eq(memcmp(one, two, n * sizeof(float)), 0, "1 and 2 threads differ");
    free(one);
    free(two);
}

Test(recurrent32, bad_sizes_and_tokens_are_refused)
{
    recurrent_shape s = {RECURRENT_ELMAN, 4, 3, 0};
    cr_assert_null(recurrent32_new(&s, 2, 3, 0));
    s.state = 5;
    recurrent32 *m = recurrent32_new(&s, 1, 2, 0);
    cr_assert(m);
    size_t x[2] = {1, 4}, y[2] = {0, 1};
    double loss;
    cr_assert_eq(recurrent32_forward(m, x, y, &loss), INVENT_ERANGE);
    recurrent32_free(m);
}

Test(recurrent32, one_seed_draws_the_same_model_and_control_but_w)
{
    recurrent_shape s = {RECURRENT_GRU, FV, FE, FM};
    recurrent32 *m = recurrent32_new(&s, 1, 2, 0), *c = recurrent32_new(&s, 1, 2, 1);
    gsl_rng *r1 = rng_new(61), *r2 = rng_new(61);
    cr_assert(m && c && r1 && r2);
    cr_assert_eq(recurrent32_draw(m, r1), INVENT_OK);
    cr_assert_eq(recurrent32_draw(c, r2), INVENT_OK);
    size_t w_at = (size_t)(m->w.W - m->params), w_size = 3 * FM * FM;
    cr_assert_eq(memcmp(m->params, c->params, w_at * sizeof(float)), 0);
    cr_assert_eq(memcmp(m->w.bh, c->w.bh, (m->n - w_at - w_size) * sizeof(float)), 0);
    cr_assert(fabsf(m->w.W[0]) > 0.0f && c->w.W[0] == 0.0f);
    cr_assert_eq(m->w.bx[FM], 1.0f); /* the update gate's bias */
    recurrent32_free(m);
    recurrent32_free(c);
    gsl_rng_free(r1);
    gsl_rng_free(r2);
}
