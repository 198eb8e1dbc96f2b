/* gemm32's work item, written once for a vector of VW floats and compiled by
 * each vector path. One item is a block of GEMM_ROW_BLOCK rows of C for one
 * block of K: for every GEMM_MR rows, A's entries are packed (kc, MR), then
 * each panel of NR = GEMM_NV VW columns of packed B is multiplied into a
 * register block of GEMM_MR x GEMM_NV vectors (one broadcast of A's entry
 * against GEMM_NV vectors of B's row, per row) and added to C.
 * The including file defines vf, VW, GEMM_MR, GEMM_NV and GEMM_ITEM. */
#include <string.h>

#include "gemm32_job.h"
#include "status.h"
#include "vec_ops.h"

#define GEMM_NR (GEMM_NV * VW)

/* ap: (kc, MR), bp: (kc, NR) -> c: (mr <= MR rows, ldc apart; nr <= NR columns) += ap bp */
static __attribute__((noinline)) void GEMM_MICRO(size_t kc, const float *ap, const float *bp,
                                                  float *c, size_t ldc, size_t mr, size_t nr)
{
    vf acc[GEMM_MR][GEMM_NV];
#pragma GCC unroll 8
    for (int r = 0; r < GEMM_MR; r++)
#pragma GCC unroll 4
        for (int v = 0; v < GEMM_NV; v++)
            acc[r][v] = vsplat(0.0f);
    for (size_t p = 0; p < kc; p++) {
        vf b[GEMM_NV];
#pragma GCC unroll 4
        for (int v = 0; v < GEMM_NV; v++)
            b[v] = vload(bp + p * GEMM_NR + v * VW);
#pragma GCC unroll 8
        for (int r = 0; r < GEMM_MR; r++) {
            vf a = vsplat(ap[p * GEMM_MR + r]);
#pragma GCC unroll 4
            for (int v = 0; v < GEMM_NV; v++)
                acc[r][v] += a * b[v];
        }
    }
    if (mr == GEMM_MR && nr == GEMM_NR) {
#pragma GCC unroll 8
        for (int r = 0; r < GEMM_MR; r++)
#pragma GCC unroll 4
            for (int v = 0; v < GEMM_NV; v++)
                vstore(c + r * ldc + v * VW, vload(c + r * ldc + v * VW) + acc[r][v]);
        return;
    }
    float tile[GEMM_MR * GEMM_NR];
    for (int r = 0; r < GEMM_MR; r++)
        for (int v = 0; v < GEMM_NV; v++)
            vstore(tile + r * GEMM_NR + v * VW, acc[r][v]);
    for (size_t r = 0; r < mr; r++)
        for (size_t j = 0; j < nr; j++)
            c[r * ldc + j] += tile[r * GEMM_NR + j];
}

/* rows i0 .. i0+mr-1 of A, columns k0 .. k0+kc-1 -> ap: (kc, MR), zero past mr */
INLINE void gemm_pack_a(const gemm32_args *g, size_t i0, size_t mr, size_t k0, size_t kc,
                        float *ap)
{
    for (size_t p = 0; p < kc; p++)
        for (size_t r = 0; r < GEMM_MR; r++)
            ap[p * GEMM_MR + r] = r < mr ? g->a[(i0 + r) * g->a_rs + (k0 + p) * g->a_cs] : 0.0f;
}

static int GEMM_ITEM(void *ctx, size_t item, int worker)
{
    const gemm32_job *j = ctx;
    const gemm32_args *g = j->g;
    float *ap = j->ap + (size_t)worker * GEMM_KC * GEMM_MR_MAX;
    size_t end = (item + 1) * GEMM_ROW_BLOCK < g->M ? (item + 1) * GEMM_ROW_BLOCK : g->M;
    size_t panels = (g->N + GEMM_NR - 1) / GEMM_NR;
    for (size_t i0 = item * GEMM_ROW_BLOCK; i0 < end; i0 += GEMM_MR) {
        size_t mr = end - i0 < GEMM_MR ? end - i0 : GEMM_MR;
        gemm_pack_a(g, i0, mr, j->k0, j->kc, ap);
        for (size_t q = 0; q < panels; q++) {
            size_t nr = g->N - q * GEMM_NR < GEMM_NR ? g->N - q * GEMM_NR : GEMM_NR;
            GEMM_MICRO(j->kc, ap, j->bp + q * j->kc * GEMM_NR, g->c + i0 * g->ldc + q * GEMM_NR,
                       g->ldc, mr, nr);
        }
    }
    return INVENT_OK;
}

#undef GEMM_NR
