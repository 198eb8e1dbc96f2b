#include "train_step.h"

#include "status.h"
#include "stopwatch.h"

int train_step(const step_plan *p, size_t step, const size_t *x, const size_t *y,
               step_report *out)
{
    step_report r = {.rate = lr_at(&p->sch, step)};
    double t0 = stopwatch_now();
    grad_zero(p->t, p->count);
    int status = p->forward(p->model, x, y, &r.loss);
    double t1 = stopwatch_now();
    if (status == INVENT_OK)
        status = p->backward(p->model, x, y);
    double t2 = stopwatch_now();
    if (status == INVENT_OK && p->inspect)
        p->inspect(p->ctx, step, r.loss, r.rate);
    double t3 = stopwatch_now();
    if (status == INVENT_OK) {
        r.norm = grad_clip(p->t, p->count, p->clip);
        status = adamw_step(p->opt, p->t, p->count, r.rate);
    }
    r.seconds[0] = t1 - t0, r.seconds[1] = t2 - t1, r.seconds[2] = stopwatch_now() - t3;
    if (out)
        *out = r;
    return status;
}

int gpt_batch_forward(void *model, const size_t *x, const size_t *y, double *loss)
{
    gpt_batch *b = model;
    return gpt_forward(b->w, x, y, b->tr, loss);
}

int gpt_batch_backward(void *model, const size_t *x, const size_t *y)
{
    gpt_batch *b = model;
    return gpt_backward(b->w, x, y, b->tr, b->g, b->work);
}
