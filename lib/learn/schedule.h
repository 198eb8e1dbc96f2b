/* The learning rate over training, as nanoGPT sets it: a linear warm-up
 * from almost 0 to the peak, then a half cosine down to a floor (Loshchilov
 * and Hutter, 2017), then the floor. */
#ifndef INVENT_SCHEDULE_H
#define INVENT_SCHEDULE_H

#include <stddef.h>

typedef struct {
    double peak, floor; /* the largest and the last rate */
    size_t warmup;      /* steps of the linear warm-up */
    size_t decay;       /* step at which the cosine reaches the floor (> warmup) */
} lr_schedule;

/* step s (from 0) -> peak (s + 1)/(warmup + 1) while s < warmup; then
 * floor + (peak - floor)(1 + cos(pi (s - warmup)/(decay - warmup)))/2 up to
 * decay; the floor after */
double lr_at(const lr_schedule *sch, size_t step);

#endif
