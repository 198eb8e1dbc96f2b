/* Unit tests: the pieces of chapter 12's training runs: parameters, Adam,
 * the seeded tasks, the training loop and the three kinds of model (whose
 * whole backward pass is checked against finite differences too). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdlib.h>

#include "adam.h"
#include "bilinear.h"
#include "fdcheck.h"
#include "learn_bilinear.h"
#include "learn_recall.h"
#include "learn_score.h"
#include "linalg.h"
#include "params.h"
#include "report.h"
#include "rng.h"
#include "score.h"
#include "status.h"
#include "tasks.h"
#include "train.h"
#include "xent.h"

Test(params, counts_and_zeroes)
{
    param_set ps = {0};
    gsl_rng *r = rng_new(1);
    cr_assert_not_null(params_add(&ps, 3, 4, 1.0, r));
    cr_assert_not_null(params_add(&ps, 1, 5, 0.0, r));
    cr_assert_eq(params_count(&ps), 17);
    cr_assert_eq(gsl_matrix_get(ps.value[1], 0, 2), 0.0, "sigma 0 gives zeros");
    gsl_matrix_set_all(ps.grad[0], 2.0);
    params_zero_grad(&ps);
    cr_assert_eq(gsl_matrix_get(ps.grad[0], 2, 3), 0.0);
    params_free(&ps);
    gsl_rng_free(r);
}

Test(adam, first_step_moves_every_entry_by_the_rate)
{
    param_set ps = {0};
    params_add(&ps, 1, 2, 0.0, NULL);
    gsl_matrix_set(ps.grad[0], 0, 0, 5.0);
    gsl_matrix_set(ps.grad[0], 0, 1, -0.001);
    adam opt;
    cr_assert_eq(adam_init(&opt, &ps, 0.1), INVENT_OK);
    cr_assert_eq(adam_step(&opt, &ps), INVENT_OK);
    /* bias correction makes the first step exactly rate * sign(g), up to eps */
    cr_assert_float_eq(gsl_matrix_get(ps.value[0], 0, 0), -0.1, 1e-6);
    cr_assert_float_eq(gsl_matrix_get(ps.value[0], 0, 1), 0.1, 1e-4);
    adam_free(&opt);
    cr_assert_eq(adam_init(&opt, &ps, 0.0), INVENT_ERANGE);
    params_free(&ps);
}

Test(adam, minimises_a_quadratic)
{
    param_set ps = {0};
    params_add(&ps, 1, 3, 0.0, NULL);
    const double target[3] = {1.0, -2.0, 0.5};
    adam opt;
    adam_init(&opt, &ps, 0.05);
    for (int step = 0; step < 2000; step++) {
        for (int j = 0; j < 3; j++)
            gsl_matrix_set(ps.grad[0], 0, j, 2.0 * (gsl_matrix_get(ps.value[0], 0, j) - target[j]));
        adam_step(&opt, &ps);
    }
    for (int j = 0; j < 3; j++)
        cr_assert_float_eq(gsl_matrix_get(ps.value[0], 0, j), target[j], 1e-3);
    adam_free(&opt);
    params_free(&ps);
}

Test(tasks, recall_sequences_hold_their_answer)
{
    gsl_rng *r = rng_new(2);
    task_data *d = task_recall(50, 3, 5, 4, r);
    cr_assert_not_null(d);
    cr_assert_eq(d->classes, 4);
    for (size_t i = 0; i < d->n; i++) {
        const gsl_matrix *x = d->x[i];
        cr_assert_eq(x->size1, 4);
        cr_assert_eq(x->size2, 9);
        size_t asked = 99, found = 0;
        for (size_t k = 0; k < 5; k++)
            if (gsl_matrix_get(x, 3, k) == 1.0)
                asked = k;
        for (size_t t = 0; t < 3; t++)
            if (gsl_matrix_get(x, t, asked) == 1.0) {
                found++;
                cr_assert_eq(gsl_matrix_get(x, t, 5 + d->y[i]), 1.0, "the label is the stored value");
            }
        cr_assert_eq(found, 1, "the query key appears exactly once among the pairs");
    }
    task_data_free(d);
    cr_assert_null(task_recall(5, 6, 5, 4, r), "more pairs than keys is refused");
    gsl_rng_free(r);
}

Test(tasks, guessing_among_seen_values)
{
    cr_assert_float_eq(task_recall_guess_accuracy(1, 8), 1.0, 1e-15);
    cr_assert_float_eq(task_recall_guess_accuracy(2, 8), 1.0 / 8 + 7.0 / 8 / 2, 1e-15);
    cr_assert_float_eq(task_recall_guess_accuracy(2, 2), 0.75, 1e-15);
    cr_assert(isnan(task_recall_guess_accuracy(0, 8)));
}

Test(tasks, sign_agreement_labels)
{
    gsl_rng *r = rng_new(3);
    task_data *d = task_sign_agreement(200, 3.0, r);
    size_t same = 0;
    for (size_t i = 0; i < d->n; i++) {
        double a = gsl_matrix_get(d->x[i], 0, 0), b = gsl_matrix_get(d->x[i], 0, 1);
        cr_assert(fabs(a) <= 3.0 && fabs(b) <= 3.0);
        cr_assert_eq(d->y[i], (size_t)(a * b > 0.0));
        same += d->y[i];
    }
    cr_assert(same > 60 && same < 140, "about half agree in sign: %zu of 200", same);
    task_data_free(d);
    gsl_rng_free(r);
}

Test(tasks, teacher_has_its_rank_and_labels_its_favourite)
{
    gsl_rng *r = rng_new(4);
    gsl_matrix *A = task_teacher(6, 2, r);
    gsl_vector *s = gsl_vector_alloc(6);
    linalg_singular_values(A, s);
    cr_assert_eq(linalg_rank(s, 1e-10), 2);
    task_data *d = task_teacher_argmax(20, 5, A, r);
    for (size_t i = 0; i < d->n; i++) {
        gsl_vector_const_view q = gsl_matrix_const_row(d->x[i], 5);
        double best = -INFINITY, sc;
        size_t arg = 0;
        for (size_t t = 0; t < 5; t++) {
            gsl_vector_const_view c = gsl_matrix_const_row(d->x[i], t);
            bilinear_score(&q.vector, A, &c.vector, &sc);
            if (sc > best) {
                best = sc;
                arg = t;
            }
        }
        cr_assert_eq(d->y[i], arg);
    }
    task_data_free(d);
    gsl_vector_free(s);
    gsl_matrix_free(A);
    gsl_rng_free(r);
}

/* ---- a model's whole backward pass against finite differences */
typedef struct {
    const train_model *m;
    const gsl_matrix *x;
    size_t y;
    gsl_matrix *z;
} one_example;

static double example_loss(void *ctx)
{
    one_example *e = ctx;
    double loss;
    if (e->m->forward(e->m->self, e->x, e->z) || xent_forward(e->z, &e->y, &loss, NULL))
        return NAN;
    return loss;
}

static void model_agrees(const train_model *m, const task_data *d)
{
    one_example e = {m, d->x[0], d->y[0], gsl_matrix_alloc(1, d->classes)};
    gsl_matrix *dz = gsl_matrix_calloc(1, d->classes);
    params_zero_grad(m->params);
    cr_assert_eq(m->forward(m->self, e.x, e.z), INVENT_OK);
    cr_assert_eq(xent_backward(e.z, &e.y, dz), INVENT_OK);
    cr_assert_eq(m->backward(m->self, e.x, dz), INVENT_OK);
    for (size_t k = 0; k < m->params->n; k++) {
        double err = fdcheck_matrix(example_loss, &e, m->params->value[k], m->params->grad[k], 1e-5);
        cr_assert(err <= 1e-6, "parameter %zu: relative error %g", k, err);
    }
    gsl_matrix_free(e.z);
    gsl_matrix_free(dz);
}

Test(models, recurrent_reader_gradient)
{
    gsl_rng *r = rng_new(5);
    task_data *d = task_recall(1, 3, 4, 4, r);
    train_model m;
    cr_assert_eq(learn_recall_rnn(8, 5, 4, r, &m), INVENT_OK);
    cr_assert_eq(params_count(m.params), 25 + 40 + 20 + 4);
    model_agrees(&m, d);
    train_model_release(&m);
    task_data_free(d);
    gsl_rng_free(r);
}

Test(models, attention_reader_gradient)
{
    gsl_rng *r = rng_new(6);
    task_data *d = task_recall(1, 3, 4, 4, r);
    train_model m;
    cr_assert_eq(learn_recall_attention(8, 2, 3, 4, r, &m), INVENT_OK);
    cr_assert_eq(params_count(m.params), 4 * 2 * 3 * 8 + 4 * 8 + 4);
    model_agrees(&m, d);
    train_model_release(&m);
    task_data_free(d);
    gsl_rng_free(r);
}

Test(models, score_gradients_and_library_agreement)
{
    gsl_rng *r = rng_new(7);
    task_data *d = task_sign_agreement(1, 3.0, r);
    const score_kind kinds[] = {SCORE_PRODUCT, SCORE_ADDITIVE, SCORE_ADDITIVE_BIAS,
                                SCORE_SELF_PRODUCT};
    const size_t counts[] = {7, 10, 13, 7};
    for (int kind = 0; kind < 4; kind++) {
        train_model m;
        cr_assert_eq(learn_score(kinds[kind], 3, r, &m), INVENT_OK);
        cr_assert_eq(params_count(m.params), counts[kind]);
        model_agrees(&m, d);
        if (kind == 1) { /* the logit is the library's additive score plus the offset */
            gsl_matrix *z = gsl_matrix_alloc(1, 2);
            m.forward(m.self, d->x[0], z);
            gsl_matrix_view W1 = gsl_matrix_submatrix(m.params->value[0], 0, 0, 3, 1),
                            W2 = gsl_matrix_submatrix(m.params->value[0], 0, 1, 3, 1);
            gsl_vector_view v = gsl_matrix_row(m.params->value[1], 0);
            gsl_vector_const_view xi = gsl_matrix_const_subrow(d->x[0], 0, 0, 1),
                                  xL = gsl_matrix_const_subrow(d->x[0], 0, 1, 1);
            double s;
            attn_additive_score(&W1.matrix, &W2.matrix, &v.vector, &xi.vector, &xL.vector, &s);
            cr_assert_float_eq(gsl_matrix_get(z, 0, 1) - gsl_matrix_get(m.params->value[2], 0, 0),
                               s, 1e-14);
            gsl_matrix_free(z);
        }
        train_model_release(&m);
    }
    task_data_free(d);
    gsl_rng_free(r);
}

Test(models, bilinear_gradients_and_scores)
{
    gsl_rng *r = rng_new(8);
    gsl_matrix *T = task_teacher(5, 2, r);
    task_data *d = task_teacher_argmax(1, 4, T, r);
    for (size_t rank = 0; rank <= 2; rank += 2) {
        train_model m;
        cr_assert_eq(learn_bilinear(5, rank, r, &m), INVENT_OK);
        cr_assert_eq(params_count(m.params), rank ? 2 * rank * 5 : 25);
        if (!rank)
            rng_fill_gaussian(m.params->value[0], r, 1.0); /* away from the zero start */
        model_agrees(&m, d);
        gsl_matrix *A = gsl_matrix_alloc(5, 5), *z = gsl_matrix_alloc(1, 4);
        cr_assert_eq(learn_bilinear_matrix(&m, A), INVENT_OK);
        m.forward(m.self, d->x[0], z);
        gsl_vector_const_view q = gsl_matrix_const_row(d->x[0], 4);
        for (size_t t = 0; t < 4; t++) {
            gsl_vector_const_view c = gsl_matrix_const_row(d->x[0], t);
            double s;
            bilinear_score(&q.vector, A, &c.vector, &s);
            cr_assert_float_eq(gsl_matrix_get(z, 0, t), s, 1e-12, "logit t is x_L^T A x_t");
        }
        gsl_matrix_free(A);
        gsl_matrix_free(z);
        train_model_release(&m);
    }
    task_data_free(d);
    gsl_matrix_free(T);
    gsl_rng_free(r);
}

/* trains the product score on sign agreement -> final held-out loss */
static double train_product(unsigned long seed, gsl_matrix *curve)
{
    invent_opts o = {.program = "test", .quiet = 1};
    gsl_rng *r = rng_new(seed);
    task_data *tr = task_sign_agreement(256, 3.0, r), *te = task_sign_agreement(128, 3.0, r);
    train_model m;
    learn_score(SCORE_PRODUCT, 2, r, &m);
    train_plan plan = {.steps = 150, .batch = 8, .rate = 0.05, .points = 3};
    cr_assert_eq(train_run(&o, "test", &m, tr, te, &plan, r, curve), INVENT_OK);
    train_model_release(&m);
    task_data_free(tr);
    task_data_free(te);
    gsl_rng_free(r);
    return gsl_matrix_get(curve, 2, 1);
}

Test(train, learns_and_repeats_itself_for_a_seed)
{
    gsl_matrix *a = gsl_matrix_alloc(3, 3), *b = gsl_matrix_alloc(3, 3);
    double first = train_product(9, a), again = train_product(9, b);
    cr_assert_eq(gsl_matrix_get(a, 1, 0), 75.0, "evaluations are evenly spaced");
    cr_assert_lt(first, gsl_matrix_get(a, 0, 1), "training lowers the held-out loss");
    cr_assert_gt(gsl_matrix_get(a, 2, 2), 0.9, "and reaches high accuracy");
    cr_assert_eq(first, again, "the same seed gives the same numbers, bit for bit");
    gsl_matrix_free(a);
    gsl_matrix_free(b);
}

/* a model that cannot learn (labels shuffled) stops once its held-out loss
 * no longer improves, and the rows after the stop repeat the last one */
Test(train, stops_when_the_loss_no_longer_improves)
{
    invent_opts o = {.program = "test", .quiet = 1};
    gsl_rng *r = rng_new(3);
    task_data *tr = task_sign_agreement(256, 3.0, r), *te = task_sign_agreement(128, 3.0, r);
    task_shuffle_labels(tr, r);
    train_model m;
    learn_score(SCORE_PRODUCT, 1, r, &m);
    train_plan plan = {.steps = 2000, .batch = 8, .rate = 0.05, .points = 41, .patience = 3};
    gsl_matrix *curve = gsl_matrix_alloc(41, 3);
    cr_assert_eq(train_run(&o, "test", &m, tr, te, &plan, r, curve), INVENT_OK);
    double stopped = gsl_matrix_get(curve, 40, 0);
    cr_assert_lt(stopped, 2000.0, "it should stop before the cap");
    size_t row = (size_t)(stopped / 50.0);
    cr_assert_eq(gsl_matrix_get(curve, row, 0), stopped);
    cr_assert_eq(gsl_matrix_get(curve, 40, 1), gsl_matrix_get(curve, row, 1));
    gsl_matrix_free(curve);
    train_model_release(&m);
    task_data_free(tr);
    task_data_free(te);
    gsl_rng_free(r);
}

Test(tasks, shuffled_labels_keep_their_counts)
{
    gsl_rng *r = rng_new(4);
    task_data *d = task_recall(200, 3, 5, 5, r);
    size_t before[5] = {0}, after[5] = {0}, moved = 0;
    size_t *keep = malloc(200 * sizeof *keep);
    for (size_t i = 0; i < 200; i++)
        before[keep[i] = d->y[i]]++;
    task_shuffle_labels(d, r);
    for (size_t i = 0; i < 200; i++) {
        after[d->y[i]]++;
        moved += d->y[i] != keep[i];
    }
    for (size_t c = 0; c < 5; c++)
        cr_assert_eq(before[c], after[c]);
    cr_assert_gt(moved, 100, "most labels should now belong to another example");
    free(keep);
    task_data_free(d);
    gsl_rng_free(r);
}

Test(train, rejects_a_curve_of_the_wrong_shape)
{
    invent_opts o = {.program = "test", .quiet = 1};
    gsl_rng *r = rng_new(1);
    task_data *d = task_sign_agreement(4, 3.0, r);
    train_model m;
    learn_score(SCORE_PRODUCT, 2, r, &m);
    train_plan plan = {.steps = 2, .batch = 2, .rate = 0.1, .points = 3};
    gsl_matrix *curve = gsl_matrix_alloc(2, 3);
    cr_assert_eq(train_run(&o, "test", &m, d, d, &plan, r, curve), INVENT_ESHAPE);
    gsl_matrix_free(curve);
    train_model_release(&m);
    task_data_free(d);
    gsl_rng_free(r);
}

Test(progress, off_a_terminal_only_the_final_line_and_nothing_when_quiet,
     .init = cr_redirect_stdout)
{
    invent_opts loud = {.program = "test"}, quiet = {.program = "test", .quiet = 1};
    report_progress(&loud, 0, "step %d", 1); /* stdout is a pipe here: skipped */
    report_progress(&quiet, 1, "quiet %d", 2);
    report_progress(&loud, 1, "done %d", 3);
    fflush(stdout);
    cr_assert_stdout_eq_str("done 3\n");
}
