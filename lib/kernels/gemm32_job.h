/* What gemm32.c hands to a vector path's product items (gemm32_body.h):
 * one block of K (GEMM_KC rows of B, packed) and the rows of C to share out. */
#ifndef INVENT_GEMM32_JOB_H
#define INVENT_GEMM32_JOB_H

#include <stddef.h>

#include "gemm32.h"

#define GEMM_NR_MAX 32   /* the most columns of a register block, on any path */
#define GEMM_ROW_BLOCK 32 /* rows of C per work item (a multiple of every path's MR) */

typedef struct {
    const gemm32_args *g;
    size_t k0, kc;     /* this block of K */
    const float *bp;   /* (panels, kc, NR): B's rows k0.. packed by panels of NR columns */
} gemm32_job;

#endif
