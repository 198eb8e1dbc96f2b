/* gemm32's driver: packs B by blocks of K (by panels of the path's NR
 * columns, zero past N) and shares the rows of C out between the workers as
 * the path's items (gemm32_body.h), in one run. */
#include "gemm32.h"

#include <string.h>

#include "gemm32_job.h"
#include "status.h"
#include "vec_path.h"
#include "workers.h"

size_t gemm32_scratch(size_t n_max, size_t k_max)
{
    size_t panels = (n_max + GEMM_NR_MAX - 1) / GEMM_NR_MAX + 1; /* any NR <= GEMM_NR_MAX */
    return (k_max > 0 ? k_max : 1) * panels * GEMM_NR_MAX; /* the workers read A in place */
}

/* B's rows k0 .. k0+kc-1 -> bp: (panels, kc, nr), zero past N; read along B's
 * contiguous direction (rows when b_cs is 1, columns otherwise) */
static void pack_b(const gemm32_args *g, size_t k0, size_t kc, size_t nr, float *bp)
{
    size_t panels = (g->N + nr - 1) / nr;
    for (size_t q = 0; q < panels; q++) {
        float *out = bp + q * kc * nr;
        size_t cols = g->N - q * nr < nr ? g->N - q * nr : nr;
        if (cols < nr)
            memset(out, 0, kc * nr * sizeof(float));
        if (g->b_cs == 1)
            for (size_t p = 0; p < kc; p++)
                memcpy(out + p * nr, g->b + (k0 + p) * g->b_rs + q * nr, cols * sizeof(float));
        else
            for (size_t c = 0; c < cols; c++) {
                const float *col = g->b + k0 * g->b_rs + (q * nr + c) * g->b_cs;
                for (size_t p = 0; p < kc; p++)
                    out[p * nr + c] = col[p * g->b_rs];
            }
    }
}

int gemm32_pack(const gemm32_args *g, float *bp)
{
    int status = INVENT_OK;
    const vec_path *path = vec_path_current(&status);
    if (!path)
        return status;
    size_t nr = path->gemm_nr, panels = (g->N + nr - 1) / nr;
    for (size_t k0 = 0; k0 < g->K; k0 += GEMM_KC)
        pack_b(g, k0, g->K - k0 < GEMM_KC ? g->K - k0 : GEMM_KC, nr, bp + k0 * panels * nr);
    return INVENT_OK;
}

/* g on path -> B's row stride where its rows are whole panels already (b_cs 1, N a
 * multiple of NR: read in place), else 0 (B packed, by gemm32_pack or into scratch) */
static size_t in_place_rs(const gemm32_args *g, const vec_path *path)
{
    return !g->packed && g->b_cs == 1 && g->N % path->gemm_nr == 0 ? g->b_rs : 0;
}

/* g on path, its B ready (packed, in place, or packed into scratch) -> its job; -> items */
static size_t job_of(const gemm32_args *g, const vec_path *path, float *scratch,
                     gemm32_job *j)
{
    /* few rows: their panels of columns are shared out too (a block of C is summed the
     * same way whoever computes it) */
    size_t rows = (g->M + GEMM_ROW_BLOCK - 1) / GEMM_ROW_BLOCK;
    size_t panels = (g->N + path->gemm_nr - 1) / path->gemm_nr;
    size_t groups = rows >= GEMM_FEW_ROWS ? 1 : panels < GEMM_FEW_ROWS ? panels : GEMM_FEW_ROWS;
    *j = (gemm32_job){.g = g, .bp = g->packed ? g->packed : scratch,
                      .b_rs = in_place_rs(g, path), .groups = groups,
                      .panels_per_item = (panels + groups - 1) / groups};
    return g->M == 0 || g->N == 0 ? 0 : rows * groups;
}

int gemm32(const gemm32_args *g, float *scratch, int workers)
{
    int status = INVENT_OK;
    const vec_path *path = vec_path_current(&status);
    if (!path)
        return status;
    if (g->M == 0 || g->N == 0)
        return INVENT_OK;
    if (!g->packed && !in_place_rs(g, path))
        status = gemm32_pack(g, scratch);
    gemm32_job j;
    size_t items = job_of(g, path, scratch, &j);
    return status != INVENT_OK ? status : workers_run(items, workers, path->gemm_item, &j);
}

/* Two products in one run: items 0..first-1 are the first's, the rest the second's. */
typedef struct {
    const vec_path *path;
    gemm32_job j[2];
    size_t first;
} pair_job;

static int pair_item(void *ctx, size_t item, int worker)
{
    const pair_job *p = ctx;
    int second = item >= p->first;
    return p->path->gemm_item((void *)&p->j[second], item - (second ? p->first : 0), worker);
}

int gemm32_pair(const gemm32_args *g1, const gemm32_args *g2, float *scratch, int workers)
{
    int status = INVENT_OK;
    const vec_path *path = vec_path_current(&status);
    if (!path)
        return status;
    int ready = (g1->packed || in_place_rs(g1, path)) && (g2->packed || in_place_rs(g2, path));
    if (!ready) {
        status = gemm32(g1, scratch, workers);
        return status != INVENT_OK ? status : gemm32(g2, scratch, workers);
    }
    pair_job p = {.path = path};
    p.first = job_of(g1, path, NULL, &p.j[0]);
    size_t items = p.first + job_of(g2, path, NULL, &p.j[1]);
    return workers_run(items, workers, pair_item, &p);
}
