/* The two loops that measure the machine, written once for a vector of VW
 * floats and compiled by each vector path: a register-only loop of
 * independent multiply-adds (the arithmetic limit) and a read-only sum over
 * a buffer (the memory limit). The including file defines vf, VW, vf_sum,
 * FMA_CHAINS (independent accumulators that fit the registers), FMA_ITEM
 * and READ_ITEM, the functions' names. */
#include "machine_job.h"
#include "status.h"
#include "vec_ops.h"

/* FMA_CHAINS accumulators, each acc <- acc * x + y, j->rounds times; the
 * sum goes to the worker's sink so that the compiler keeps the work */
int FMA_ITEM(void *ctx, size_t item, int worker)
{
    fma_job *j = ctx;
    vf acc[FMA_CHAINS], x = vsplat(j->x), y = vsplat(j->y), total = {0};
    for (int c = 0; c < FMA_CHAINS; c++)
        acc[c] = vsplat((float)(item + (size_t)c) * 1e-3f);
    for (size_t r = 0; r < j->rounds; r++)
#pragma GCC unroll 32
        for (int c = 0; c < FMA_CHAINS; c++)
            acc[c] = acc[c] * x + y;
    for (int c = 0; c < FMA_CHAINS; c++)
        total += acc[c];
    j->sink[worker] += vf_sum(total);
    return INVENT_OK;
}

/* one part of the buffer, read once with four vector sums */
int READ_ITEM(void *ctx, size_t item, int worker)
{
    read_job *j = ctx;
    size_t lo = item * j->part, hi = lo + j->part < j->n ? lo + j->part : j->n, i = lo;
    vf s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    for (; i + 4 * VW <= hi; i += 4 * VW) {
        s0 += vload(j->buf + i);
        s1 += vload(j->buf + i + VW);
        s2 += vload(j->buf + i + 2 * VW);
        s3 += vload(j->buf + i + 3 * VW);
    }
    float sum = vf_sum(s0 + s1 + s2 + s3);
    for (; i < hi; i++)
        sum += j->buf[i];
    j->sink[worker] += sum;
    return INVENT_OK;
}
