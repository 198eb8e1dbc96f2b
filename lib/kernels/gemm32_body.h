/* gemm32's work item, written once for a vector of VW floats and compiled by
 * each vector path. One item is a block of GEMM_ROW_BLOCK rows of C (and of a
 * group of its panels of columns, gemm32_job.h), taken through B's blocks of
 * K in order: for every GEMM_MR rows of A (read in place, by their strides),
 * each panel of NR = GEMM_NV VW columns of B (packed, or its rows in place) is
 * multiplied into a register block of GEMM_MR x GEMM_NV vectors (one broadcast
 * of A's entry against GEMM_NV vectors of B's row, per row) and added to C
 * (written, for the first block of K when init has no bias); then, with a
 * gate, the finished block is kept where the gate is positive.
 * The including file defines vf, VW, GEMM_MR, GEMM_NV and GEMM_ITEM. */
#include <string.h>

#include "gemm32.h"
#include "gemm32_job.h"
#include "status.h"
#include "vec_ops.h"

#define GEMM_NR (GEMM_NV * VW)

/* x -> x in every lane, one broadcast from memory (x - 0 is x, even for -0, so the
 * compiler needs no scalar add first, as it does for vsplat's 0 + x) */
INLINE vf gemm_broadcast(float x) { return x - (vf){0}; }

/* a: MR rows of A (a_rs apart, entries a_cs apart; the rows past mr repeat
 * the last), bp: (kc, NR) rows b_rs apart -> c: (mr rows, ldc apart; nr <= NR
 * columns) += A bp (add 0: = A bp) */
static __attribute__((noinline)) void GEMM_MICRO(size_t kc, const float *a, size_t a_rs,
                                                  size_t a_cs, size_t mr, const float *bp,
                                                  size_t b_rs, float *c, size_t ldc, size_t nr,
                                                  int add)
{
    vf acc[GEMM_MR][GEMM_NV];
    const float *row[GEMM_MR];
#pragma GCC unroll 8
    for (int r = 0; r < GEMM_MR; r++) {
        row[r] = a + ((size_t)r < mr ? (size_t)r : mr - 1) * a_rs;
#pragma GCC unroll 4
        for (int v = 0; v < GEMM_NV; v++)
            acc[r][v] = vsplat(0.0f);
    }
    for (size_t p = 0; p < kc; p++) {
        vf b[GEMM_NV];
#pragma GCC unroll 4
        for (int v = 0; v < GEMM_NV; v++)
            b[v] = vload(bp + p * b_rs + v * VW);
#pragma GCC unroll 8
        for (int r = 0; r < GEMM_MR; r++) {
            vf x = gemm_broadcast(row[r][p * a_cs]);
#pragma GCC unroll 4
            for (int v = 0; v < GEMM_NV; v++)
                acc[r][v] += x * b[v];
        }
    }
    if (mr == GEMM_MR && nr == GEMM_NR) {
#pragma GCC unroll 8
        for (int r = 0; r < GEMM_MR; r++)
#pragma GCC unroll 4
            for (int v = 0; v < GEMM_NV; v++)
                vstore(c + r * ldc + v * VW,
                       add ? vload(c + r * ldc + v * VW) + acc[r][v] : acc[r][v]);
        return;
    }
    float tile[GEMM_MR * GEMM_NR];
    for (int r = 0; r < GEMM_MR; r++)
        for (int v = 0; v < GEMM_NV; v++)
            vstore(tile + r * GEMM_NR + v * VW, acc[r][v]);
    for (size_t r = 0; r < mr; r++)
        for (size_t j = 0; j < nr; j++)
            c[r * ldc + j] = add ? c[r * ldc + j] + tile[r * GEMM_NR + j] : tile[r * GEMM_NR + j];
}

/* c, gate: one row -> c[j] = gate[j] > 0 ? c[j] : 0 for j in c0..c1-1 */
INLINE void gate_row(float *c, const float *gate, size_t c0, size_t c1)
{
    size_t j = c0;
    for (; j + VW <= c1; j += VW)
        vstore(c + j, VSELECT(vload(gate + j) > 0.0f, vload(c + j), vsplat(0.0f)));
    for (; j < c1; j++)
        c[j] = gate[j] > 0.0f ? c[j] : 0.0f;
}

static int GEMM_ITEM(void *ctx, size_t item, int worker)
{
    const gemm32_job *j = ctx;
    const gemm32_args *g = j->g;
    (void)worker;
    size_t block = item / j->groups, q0 = item % j->groups * j->panels_per_item;
    size_t end = (block + 1) * GEMM_ROW_BLOCK < g->M ? (block + 1) * GEMM_ROW_BLOCK : g->M;
    size_t panels = (g->N + GEMM_NR - 1) / GEMM_NR;
    size_t q1 = q0 + j->panels_per_item < panels ? q0 + j->panels_per_item : panels;
    size_t c0 = q0 * GEMM_NR, c1 = q1 * GEMM_NR < g->N ? q1 * GEMM_NR : g->N;
    for (size_t i = block * GEMM_ROW_BLOCK; g->init && (g->bias || g->K == 0) && i < end; i++)
        if (g->bias)
            memcpy(g->c + i * g->ldc + c0, g->bias + c0, (c1 - c0) * sizeof(float));
        else
            memset(g->c + i * g->ldc + c0, 0, (c1 - c0) * sizeof(float));
    for (size_t k0 = 0; k0 < g->K; k0 += GEMM_KC) {
        size_t kc = g->K - k0 < GEMM_KC ? g->K - k0 : GEMM_KC;
        /* B's rows k0.. packed, or in place (j->b_rs: rows that far apart) */
        const float *bp = j->b_rs ? g->b + k0 * j->b_rs : j->bp + k0 * panels * GEMM_NR;
        size_t b_rs = j->b_rs ? j->b_rs : GEMM_NR, panel = j->b_rs ? GEMM_NR : kc * GEMM_NR;
        int add = k0 > 0 || !g->init || g->bias; /* init without bias: the first block writes */
        for (size_t i0 = block * GEMM_ROW_BLOCK; i0 < end; i0 += GEMM_MR) {
            size_t mr = end - i0 < GEMM_MR ? end - i0 : GEMM_MR;
            const float *a = g->a + i0 * g->a_rs + k0 * g->a_cs;
            for (size_t q = q0; q < q1; q++) {
                size_t nr = g->N - q * GEMM_NR < GEMM_NR ? g->N - q * GEMM_NR : GEMM_NR;
                GEMM_MICRO(kc, a, g->a_rs, g->a_cs, mr, bp + q * panel, b_rs,
                           g->c + i0 * g->ldc + q * GEMM_NR, g->ldc, nr, add);
            }
        }
    }
    for (size_t i = block * GEMM_ROW_BLOCK; g->gate && i < end; i++)
        gate_row(g->c + i * g->ldc, g->gate + i * g->ldc, c0, c1);
    return INVENT_OK;
}

#undef GEMM_NR
