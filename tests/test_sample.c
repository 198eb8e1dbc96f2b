/* Unit tests: generation with the key-value cache gives the logits of the
 * full forward pass, for the full model, for every ablated variant and for
 * blocks without skips or norms; sampling respects top-k. */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ablation.h"
#include "gpt.h"
#include "rng.h"
#include "sample.h"
#include "status.h"

static const gpt_shape small = {.vocab = 9, .context = 7, .dim = 8, .heads = 2, .layers = 2,
                                .hidden = 16, .norm = BLOCK_PRE_NORM};

/* the largest difference between cached logits and the last row of a full pass */
static double cache_gap(gpt_shape s)
{
    gsl_rng *r = rng_new(5);
    gpt_weights *w = gpt_new(&s, r);
    gpt_cache *c = gpt_cache_new(w);
    gsl_vector *z = gsl_vector_alloc(s.vocab);
    size_t tokens[7] = {3, 1, 4, 1, 5, 8, 2};
    double worst = 0.0;
    for (size_t t = 0; t < s.context; t++) {
        cr_assert_eq(gpt_cache_step(w, c, tokens[t], z), INVENT_OK);
        gpt_trace *tr = gpt_trace_new(w, 1, t + 1);
        cr_assert_eq(gpt_forward(w, tokens, NULL, tr, NULL), INVENT_OK);
        for (size_t i = 0; i < s.vocab; i++)
            worst = fmax(worst, fabs(gsl_matrix_get(gpt_logits(tr), t, i) - z->data[i]));
        gpt_trace_free(tr);
    }
    cr_assert_eq(gpt_cache_step(w, c, 0, z), INVENT_ERANGE);
    gsl_vector_free(z);
    gpt_cache_free(c);
    gpt_free(w);
    gsl_rng_free(r);
    return worst;
}

Test(sample, cached_logits_equal_the_full_pass_pre_norm)
{
    cr_assert(cache_gap(small) < 1e-12);
}

Test(sample, cached_logits_equal_the_full_pass_post_norm)
{
    gpt_shape s = small;
    s.norm = BLOCK_POST_NORM;
    cr_assert(cache_gap(s) < 1e-12);
}

/* w, read by gpt_forward over tokens[0..n) -> the largest difference between each
 * row of its logits and the cached step's at that position */
static double variant_gap(const gpt_weights *w, const size_t *tokens, size_t n)
{
    gpt_cache *c = gpt_cache_new(w);
    gpt_trace *tr = gpt_trace_new(w, 1, n);
    gsl_vector *z = gsl_vector_alloc(w->shape.vocab);
    cr_assert(c && tr && z);
    cr_assert_eq(gpt_forward(w, tokens, NULL, tr, NULL), INVENT_OK);
    double worst = 0.0;
    for (size_t t = 0; t < n; t++) {
        cr_assert_eq(gpt_cache_step(w, c, tokens[t], z), INVENT_OK);
        for (size_t i = 0; i < w->shape.vocab; i++)
            worst = fmax(worst, fabs(gsl_matrix_get(gpt_logits(tr), t, i) - z->data[i]));
    }
    gsl_vector_free(z);
    gpt_trace_free(tr);
    gpt_cache_free(c);
    return worst;
}

/* Every ablated model of chapter 14 (the additive score, free A's heads of size d,
 * no W_o, no MLP, ...), moved off its small draw so that every score matters, and
 * evaluated as it is (causal): the cached step gives gpt_forward's logits. Before
 * the step scored through mha_head_weights, the additive model's differed. */
Test(sample, cached_logits_equal_the_full_pass_for_every_ablated_model)
{
    size_t tokens[7] = {3, 1, 4, 1, 5, 8, 2};
    for (ablation a = ABL_FULL; a < ABL_COUNT; a++) {
        gsl_rng *r = rng_new(10 + a);
        ablated *m = ablated_new(a, &small, r);
        cr_assert_not_null(m);
        for (size_t k = 0; k < m->n_train; k++)
            for (size_t i = 0; i < m->train[k].size; i++)
                m->train[k].value[i] += 0.3 * gsl_ran_gaussian(r, 1.0);
        ablated_prepare(m, 0); /* W_q from Theta, the mask causal */
        double gap = variant_gap(m->w, tokens, small.context);
        cr_assert(gap < 1e-12, "%s: cached logits differ by %g", ablation_name(a), gap);
        ablated_free(m);
        gsl_rng_free(r);
    }
}

/* Blocks without skips, or without norms (chapter 12's ablations of the block), in both
 * orders of the norms, and a final norm whose epsilon is not the blocks': the step puts
 * each where the forward pass does */
Test(sample, cached_logits_equal_the_full_pass_without_skips_or_norms)
{
    size_t tokens[7] = {3, 1, 4, 1, 5, 8, 2};
    for (int k = 0; k < 6; k++) {
        gpt_shape s = small;
        s.norm = k % 2 ? BLOCK_POST_NORM : BLOCK_PRE_NORM;
        gsl_rng *r = rng_new(20 + k);
        gpt_weights *w = gpt_new(&s, r);
        for (size_t l = 0; l < s.layers; l++) {
            w->blocks[l]->no_skips = k < 2;
            w->blocks[l]->no_norms = k == 2 || k == 3;
            rng_fill_gaussian(w->blocks[l]->attn->Wq, r, 0.5);
        }
        if (k >= 4) /* the final norm's own epsilon, large enough to move the logits */
            w->eps = 0.5;
        double gap = variant_gap(w, tokens, s.context);
        cr_assert(gap < 1e-12, "case %d: cached logits differ by %g", k, gap);
        gpt_free(w);
        gsl_rng_free(r);
    }
}

/* w, a cache made for another model -> what gpt_cache_step says (a refused step leaves
 * the cache empty) */
static int step_with_other_cache(const gpt_weights *w, const gpt_weights *other)
{
    gpt_cache *c = gpt_cache_new(other);
    gsl_vector *z = gsl_vector_alloc(w->shape.vocab);
    int status = gpt_cache_step(w, c, 1, z);
    cr_assert_eq(c->len, status == INVENT_OK);
    gsl_vector_free(z);
    gpt_cache_free(c);
    return status;
}

/* A cache made for one model is refused by a model of other sizes before anything is
 * written (one layer more, a wider stream, a longer context, wider values only), and by
 * a model that sees the future (a no-mask ablation left as it trains) */
Test(sample, a_cache_for_another_model_is_refused)
{
    gsl_rng *r = rng_new(7);
    gpt_weights *w = gpt_new(&small, r);
    gpt_shape deeper = small, wider = small, longer = small;
    deeper.layers++, wider.dim *= 2, wider.hidden *= 2, longer.context++;
    const gpt_shape *others[] = {&deeper, &wider, &longer};
    for (size_t k = 0; k < 3; k++) {
        gpt_weights *o = gpt_new(others[k], r);
        cr_assert_eq(step_with_other_cache(o, w), INVENT_ESHAPE, "other model %zu", k);
        gpt_free(o);
    }
    gpt_weights *wide_v = gpt_new(&small, r); /* W_v and W_o of heads twice as wide */
    for (size_t l = 0; l < small.layers; l++) {
        mha_weights *a = wide_v->blocks[l]->attn;
        gsl_matrix_free(a->Wv), gsl_matrix_free(a->Wo);
        a->Wv = gsl_matrix_calloc(2 * small.dim, small.dim);
        a->Wo = gsl_matrix_calloc(small.dim, 2 * small.dim);
    }
    cr_assert_eq(step_with_other_cache(wide_v, w), INVENT_ESHAPE);
    ablated *nomask = ablated_new(ABL_NO_MASK, &small, r);
    ablated_prepare(nomask, 1);
    cr_assert_eq(step_with_other_cache(nomask->w, nomask->w), INVENT_ERANGE);
    ablated_prepare(nomask, 0);
    cr_assert_eq(step_with_other_cache(nomask->w, nomask->w), INVENT_OK);
    cr_assert_eq(step_with_other_cache(w, w), INVENT_OK);
    ablated_free(nomask);
    gpt_free(wide_v);
    gpt_free(w);
    gsl_rng_free(r);
}

Test(sample, top_k_draws_only_among_the_k_largest)
{
    gsl_rng *r = rng_new(1);
    gsl_vector *z = gsl_vector_alloc(5);
    double v[5] = {0.1, 2.0, -1.0, 1.5, 0.0};
    for (size_t i = 0; i < 5; i++)
        gsl_vector_set(z, i, v[i]);
    for (int k = 0; k < 200; k++) {
        size_t tok = sample_token(z, 1.0, 2, r);
        cr_assert(tok == 1 || tok == 3, "drew %zu", tok);
    }
    gsl_vector_free(z);
    gsl_rng_free(r);
}

Test(sample, generation_runs_past_the_context)
{
    gsl_rng *r = rng_new(2);
    gpt_weights *w = gpt_new(&small, r);
    gpt_cache *c = gpt_cache_new(w);
    size_t prompt[2] = {1, 2}, out[20];
    cr_assert_eq(gpt_generate(w, c, prompt, 2, 20, 1.0, 0, r, out), INVENT_OK);
    for (size_t i = 0; i < 20; i++)
        cr_assert(out[i] < small.vocab);
    gpt_cache_free(c);
    gpt_free(w);
    gsl_rng_free(r);
}

/* T = 7, so the cache holds 7 tokens and refills with the last 3: after len tokens the
 * logits are those of the window from s, where s moves to len - 3 when len - s passes 7 */
Test(sample, the_next_logits_past_the_context_equal_the_full_pass_over_the_refilled_window)
{
    gsl_rng *r = rng_new(4);
    gpt_weights *w = gpt_new(&small, r);
    gpt_cache *c = gpt_cache_new(w);
    gsl_vector *z = gsl_vector_alloc(small.vocab);
    size_t seq[20], s = 0, refills = 0;
    for (size_t i = 0; i < 20; i++)
        seq[i] = (i * 5 + 3) % small.vocab;
    cr_assert_eq(gpt_generate_next(w, c, seq, 0, z), INVENT_ERANGE);
    for (size_t len = 1; len <= 20; len++) {
        if (len - s > small.context)
            s = len - small.context / 2, refills++;
        cr_assert_eq(gpt_generate_next(w, c, seq, len, z), INVENT_OK);
        cr_assert_eq(c->len, len - s);
        gpt_trace *tr = gpt_trace_new(w, 1, len - s);
        cr_assert_eq(gpt_forward(w, seq + s, NULL, tr, NULL), INVENT_OK);
        for (size_t i = 0; i < small.vocab; i++)
            cr_assert_float_eq(gsl_matrix_get(gpt_logits(tr), len - s - 1, i), z->data[i],
                               1e-12, "len %zu", len);
        gpt_trace_free(tr);
    }
    cr_assert_eq(refills, 3); /* at len 8, 13 and 18 */
    gsl_vector_free(z);
    gpt_cache_free(c);
    gpt_free(w);
    gsl_rng_free(r);
}
