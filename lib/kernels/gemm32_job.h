/* What gemm32.c hands to a vector path's product items (gemm32_body.h):
 * B packed by blocks of GEMM_KC rows, and the blocks of C to share out. The
 * product's header (gemm32.h) is not included: this one names its arguments
 * without it, a one-way dependency. */
#ifndef INVENT_GEMM32_JOB_H
#define INVENT_GEMM32_JOB_H

#include <stddef.h>

struct gemm32_args;

#define GEMM_NR_MAX 32   /* the most columns of a register block, on any path */
#define GEMM_ROW_BLOCK 32 /* rows of C per work item (a multiple of every path's MR) */
#define GEMM_FEW_ROWS 4    /* below this many blocks of rows, the columns are split too */

typedef struct {
    const struct gemm32_args *g;
    const float *bp;   /* per block k0 of K, at k0 * panels * NR: (panels, kc, NR), its rows
                        * packed by panels of NR columns */
    size_t b_rs;       /* 0, or B read in place, its rows b_rs apart (N a multiple of NR) */
    size_t groups;          /* groups of panels per block of rows: item = block groups + group */
    size_t panels_per_item; /* panels in a group (the last may have fewer) */
} gemm32_job;

#endif
