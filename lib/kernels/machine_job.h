/* What the machine measurements (machine.c) hand to a vector path's loops
 * (machine_body.h). */
#ifndef INVENT_MACHINE_JOB_H
#define INVENT_MACHINE_JOB_H

#include <stddef.h>

typedef struct {
    size_t rounds;   /* multiply-adds per accumulator in one item */
    float x, y;      /* acc <- acc * x + y */
    double *sink;    /* one per worker */
} fma_job;

typedef struct {
    const float *buf;
    size_t n, part;  /* floats in all, floats per item */
    double *sink;    /* one per worker */
} read_job;

#endif
