#include "gpt_gradcheck.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_rng.h>

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

/* Sums of one tensor's comparison: ||g - g_fd||^2, ||g||^2, ||g_fd||^2. */
typedef struct {
    double diff, norm_g, norm_fd;
    size_t checked, kinks; /* entries compared, entries left out at a kink */
} fd_sums;

/* entry i of t, step h -> (L(p + h) - L(p - h)) / 2h */
static double central(const gpt_weights *w, const size_t *x, const size_t *y, gpt_trace *tr,
                      tensor_ref *t, size_t i, double h)
{
    return (nudged_loss(w, x, y, tr, t, i, h) - nudged_loss(w, x, y, tr, t, i, -h)) / (2.0 * h);
}

/* entry i of t, compared: adds to s, or, when the differences at h and h/2 disagree
 * beyond o->tol (a ReLU's kink within h of the entry), to s->kinks alone; 0, or -1 when
 * a forward pass failed */
static int compare_entry(const gpt_weights *w, const size_t *x, const size_t *y,
                         gpt_trace *tr, tensor_ref *t, size_t i, const gpt_fd_opts *o,
                         fd_sums *s)
{
    double fd = central(w, x, y, tr, t, i, o->h), half = central(w, x, y, tr, t, i, o->h / 2);
    if (isnan(fd) || isnan(half))
        return -1;
    if (fabs(fd - half) > o->tol * fmax(fmax(fabs(fd), fabs(half)), o->noise / o->tol)) {
        s->kinks++;
        return 0;
    }
    s->checked++;
    s->diff += (t->grad[i] - fd) * (t->grad[i] - fd);
    s->norm_g += t->grad[i] * t->grad[i];
    s->norm_fd += fd * fd;
    return 0;
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

/* whether every row of t is checked: the token and position embeddings */
static int every_row(const tensor_ref *t)
{
    return strcmp(t->name, "tok_emb") == 0 || strcmp(t->name, "pos_emb") == 0;
}

/* one tensor -> its relative error over the entries checked */
static double tensor_error(const gpt_weights *w, const size_t *x, const size_t *y,
                           gpt_trace *tr, tensor_ref *t, const gpt_fd_opts *o, gsl_rng *r,
                           size_t *kinks)
{
    fd_sums s = {0};
    int failed = 0;
    if (o->samples == 0 || o->samples >= t->size) {
        for (size_t i = 0; i < t->size && !failed; i++)
            failed = compare_entry(w, x, y, tr, t, i, o, &s);
    } else {
        double prev = INFINITY;
        size_t prev_i = 0;
        for (size_t k = 0; k < o->samples && !failed; k++)
            failed = compare_entry(w, x, y, tr, t, next_largest(t, &prev, &prev_i), o, &s);
        for (size_t k = 0; k < o->samples && !failed; k++)
            failed = compare_entry(w, x, y, tr, t, gsl_rng_uniform_int(r, t->size), o, &s);
        size_t cols = t->ndim == 2 ? t->shape[1] : t->size;
        for (size_t row = 0; every_row(t) && row < t->size / cols && !failed; row++)
            failed = compare_entry(w, x, y, tr, t, row * cols + gsl_rng_uniform_int(r, cols), o,
                                   &s);
    }
    if (failed)
        return NAN;
    *kinks += s.kinks;
    double floor = o->noise / o->tol * sqrt((double)s.checked);
    double scale = fmax(sqrt(fmax(s.norm_g, s.norm_fd)), floor);
    return scale > 0.0 ? sqrt(s.diff) / scale : 0.0;
}

double gpt_gradcheck(gpt_weights *w, gpt_weights *g, const size_t *x, const size_t *y,
                     gpt_trace *tr, const gpt_fd_opts *o, gsl_rng *r, size_t *kinks)
{
    *kinks = 0;
    size_t count = gpt_tensor_count(&w->shape);
    tensor_ref t[count];
    gpt_tensors(w, g, t);
    double worst = 0.0;
    for (size_t k = 0; k < count; k++) {
        double e = tensor_error(w, x, y, tr, &t[k], o, r, kinks);
        if (isnan(e))
            return NAN;
        worst = fmax(worst, e);
    }
    return worst;
}
