/* Unit tests: each ablated model's gradient of the numbers it trains against
 * finite differences (the no-mask model with the future visible, the no-scale
 * model through W_q = sqrt(r) Theta), the fixed tensors staying fixed, and the
 * backward pass adding to the gradients, as every other does. */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ablation.h"
#include "fdcheck.h"
#include "rng.h"
#include "status.h"

static const gpt_shape tiny = {.vocab = 7, .context = 6, .dim = 8, .heads = 2, .layers = 2,
                               .hidden = 12, .norm = BLOCK_PRE_NORM};

typedef struct {
    ablated *m;
    gpt_trace *tr;
    const size_t *x, *y;
} fd_ctx;

static double training_loss(void *p)
{
    fd_ctx *c = p;
    double loss;
    return ablated_forward(c->m, c->x, c->y, c->tr, 1, &loss) == INVENT_OK ? loss : NAN;
}

/* ablation a at seed -> the worst relative error over the trained tensors */
static double trained_error(ablation a, unsigned long seed)
{
    enum { B = 2, T = 5 };
    gsl_rng *r = rng_new(seed);
    ablated *m = ablated_new(a, &tiny, r);
    cr_assert(m);
    gpt_trace *tr = gpt_trace_new(m->w, B, T);
    gpt_work *work = gpt_work_new(m->w, B, T);
    cr_assert_not_null(work);
    size_t x[B * T], y[B * T];
    for (size_t i = 0; i < B * T; i++) {
        x[i] = gsl_rng_uniform_int(r, tiny.vocab);
        y[i] = gsl_rng_uniform_int(r, tiny.vocab);
    }
    for (size_t k = 0; k < m->n_train; k++) /* a generic point, off GPT-2's small draw */
        for (size_t i = 0; i < m->train[k].size; i++)
            m->train[k].value[i] += 0.3 * gsl_ran_gaussian(r, 1.0);
    fd_ctx c = {m, tr, x, y};
    double loss, worst = 0.0;
    cr_assert_eq(ablated_forward(m, x, y, tr, 1, &loss), INVENT_OK);
    cr_assert_eq(ablated_backward(m, x, y, tr, work), INVENT_OK);
    for (size_t k = 0; k < m->n_train; k++) {
        tensor_ref *t = &m->train[k];
        size_t cols = t->ndim == 2 ? t->shape[1] : 1;
        gsl_matrix_view P = gsl_matrix_view_array(t->value, t->shape[0], cols);
        gsl_matrix_view G = gsl_matrix_view_array(t->grad, t->shape[0], cols);
        gsl_matrix *Gc = gsl_matrix_alloc(t->shape[0], cols);
        gsl_matrix_memcpy(Gc, &G.matrix);
        double e = fdcheck_matrix(training_loss, &c, &P.matrix, Gc, 1e-5);
        gsl_matrix_free(Gc);
        worst = e > worst ? e : worst;
    }
    gpt_work_free(work);
    gpt_trace_free(tr);
    ablated_free(m);
    gsl_rng_free(r);
    return worst;
}

Test(ablation, every_ablation_gradient_agrees_with_finite_differences)
{
    for (int a = 0; a < ABL_COUNT; a++) {
        double e = trained_error((ablation)a, 3);
        cr_log_info("%s: %.2e", ablation_name((ablation)a), e);
        cr_assert(e < 1e-6, "%s: relative error %g", ablation_name((ablation)a), e);
    }
}

Test(ablation, the_fixed_tensors_are_left_out_and_hold_their_values)
{
    gsl_rng *r = rng_new(1);
    ablated *full = ablated_new(ABL_FULL, &tiny, r);
    ablated *nopos = ablated_new(ABL_NO_POSITION, &tiny, r);
    ablated *nomlp = ablated_new(ABL_NO_MLP, &tiny, r);
    ablated *nowo = ablated_new(ABL_NO_WO, &tiny, r);
    size_t d = tiny.dim, m = tiny.hidden, L = tiny.layers, P = tiny.context * d;
    cr_assert_eq(ablated_param_count(full), gpt_param_count(&tiny));
    cr_assert_eq(ablated_param_count(nopos), gpt_param_count(&tiny) - P);
    cr_assert_eq(ablated_param_count(nomlp), gpt_param_count(&tiny) - L * (2 * d * m + m + d));
    cr_assert_eq(ablated_param_count(nowo), gpt_param_count(&tiny) - L * d * d);
    for (size_t i = 0; i < d; i++)
        for (size_t j = 0; j < d; j++)
            cr_assert_eq(gsl_matrix_get(nowo->w->blocks[1]->attn->Wo, i, j), i == j);
    cr_assert_eq(gsl_matrix_max(nopos->w->P), 0.0);
    cr_assert_eq(gsl_matrix_min(nopos->w->P), 0.0);
    ablated_free(full);
    ablated_free(nopos);
    ablated_free(nomlp);
    ablated_free(nowo);
    gsl_rng_free(r);
}

Test(ablation, no_mask_sees_the_future_only_while_training)
{
    enum { B = 1, T = 6 };
    gsl_rng *r = rng_new(2);
    ablated *m = ablated_new(ABL_NO_MASK, &tiny, r);
    gpt_trace *tr = gpt_trace_new(m->w, B, T);
    size_t x[T] = {1, 2, 3, 4, 5, 6}, x2[T] = {1, 2, 3, 4, 5, 0};
    double l1, l2, c1, c2;
    /* changing the last input moves the first logits only when the future is seen */
    ablated_forward(m, x, x, tr, 1, &l1);
    double z1 = gsl_matrix_get(gpt_logits(tr), 0, 0);
    ablated_forward(m, x2, x, tr, 1, &l2);
    double z2 = gsl_matrix_get(gpt_logits(tr), 0, 0);
    ablated_forward(m, x, x, tr, 0, &c1);
    double z3 = gsl_matrix_get(gpt_logits(tr), 0, 0);
    ablated_forward(m, x2, x, tr, 0, &c2);
    double z4 = gsl_matrix_get(gpt_logits(tr), 0, 0);
    cr_assert(fabs(z1 - z2) > 1e-6);
    cr_assert_eq(z3, z4);
    gpt_trace_free(tr);
    ablated_free(m);
    gsl_rng_free(r);
}

Test(ablation, free_a_starts_as_the_full_model)
{
    enum { B = 2, T = 6 };
    gsl_rng *r1 = rng_new(4), *r2 = rng_new(4);
    ablated *full = ablated_new(ABL_FULL, &tiny, r1), *freeA = ablated_new(ABL_FREE_A, &tiny, r2);
    cr_assert(full && freeA);
    gpt_trace *t1 = gpt_trace_new(full->w, B, T), *t2 = gpt_trace_new(freeA->w, B, T);
    size_t x[B * T];
    for (size_t i = 0; i < B * T; i++)
        x[i] = gsl_rng_uniform_int(r1, tiny.vocab);
    double l1, l2;
    cr_assert_eq(ablated_forward(full, x, x, t1, 1, &l1), INVENT_OK);
    cr_assert_eq(ablated_forward(freeA, x, x, t2, 1, &l2), INVENT_OK);
    cr_assert(fabs(l1 - l2) < 1e-12, "full %.15f, free A %.15f", l1, l2);
    /* as many trained numbers as W_q and W_k when H = 2 */
    cr_assert_eq(ablated_param_count(freeA), ablated_param_count(full));
    gpt_trace_free(t1);
    gpt_trace_free(t2);
    ablated_free(full);
    ablated_free(freeA);
    gsl_rng_free(r1);
    gsl_rng_free(r2);
}

/* a, after one pass -> the largest |second - 2 first| over the trained gradients
 * after a second forward and backward pass on the same batch, relative to the
 * largest first gradient: 0 when the backward pass adds, as every other does */
static double second_pass_gap(ablation a)
{
    enum { B = 2, T = 5 };
    gsl_rng *r = rng_new(7);
    ablated *m = ablated_new(a, &tiny, r);
    gpt_trace *tr = gpt_trace_new(m->w, B, T);
    gpt_work *work = gpt_work_new(m->w, B, T);
    cr_assert_not_null(work);
    size_t x[B * T], y[B * T], n = ablated_param_count(m), at = 0;
    for (size_t i = 0; i < B * T; i++)
        x[i] = gsl_rng_uniform_int(r, tiny.vocab), y[i] = gsl_rng_uniform_int(r, tiny.vocab);
    double loss, *first = malloc(n * sizeof *first), largest = 0.0, gap = 0.0;
    cr_assert(tr && first);
    cr_assert_eq(ablated_forward(m, x, y, tr, 1, &loss), INVENT_OK);
    cr_assert_eq(ablated_backward(m, x, y, tr, work), INVENT_OK);
    for (size_t k = 0; k < m->n_train; k++)
        for (size_t i = 0; i < m->train[k].size; i++, at++)
            first[at] = m->train[k].grad[i], largest = fmax(largest, fabs(first[at]));
    cr_assert_eq(ablated_forward(m, x, y, tr, 1, &loss), INVENT_OK);
    cr_assert_eq(ablated_backward(m, x, y, tr, work), INVENT_OK);
    at = 0;
    for (size_t k = 0; k < m->n_train; k++)
        for (size_t i = 0; i < m->train[k].size; i++, at++)
            gap = fmax(gap, fabs(m->train[k].grad[i] - 2.0 * first[at]));
    free(first);
    gpt_work_free(work);
    gpt_trace_free(tr);
    ablated_free(m);
    gsl_rng_free(r);
    return gap / largest;
}

Test(ablation, the_backward_pass_adds_to_the_gradients)
{
    const ablation kinds[] = {ABL_FULL, ABL_NO_POSITION, ABL_NO_SCALE, ABL_FREE_A};
    for (int k = 0; k < 4; k++) {
        double gap = second_pass_gap(kinds[k]);
        cr_assert(gap < 1e-12, "%s: two passes give %g of the largest gradient away from "
                               "twice one pass", ablation_name(kinds[k]), gap);
    }
}
