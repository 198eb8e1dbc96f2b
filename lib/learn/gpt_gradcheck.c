#include "gpt_gradcheck.h"

#include <math.h>

#include "status.h"

/* the loss with entry i of t nudged by delta; the entry is put back */
static double nudged_loss(const gpt_weights *w, const size_t *x, const size_t *y,
                          gpt_trace *tr, tensor_ref *t, size_t i, double delta)
{
    double keep = t->value[i], loss = NAN;
    t->value[i] = keep + delta;
    if (gpt_forward(w, x, y, tr, &loss) != INVENT_OK)
        loss = NAN;
    t->value[i] = keep;
    return loss;
}

/* t, k -> the index of the k-th largest |grad| (k from 0), found by a scan
 * below the (k-1)-th: *prev holds its magnitude and index between calls */
static size_t next_largest(const tensor_ref *t, double *prev, size_t *prev_i)
{
    size_t best = t->size;
    for (size_t i = 0; i < t->size; i++) {
        double a = fabs(t->grad[i]);
        int below = a < *prev || (a == *prev && i > *prev_i);
        if (below && (best == t->size || a > fabs(t->grad[best])))
            best = i;
    }
    *prev = fabs(t->grad[best]);
    *prev_i = best;
    return best;
}

/* one tensor -> its relative error over the entries checked */
static double tensor_error(const gpt_weights *w, const size_t *x, const size_t *y,
                           gpt_trace *tr, tensor_ref *t, size_t samples, double h)
{
    size_t n = samples == 0 || samples > t->size ? t->size : samples;
    double diff = 0.0, norm_g = 0.0, norm_fd = 0.0, prev = INFINITY;
    size_t prev_i = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = n == t->size ? k : next_largest(t, &prev, &prev_i);
        double fd = (nudged_loss(w, x, y, tr, t, i, h) - nudged_loss(w, x, y, tr, t, i, -h)) /
                    (2.0 * h);
        if (isnan(fd))
            return NAN;
        diff += (t->grad[i] - fd) * (t->grad[i] - fd);
        norm_g += t->grad[i] * t->grad[i];
        norm_fd += fd * fd;
    }
    double scale = sqrt(fmax(norm_g, norm_fd));
    return scale > 0.0 ? sqrt(diff) / scale : 0.0;
}

double gpt_gradcheck(gpt_weights *w, gpt_weights *g, const size_t *x, const size_t *y,
                     gpt_trace *tr, size_t samples, double h)
{
    size_t count = gpt_tensor_count(&w->shape);
    tensor_ref t[count];
    gpt_tensors(w, g, t);
    double worst = 0.0;
    for (size_t k = 0; k < count; k++) {
        double e = tensor_error(w, x, y, tr, &t[k], samples, h);
        if (isnan(e))
            return NAN;
        worst = fmax(worst, e);
    }
    return worst;
}
