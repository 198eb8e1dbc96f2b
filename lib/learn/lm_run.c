#include "lm_run.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "adamw.h"
#include "rng.h"
#include "schedule.h"
#include "status.h"
#include "stopwatch.h"
#include "train_step.h"

#define CLIP 1.0  /* the largest gradient norm, as in chapter 13 */
#define DECAY 0.1 /* AdamW's weight decay, as in chapter 13 */
#define BETA2 0.99 /* AdamW's second-moment decay, as in chapter 13 */

/* One batch's buffers. */
typedef struct {
    size_t *x, *y, *starts; /* (B*T), (B*T), (B) */
    double *sums;           /* (T) */
} batch;

static void batch_free(batch *b)
{
    free(b->x), free(b->y), free(b->starts), free(b->sums);
}

static int batch_alloc(batch *b, size_t B, size_t T)
{
    *b = (batch){calloc(B * T, sizeof(size_t)), calloc(B * T, sizeof(size_t)),
                 calloc(B, sizeof(size_t)), calloc(T, sizeof(double))};
    if (b->x && b->y && b->starts && b->sums)
        return INVENT_OK;
    batch_free(b);
    return INVENT_ENOMEM;
}

/* windows: (n), b's buffers -> *loss, the mean over every token; by_position: (T) or NULL */
static int evaluate_with(const lm_plan *p, const lm_model *m, const size_t *windows, size_t n,
                         batch *b, double *loss, double *by_position)
{
    size_t B = p->B, T = p->T;
    if (n == 0 || n % B != 0)
        return INVENT_ERANGE;
    memset(b->sums, 0, T * sizeof(double));
    for (size_t i = 0; i < n; i += B) {
        corpus_window(p->text, windows + i, B, T, b->x, b->y);
        const double *losses;
        int status = m->evaluate(m->model, b->x, b->y, &losses);
        if (status != INVENT_OK)
            return status;
        for (size_t k = 0; k < B * T; k++)
            b->sums[k % T] += losses[k];
    }
    double total = 0.0;
    for (size_t t = 0; t < T; t++) {
        total += b->sums[t];
        if (by_position)
            by_position[t] = b->sums[t] / (double)n;
    }
    *loss = total / (double)(n * T);
    return INVENT_OK;
}

int lm_evaluate(const lm_plan *p, const lm_model *m, const size_t *windows, size_t n,
                double *loss, double *by_position)
{
    batch b;
    if (batch_alloc(&b, p->B, p->T) != INVENT_OK)
        return INVENT_ENOMEM;
    int status = evaluate_with(p, m, windows, n, &b, loss, by_position);
    batch_free(&b);
    return status;
}

/* the steps, with the curve's evaluations after each of p->points parts */
static int train_with(const lm_plan *p, const lm_model *m, adamw *opt, batch *b, lm_result *out)
{
    step_plan plan = {.model = m->model, .forward = m->train_forward, .backward = m->backward,
                      .t = m->t, .count = m->count, .opt = opt, .clip = CLIP,
                      .sch = {.peak = p->rate, .floor = p->rate / 10, .warmup = p->steps / 10,
                              .decay = p->steps}};
    gsl_rng *stream = rng_new(p->seed);
    if (!stream)
        return INVENT_ENOMEM;
    int status = INVENT_OK;
    double seconds = 0.0;
    for (size_t step = 0, next = 1; status == INVENT_OK && step < p->steps; step++) {
        double t0 = stopwatch_now();
        status = corpus_draw(p->text, CORPUS_TRAIN, p->B, p->T, stream, b->starts);
        if (status == INVENT_OK) {
            corpus_window(p->text, b->starts, p->B, p->T, b->x, b->y);
            status = train_step(&plan, step, b->x, b->y, NULL);
        }
        seconds += stopwatch_now() - t0;
        if (status == INVENT_OK && out->curve && step + 1 == next * p->steps / p->points)
            status = evaluate_with(p, m, p->curve_windows, p->n_curve, b,
                                   &out->curve[next++ - 1], NULL);
    }
    gsl_rng_free(stream);
    out->seconds = seconds;
    return status;
}

int lm_run(const lm_plan *p, const lm_model *m, lm_result *out)
{
    if (p->n_windows % p->B != 0 ||
        (out->curve && (p->points == 0 || p->points > p->steps || p->n_curve % p->B != 0)))
        return INVENT_ERANGE;
    batch b;
    adamw opt;
    if (batch_alloc(&b, p->B, p->T) != INVENT_OK)
        return INVENT_ENOMEM;
    int status = adamw_init(&opt, m->t, m->count, DECAY);
    if (status == INVENT_OK) {
        opt.beta2 = BETA2;
        status = train_with(p, m, &opt, &b, out);
        adamw_free(&opt);
    }
    if (status == INVENT_OK)
        status = evaluate_with(p, m, p->windows, p->n_windows, &b, &out->loss, out->by_position);
    batch_free(&b);
    return status;
}
