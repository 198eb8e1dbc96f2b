/* The gap the float32 path's tests measure against the float64 path: a
 * relative norm of the difference (test_gpt32.c, test_ablation32.c,
 * test_attn_train.c). */
#ifndef INVENT_TESTS_REL_NORM32_H
#define INVENT_TESTS_REL_NORM32_H

#include <math.h>
#include <stddef.h>

/* a: (n) float32, b: (n) float64 -> ||a - b|| / ||b|| (||a - b|| when b = 0) */
static inline double rel_norm(const float *a, const double *b, size_t n)
{
    double diff = 0.0, top = 0.0;
    for (size_t i = 0; i < n; i++) {
        diff += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
        top += b[i] * b[i];
    }
    return top > 0.0 ? sqrt(diff / top) : sqrt(diff);
}

#endif
