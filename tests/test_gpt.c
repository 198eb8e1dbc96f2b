/* Unit tests: the stacked model's backward pass against finite differences,
 * in both arrangements of the norms, and its pieces (embedding, one block). */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_randist.h>

#include "embedding.h"
#include "gpt.h"
#include "gpt_gradcheck.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

static const gpt_shape tiny = {.vocab = 7, .context = 6, .dim = 8, .heads = 2, .layers = 2,
                               .hidden = 12, .norm = BLOCK_PRE_NORM};

/* every number of w moved by N(0, 0.3^2), so that the gradients are tested at a generic
 * point: at GPT-2's draw the gains are 1, the biases 0 and W_q, W_k so small that their
 * gradients sink below the finite differences' rounding */
static void move_off_the_draw(gpt_weights *w, gsl_rng *r)
{
    tensor_ref t[gpt_tensor_count(&w->shape)];
    gpt_tensors(w, NULL, t);
    for (size_t k = 0; k < gpt_tensor_count(&w->shape); k++)
        for (size_t i = 0; i < t[k].size; i++)
            t[k].value[i] += 0.3 * gsl_ran_gaussian(r, 1.0);
}

/* a model of shape s at seed, one batch of B x T random tokens -> worst relative error */
static double model_error(gpt_shape s, unsigned long seed, size_t B, size_t T)
{
    gsl_rng *r = rng_new(seed);
    gpt_weights *w = gpt_new(&s, r), *g = gpt_zeros(&s);
    gpt_trace *tr = gpt_trace_new(w, B, T);
    gpt_work *work = gpt_work_new(w, B, T);
    cr_assert_not_null(work);
    cr_assert(w && g && tr);
    move_off_the_draw(w, r);
    size_t x[B * T], y[B * T];
    for (size_t i = 0; i < B * T; i++) {
        x[i] = gsl_rng_uniform_int(r, s.vocab);
        y[i] = gsl_rng_uniform_int(r, s.vocab);
    }
    double loss;
    cr_assert_eq(gpt_forward(w, x, y, tr, &loss), INVENT_OK);
    cr_assert_eq(gpt_backward(w, x, y, tr, g, work), INVENT_OK);
    size_t kinks;
    gpt_fd_opts every = {.samples = 0, .h = 1e-5, .tol = 1e-6, .noise = 0.0};
    double e = gpt_gradcheck(w, g, x, y, tr, &every, NULL, &kinks);
    cr_assert(kinks * 100 < gpt_param_count(&s), "%zu entries of %zu at a kink: more than 1%%",
              kinks, gpt_param_count(&s));
    gpt_work_free(work);
    gpt_trace_free(tr);
    gpt_free(w);
    gpt_free(g);
    gsl_rng_free(r);
    return e;
}

Test(gpt, pre_norm_model_gradient_agrees_with_finite_differences)
{
    for (unsigned long seed = 1; seed <= 2; seed++) {
        double e = model_error(tiny, seed, 2, 5);
        cr_log_info("pre-norm seed %lu: %.2e", seed, e);
        cr_assert(e < 1e-6, "pre-norm model: relative error %g (seed %lu)", e, seed);
    }
}

Test(gpt, post_norm_model_gradient_agrees_with_finite_differences)
{
    gpt_shape s = tiny;
    s.norm = BLOCK_POST_NORM;
    for (unsigned long seed = 1; seed <= 2; seed++) {
        double e = model_error(s, seed, 2, 5);
        cr_assert(e < 1e-6, "post-norm model: relative error %g (seed %lu)", e, seed);
    }
}

Test(gpt, one_layer_one_head_full_context)
{
    gpt_shape s = tiny;
    s.layers = 1, s.heads = 1;
    double e = model_error(s, 3, 1, s.context);
    cr_assert(e < 1e-6, "relative error %g", e);
}

Test(gpt, random_entries_and_every_embedding_row_agree_too)
{
    gsl_rng *r = rng_new(4), *pick = rng_new(9);
    gpt_weights *w = gpt_new(&tiny, r), *g = gpt_zeros(&tiny);
    move_off_the_draw(w, r);
    gpt_trace *tr = gpt_trace_new(w, 1, 6);
    gpt_work *work = gpt_work_new(w, 1, 6);
    cr_assert_not_null(work);
    size_t x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {2, 3, 4, 5, 6, 0};
    double loss;
    size_t kinks;
    gpt_fd_opts some = {.samples = 3, .h = 1e-5, .tol = 1e-6, .noise = 0.0};
    cr_assert_eq(gpt_forward(w, x, y, tr, &loss), INVENT_OK);
    cr_assert_eq(gpt_backward(w, x, y, tr, g, work), INVENT_OK);
    cr_assert(gpt_gradcheck(w, g, x, y, tr, &some, pick, &kinks) < 1e-6);
    gsl_matrix_scale(g->Wout, 1.01); /* a gradient 1% off is caught */
    cr_assert(gpt_gradcheck(w, g, x, y, tr, &some, pick, &kinks) > 1e-3);
    gsl_matrix_scale(g->Wout, 1.0 / 1.01);
    gsl_vector_view p0 = gsl_matrix_row(g->P, 0);
    gsl_vector_set_zero(&p0.vector); /* position 0's gradient dropped: every row is checked */
    cr_assert(gpt_gradcheck(w, g, x, y, tr, &some, pick, &kinks) > 1e-3);
    gpt_work_free(work);
    gpt_trace_free(tr);
    gpt_free(w);
    gpt_free(g);
    gsl_rng_free(r);
    gsl_rng_free(pick);
}

Test(gpt, tensor_list_covers_every_parameter_once)
{
    gsl_rng *r = rng_new(1);
    gpt_weights *w = gpt_new(&tiny, r);
    tensor_ref t[gpt_tensor_count(&tiny)];
    gpt_tensors(w, NULL, t);
    size_t total = 0;
    for (size_t k = 0; k < gpt_tensor_count(&tiny); k++)
        total += t[k].size;
    cr_assert_eq(total, gpt_param_count(&tiny));
    cr_assert_eq(tensors_numbers(t, gpt_tensor_count(&tiny)), total);
    cr_assert_eq(tensors_numbers(t, 1), t[0].size);
    cr_assert_str_eq(t[0].name, "tok_emb");
    cr_assert_str_eq(t[2].name, "l0.Wq");
    cr_assert_str_eq(t[gpt_tensor_count(&tiny) - 1].name, "bout");
    gpt_free(w);
    gsl_rng_free(r);
}

/* gpt_new draws and needs a generator; gpt_zeros is the other meaning, spelled
 * out: every entry 0, gpt_new's shapes, every norm's epsilon block_new's */
Test(gpt, new_needs_a_generator_and_zeros_are_zero)
{
    cr_assert_null(gpt_new(&tiny, NULL));
    gpt_weights *z = gpt_zeros(&tiny);
    cr_assert_not_null(z);
    tensor_ref t[gpt_tensor_count(&tiny)];
    gpt_tensors(z, NULL, t);
    for (size_t k = 0; k < gpt_tensor_count(&tiny); k++)
        for (size_t i = 0; i < t[k].size; i++)
            cr_assert_eq(t[k].value[i], 0.0, "%s[%zu]", t[k].name, i);
    cr_assert_eq(z->eps, 1e-5);
    cr_assert_eq(z->blocks[tiny.layers - 1]->eps, 1e-5);
    cr_assert_eq(z->blocks[0]->norm, BLOCK_PRE_NORM);
    gpt_free(z);
}

/* The final norm reads its own epsilon, not a block's: moving only w->eps moves the
 * logits (it would not if the final norm borrowed block 0's) */
Test(gpt, final_norm_reads_its_own_epsilon)
{
    gsl_rng *r = rng_new(4);
    gpt_weights *w = gpt_new(&tiny, r);
    gpt_trace *tr = gpt_trace_new(w, 1, tiny.context);
    size_t x[6] = {0, 3, 1, 6, 2, 5};
    cr_assert_eq(gpt_forward(w, x, NULL, tr, NULL), INVENT_OK);
    gsl_matrix *before = mat_clone(gpt_logits(tr));
    w->eps = 0.5;
    cr_assert_eq(gpt_forward(w, x, NULL, tr, NULL), INVENT_OK);
    double moved = 0.0;
    for (size_t i = 0; i < before->size1 * before->size2; i++)
        moved = fmax(moved, fabs(before->data[i] - gpt_logits(tr)->data[i]));
    cr_assert_gt(moved, 1e-3, "the final norm ignored its epsilon (%g)", moved);
    gpt_set_eps(w, 1e-5);
    cr_assert_eq(gpt_forward(w, x, NULL, tr, NULL), INVENT_OK);
    for (size_t i = 0; i < before->size1 * before->size2; i++)
        cr_assert_eq(before->data[i], gpt_logits(tr)->data[i]);
    gsl_matrix_free(before);
    gpt_trace_free(tr);
    gpt_free(w);
    gsl_rng_free(r);
}

Test(gpt, refuses_a_context_longer_than_the_positions)
{
    gsl_rng *r = rng_new(1);
    gpt_weights *w = gpt_new(&tiny, r);
    cr_assert_null(gpt_trace_new(w, 1, tiny.context + 1));
    cr_assert_null(gpt_work_new(w, 1, tiny.context + 1));
    gpt_free(w);
    gsl_rng_free(r);
}

/* The backward pass's scratch is made for one batch size: scratch for one
 * token fewer (the near miss) is refused, before anything is written. */
Test(gpt, backward_refuses_scratch_made_for_another_batch)
{
    enum { T = 5 };
    gsl_rng *r = rng_new(2);
    gpt_weights *w = gpt_new(&tiny, r), *g = gpt_zeros(&tiny);
    gpt_trace *tr = gpt_trace_new(w, 1, T);
    gpt_work *fits = gpt_work_new(w, 1, T), *short_by_one = gpt_work_new(w, 1, T - 1);
    cr_assert(w && g && tr && fits && short_by_one);
    size_t x[T] = {1, 2, 3, 4, 5}, y[T] = {2, 3, 4, 5, 6};
    double loss;
    cr_assert_eq(gpt_forward(w, x, y, tr, &loss), INVENT_OK);
    cr_assert_eq(gpt_backward(w, x, y, tr, g, short_by_one), INVENT_ESHAPE);
    cr_assert_eq(gpt_backward(w, x, y, tr, g, fits), INVENT_OK);
    gpt_work_free(fits);
    gpt_work_free(short_by_one);
    gpt_trace_free(tr);
    gpt_free(w), gpt_free(g);
    gsl_rng_free(r);
}

Test(embedding, rows_add_token_and_position_and_gradients_scatter_back)
{
    gsl_rng *r = rng_new(2);
    gsl_matrix *E = mat_gaussian(5, 3, 1.0, r), *P = mat_gaussian(4, 3, 1.0, r);
    gsl_matrix *X = gsl_matrix_alloc(6, 3), *dE = gsl_matrix_calloc(5, 3),
               *dP = gsl_matrix_calloc(4, 3), *dX = gsl_matrix_alloc(6, 3);
    size_t ids[6] = {4, 0, 4, 1, 1, 2};
    cr_assert_eq(embedding_forward(E, P, ids, 2, 3, X), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(X, 4, 2), gsl_matrix_get(E, 1, 2) + gsl_matrix_get(P, 1, 2),
                       1e-15);
    gsl_matrix_set_all(dX, 1.0);
    cr_assert_eq(embedding_backward(ids, 2, 3, dX, dE, dP), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(dE, 4, 0), 2.0, 0); /* token 4 appears twice */
    cr_assert_float_eq(gsl_matrix_get(dE, 3, 0), 0.0, 0);
    cr_assert_float_eq(gsl_matrix_get(dP, 0, 1), 2.0, 0); /* two sequences */
    cr_assert_float_eq(gsl_matrix_get(dP, 3, 1), 0.0, 0);
    ids[5] = 5;
    cr_assert_eq(embedding_forward(E, P, ids, 2, 3, X), INVENT_ERANGE);
    gsl_matrix *all[] = {E, P, X, dE, dP, dX};
    for (size_t k = 0; k < 6; k++)
        gsl_matrix_free(all[k]);
    gsl_rng_free(r);
}
