#include "train.h"

#include <math.h>
#include <time.h>

#include "adam.h"
#include "report.h"
#include "status.h"
#include "xent.h"

void train_model_release(train_model *m)
{
    if (m->release)
        m->release(m->self);
    *m = (train_model){0};
}

int train_evaluate(const train_model *m, const task_data *data, double *loss, double *accuracy)
{
    gsl_matrix *z = gsl_matrix_alloc(1, data->classes);
    if (!z)
        return INVENT_ENOMEM;
    double total = 0.0;
    size_t right = 0;
    int status = INVENT_OK;
    for (size_t i = 0; i < data->n && status == INVENT_OK; i++) {
        double l = 0.0;
        size_t c = 0;
        status = m->forward(m->self, data->x[i], z);
        if (status == INVENT_OK)
            status = xent_forward(z, &data->y[i], &l, &c);
        total += l;
        right += c;
    }
    gsl_matrix_free(z);
    *loss = total / (double)data->n;
    *accuracy = (double)right / (double)data->n;
    return status;
}

/* one example: forward, loss, backward with dz scaled by 1/batch; z, dz: (1, classes) */
static int example_step(const train_model *m, const gsl_matrix *x, size_t y, double batch,
                        gsl_matrix *z, gsl_matrix *dz, double *loss, size_t *right)
{
    double l;
    size_t c;
    int status = m->forward(m->self, x, z);
    if (status == INVENT_OK)
        status = xent_forward(z, &y, &l, &c);
    gsl_matrix_set_zero(dz);
    if (status == INVENT_OK)
        status = xent_backward(z, &y, dz);
    if (status != INVENT_OK)
        return status;
    gsl_matrix_scale(dz, 1.0 / batch);
    *loss += l / batch;
    *right += c;
    return m->backward(m->self, x, dz);
}

/* a batch drawn with replacement -> gradients, mean loss, accuracy; then Adam */
static int batch_step(const train_model *m, const task_data *data, size_t batch, gsl_rng *r,
                      adam *opt, gsl_matrix *z, double *loss, double *accuracy)
{
    params_zero_grad(m->params);
    *loss = 0.0;
    size_t right = 0;
    for (size_t b = 0; b < batch; b++) {
        size_t i = gsl_rng_uniform_int(r, data->n);
        gsl_matrix_view zi = gsl_matrix_submatrix(z, 0, 0, 1, z->size2),
                        dzi = gsl_matrix_submatrix(z, 1, 0, 1, z->size2);
        int status = example_step(m, data->x[i], data->y[i], (double)batch, &zi.matrix,
                                  &dzi.matrix, loss, &right);
        if (status != INVENT_OK)
            return status;
    }
    *accuracy = (double)right / (double)batch;
    return adam_step(opt, m->params);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* evaluation number k (0 .. points-1) falls after this many steps */
static size_t eval_step(const train_plan *plan, size_t k)
{
    return plan->points < 2 ? plan->steps : k * plan->steps / (plan->points - 1);
}

static int record(const train_model *m, const task_data *test, size_t step, size_t row,
                  gsl_matrix *curve)
{
    double loss, acc;
    int status = train_evaluate(m, test, &loss, &acc);
    gsl_matrix_set(curve, row, 0, (double)step);
    gsl_matrix_set(curve, row, 1, loss);
    gsl_matrix_set(curve, row, 2, acc);
    return status;
}

/* while running: the last batch's loss and accuracy; when done: the held-out ones */
static void progress(const invent_opts *o, const char *label, size_t step, size_t steps,
                     double loss, double acc, double start, int done)
{
    double elapsed = seconds_now() - start;
    report_progress(o, done, "  %-30s step %5zu/%zu  %s loss %.4f, accuracy %.3f  %6.0f steps/s",
                    label, step, steps, done ? "held-out" : "   batch", loss, acc,
                    elapsed > 0.0 ? (double)step / elapsed : 0.0);
}

/* the held-out loss of evaluation `row` -> whether training should stop:
 * `patience` evaluations in a row without a 1% gain on the best so far */
static int plateau(const train_plan *plan, const gsl_matrix *curve, size_t row, double *best,
                   size_t *idle)
{
    double loss = gsl_matrix_get(curve, row, 1);
    if (row == 0 || loss < 0.99 * *best) {
        *best = row == 0 ? loss : fmin(*best, loss);
        *idle = 0;
    } else {
        *best = fmin(*best, loss);
        ++*idle;
    }
    return plan->patience > 0 && *idle >= plan->patience;
}

/* rows after `row` <- a copy of it */
static void hold_last(gsl_matrix *curve, size_t row)
{
    gsl_vector_view last = gsl_matrix_row(curve, row);
    for (size_t k = row + 1; k < curve->size1; k++)
        gsl_matrix_set_row(curve, k, &last.vector);
}

/* the training loop proper, ending with the progress line of the last evaluation */
static int train_loop(const invent_opts *o, const char *label, const train_model *m,
                      const task_data *train_set, const task_data *test_set,
                      const train_plan *plan, gsl_rng *r, adam *opt, gsl_matrix *z,
                      gsl_matrix *curve)
{
    double start = seconds_now(), loss = 0.0, acc = 0.0, shown = start, best = 0.0;
    size_t next = 0, idle = 0, step = 0;
    int status = INVENT_OK, stop = 0;
    for (; status == INVENT_OK && !stop && step <= plan->steps; step++) {
        while (next < plan->points && eval_step(plan, next) == step && status == INVENT_OK &&
               !stop) {
            status = record(m, test_set, step, next, curve);
            stop = plateau(plan, curve, next++, &best, &idle);
        }
        if (stop)
            hold_last(curve, next - 1);
        else if (step < plan->steps && status == INVENT_OK)
            status = batch_step(m, train_set, plan->batch, r, opt, z, &loss, &acc);
        if (step < plan->steps && seconds_now() - shown > 0.1) {
            progress(o, label, step + 1, plan->steps, loss, acc, start, 0);
            shown = seconds_now();
        }
    }
    if (status == INVENT_OK)
        progress(o, label, step - 1, plan->steps, gsl_matrix_get(curve, next - 1, 1),
                 gsl_matrix_get(curve, next - 1, 2), start, 1);
    return status;
}

int train_run(const invent_opts *o, const char *label, const train_model *m,
              const task_data *train_set, const task_data *test_set, const train_plan *plan,
              gsl_rng *r, gsl_matrix *curve)
{
    if (curve->size1 != plan->points || curve->size2 != 3 || plan->points == 0 ||
        plan->batch == 0 || train_set->classes != test_set->classes)
        return INVENT_ESHAPE;
    adam opt;
    gsl_matrix *z = gsl_matrix_alloc(2, train_set->classes); /* logits and their gradient */
    int status = z ? adam_init(&opt, m->params, plan->rate) : INVENT_ENOMEM;
    if (status != INVENT_OK) {
        gsl_matrix_free(z);
        return status;
    }
    status = train_loop(o, label, m, train_set, test_set, plan, r, &opt, z, curve);
    adam_free(&opt);
    gsl_matrix_free(z);
    return status;
}
