/* The tiled kernel's work item, written once for a vector of VW floats and
 * compiled by each vector path (vec_avx512.c, vec_avx2.c, vec_portable.c
 * with TILE_BLAS). One item is one
 * (head, panel of PANEL queries) pair. The panel's queries are packed once,
 * transposed and multiplied only by the sign of the scale (exact), so that
 * the scores and their running maximum are the raw dot products: the
 * maximum is subtracted before the scores are scaled by |scale| log2(e),
 * and where the scores are exact (integer inputs, say) the differences that
 * reach 2^x are exact too; scaling the queries first would round every
 * score (about 1e-3 in the exponent at scores of 1e4) before the
 * subtraction. Then the key tiles the mask (or a block list) leaves are
 * streamed past, each in three steps:
 *   scores  st (keys, PANEL) = K_tile qt, a register-blocked product that
 *           broadcasts one key entry against vectors of queries; masked
 *           entries become -inf and each query's tile maximum is kept;
 *   softmax the online step on every query lane (tile_job.h's contract),
 *           2^(factor (st - m)) with factor = |scale| log2(e);
 *   values  ot (dh, PANEL) = alpha ot + V_tile^T st, the same register
 *           block, broadcasting one value entry against vectors of weights.
 * Queries run across the vector lanes in every step, so a query's running
 * maximum and sum are plain lane-wise operations. The keys past the
 * panel's first query are taken VW at a time, each for the query vectors
 * that can see them. out = ot^T / l at the end.
 *
 * The including file defines: vf (a vector of VW floats), VW, TILE_ROWS and
 * TILE_COLS (the register block: TILE_ROWS broadcast rows by TILE_COLS
 * vectors of queries), TILE_PACK (1: copy each key and value tile into a
 * contiguous buffer first, which pays where a panel is wide enough to share
 * the copy), vf_max(a, b), vf_sum(v), vf_exp2(x) (2^x for x <= 0, exactly 0
 * below -126 and for -inf), and TILE_ITEM, the name of the item function; with TILE_BLAS the two products are cblas_sgemm calls on whole
 * tiles instead (the portable path). */
#include <math.h>
#include <string.h>

#include "attn_kernels.h"
#include "status.h"
#include "tile_job.h"
#include "vec_ops.h"

#define PANEL (TILE_COLS * VW)
/* Each step of an item is a function of its own (not inlined into the
 * item), so that the compiler gives each inner loop the registers it needs
 * rather than sharing them across one large function. */
#define STEP static __attribute__((noinline))

/* one worker's buffers, carved from its scratch */
typedef struct {
    float *qt;    /* (dh, PANEL) the panel's queries, transposed, times the scale's sign */
    float *ot;    /* (dh, PANEL) unnormalised output, transposed */
    float *st;    /* (keys, PANEL) scores, then 2^(score - m) */
    float *m;     /* (PANEL) running maximum per query (raw scores) */
    float *l;     /* (PANEL) running sum per query */
    float *alpha; /* (PANEL) this tile's rescaling per query */
    float *tmax;  /* (PANEL) this tile's maximum per query */
    float *kv;    /* (keys, dh) the tile's key rows, then its value rows (TILE_PACK) */
} panel_bufs;

/* the problem's pointers for one head, and the panel's first query */
typedef struct {
    const attn_shape *s;
    const float *K, *V; /* head h's column offset applied; rows ld apart */
    size_t ld, t0, queries; /* row stride, first query, queries in the panel */
} panel_view;

/* row block of keys j.. (rows of them) -> st rows at query vectors c0 ..
 * c0+cols-1, masked where a query may not see the key; their tile maximum
 * per query updated */
INLINE void store_scores(const panel_view *p, panel_bufs *w, int rows, int c0, int cols, size_t j,
                         size_t row0, vf acc[TILE_ROWS][TILE_COLS])
{
    const attn_shape *s = p->s;
    int clear = j + (size_t)rows <= p->t0 + (size_t)c0 * VW + 1 &&
                (!s->window || p->t0 + p->queries - j <= s->window);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            vf x = acc[r][c];
            size_t col = (size_t)(c0 + c) * VW;
            if (!clear) { /* visible: key i <= query t, and t - i < window */
                double i = (double)(j + (size_t)r), t0 = (double)(p->t0 + col);
                vf t = vsplat(0.0f);
                for (int lane = 0; lane < VW; lane++)
                    t[lane] = (float)lane;
                vf lo = vsplat((float)fmax(fmin(i - t0, PANEL + 1.0), -1.0));
                double w = s->window ? i - t0 + (double)s->window : PANEL + 1.0;
                vf hi = vsplat((float)fmax(fmin(w, PANEL + 1.0), -1.0));
                x = VSELECT((t >= lo) & (t < hi), x, vsplat(-INFINITY));
            }
            vstore(w->st + (row0 + (size_t)r) * PANEL + col, x);
            vstore(w->tmax + col, vf_max(vload(w->tmax + col), x));
        }
}

/* The online step on query vectors c0.. over n raw scores, factor =
 * |scale| log2(e) > 0: m' = max(m, tile max), st <- 2^(factor (st - m')),
 * alpha = 2^(factor (m - m')), l <- alpha l + sum. A lane that has seen no
 * key yet (m' = -inf) shifts by 0, so its weights and alpha are 0. */
STEP void tile_softmax(panel_bufs *w, size_t n, int c0, float factor)
{
    vf f = vsplat(factor);
    for (size_t c = (size_t)c0 * VW; c < PANEL; c += VW) {
        vf m_old = vload(w->m + c), m_new = vf_max(m_old, vload(w->tmax + c));
        vf shift = VSELECT(m_new == vsplat(-INFINITY), vsplat(0.0f), m_new);
        vf sum = vsplat(0.0f);
        for (size_t j = 0; j < n; j++) {
            vf e = vf_exp2(f * (vload(w->st + j * PANEL + c) - shift));
            vstore(w->st + j * PANEL + c, e);
            sum += e;
        }
        vf alpha = vf_exp2(f * (m_old - shift));
        vstore(w->alpha + c, alpha);
        vstore(w->l + c, alpha * vload(w->l + c) + sum);
        vstore(w->m + c, m_new);
        vstore(w->tmax + c, vsplat(-INFINITY));
    }
}

#ifdef TILE_BLAS
/* keys j0 .. j0+n-1 -> st: (n, PANEL) = K_tile qt by cblas_sgemm, then
 * masked row by row; tmax updated (every query vector: c0 is 0 here) */
STEP void tile_scores(const panel_view *p, panel_bufs *w, size_t j0, size_t n, int c0)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, PANEL, (int)p->s->dh, 1.0f,
                p->K + j0 * p->ld, (int)p->ld, w->qt, PANEL, 0.0f, w->st, PANEL);
    for (size_t r = 0; r < n; r++) {
        vf row[TILE_ROWS][TILE_COLS];
        for (int c = 0; c < TILE_COLS; c++)
            row[0][c] = vload(w->st + r * PANEL + (size_t)c * VW);
        store_scores(p, w, 1, c0, TILE_COLS, j0 + r, r, row);
    }
}

/* keys j0 .. j0+n-1 -> ot: (dh, PANEL) = alpha ot + V_tile^T st, the
 * product by cblas_sgemm */
STEP void tile_values(const panel_view *p, panel_bufs *w, size_t j0, size_t n, int c0)
{
    for (size_t d = 0; d < p->s->dh; d++)
        for (size_t c = (size_t)c0 * VW; c < PANEL; c += VW) {
            float *o = w->ot + d * PANEL + c;
            vstore(o, vload(w->alpha + c) * vload(o));
        }
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)p->s->dh, PANEL, (int)n, 1.0f,
                p->V + j0 * p->ld, (int)p->ld, w->st, PANEL, 1.0f, w->ot, PANEL);
}
#else
/* acc[r][c] = sum over k < n of a[r*ar + k*ak] * b[k*PANEL + c*VW ..], for
 * r < rows, c < cols: the register block behind both products */
INLINE void block_product(int rows, int cols, vf acc[TILE_ROWS][TILE_COLS], const float *a,
                          size_t ar, size_t ak, const float *b, size_t n)
{
#pragma GCC unroll 8
    for (int r = 0; r < rows; r++)
#pragma GCC unroll 4
        for (int c = 0; c < cols; c++)
            acc[r][c] = (vf){0};
    for (size_t k = 0; k < n; k++) {
        vf bv[TILE_COLS];
#pragma GCC unroll 8
        for (int c = 0; c < cols; c++)
            bv[c] = vload(b + k * PANEL + c * VW);
#pragma GCC unroll 16
        for (int r = 0; r < rows; r++) {
            float x = a[r * ar + k * ak];
#pragma GCC unroll 8
            for (int c = 0; c < cols; c++)
                acc[r][c] += x * bv[c];
        }
    }
}

/* rows (1..TILE_ROWS, at most 8) and cols (1..TILE_COLS, at most 4) ->
 * CALL(rows, cols) with both constants, so that each block shape gets its
 * own fully unrolled code */
#define ROW_N(n) ((n) < TILE_ROWS ? (n) : TILE_ROWS)
#define COL_N(n) ((n) < TILE_COLS ? (n) : TILE_COLS)
#define ROW_SWITCH(rows, CALL, C)                                                      \
    switch (rows) {                                                                    \
    case 1: CALL(ROW_N(1), C); break; case 2: CALL(ROW_N(2), C); break;                \
    case 3: CALL(ROW_N(3), C); break; case 4: CALL(ROW_N(4), C); break;                \
    case 5: CALL(ROW_N(5), C); break; case 6: CALL(ROW_N(6), C); break;                \
    case 7: CALL(ROW_N(7), C); break; default: CALL(TILE_ROWS, C); break;              \
    }
#define BLOCK_SWITCH(rows, cols, CALL)                                                 \
    switch (cols) {                                                                    \
    case 1: ROW_SWITCH(rows, CALL, COL_N(1)); break;                                   \
    case 2: ROW_SWITCH(rows, CALL, COL_N(2)); break;                                   \
    case 3: ROW_SWITCH(rows, CALL, COL_N(3)); break;                                   \
    default: ROW_SWITCH(rows, CALL, TILE_COLS); break;                                 \
    }

/* rows j0 .. j0+n-1 of src (a head's keys or values, ld apart) -> kv:
 * (n, dh), contiguous: rows ld apart fall into a few sets of the L1 cache
 * (ld = H dh floats is a multiple of a large power of two); with TILE_PACK */
INLINE void pack_rows(const panel_view *p, const float *src, size_t j0, size_t n, float *kv)
{
    size_t dh = p->s->dh, full = dh / VW * VW;
    for (size_t r = 0; r < n; r++) {
        const float *row = src + (j0 + r) * p->ld;
        for (size_t d = 0; d < full; d += VW)
            vstore(kv + r * dh + d, vload(row + d));
        for (size_t d = full; d < dh; d++)
            kv[r * dh + d] = row[d];
    }
}

/* keys j0 .. j0+n-1 -> st: (n, PANEL) = K_tile qt for query vectors c0..,
 * masked; tmax updated */
STEP void tile_scores(const panel_view *p, panel_bufs *w, size_t j0, size_t n, int c0)
{
    size_t dh = p->s->dh;
    int cols = TILE_COLS - c0;
    const float *K = TILE_PACK ? w->kv : p->K + j0 * p->ld;
    size_t ld = TILE_PACK ? dh : p->ld;
    if (TILE_PACK)
        pack_rows(p, p->K, j0, n, w->kv);
    for (size_t r0 = 0; r0 < n; r0 += TILE_ROWS) {
        int rows = n - r0 < TILE_ROWS ? (int)(n - r0) : TILE_ROWS;
        vf acc[TILE_ROWS][TILE_COLS];
        const float *a = K + r0 * ld;
#define SCORES(R, C)                                                                   \
    block_product(R, C, acc, a, ld, 1, w->qt + c0 * VW, dh);                           \
    store_scores(p, w, R, c0, C, j0 + r0, r0, acc)
        BLOCK_SWITCH(rows, cols, SCORES)
#undef SCORES
    }
}

/* rows d0.. of ot (rows of them), query vectors c0.. (cols) <- alpha ot + acc */
INLINE void add_values(panel_bufs *w, int rows, int c0, int cols, size_t d0,
                       vf acc[TILE_ROWS][TILE_COLS])
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            size_t col = (size_t)(c0 + c) * VW;
            float *o = w->ot + (d0 + (size_t)r) * PANEL + col;
            vstore(o, vload(w->alpha + col) * vload(o) + acc[r][c]);
        }
}

/* keys j0 .. j0+n-1 -> ot: (dh, PANEL) = alpha ot + V_tile^T st for query
 * vectors c0.. */
STEP void tile_values(const panel_view *p, panel_bufs *w, size_t j0, size_t n, int c0)
{
    size_t dh = p->s->dh;
    int cols = TILE_COLS - c0;
    const float *V = TILE_PACK ? w->kv : p->V + j0 * p->ld;
    size_t ld = TILE_PACK ? dh : p->ld;
    if (TILE_PACK)
        pack_rows(p, p->V, j0, n, w->kv);
    for (size_t d0 = 0; d0 < dh; d0 += TILE_ROWS) {
        int rows = dh - d0 < TILE_ROWS ? (int)(dh - d0) : TILE_ROWS;
        vf acc[TILE_ROWS][TILE_COLS];
        const float *a = V + d0;
#define VALUES(R, C)                                                                   \
    block_product(R, C, acc, a, 1, ld, w->st + c0 * VW, n);                            \
    add_values(w, R, c0, C, d0, acc)
        BLOCK_SWITCH(rows, cols, VALUES)
#undef VALUES
    }
}

#endif

/* keys j0 .. j0+n-1 through the three steps, for query vectors c0.. ->
 * the multiply-adds done */
INLINE uint64_t tile_step(const panel_view *p, panel_bufs *w, size_t j0, size_t n, int c0)
{
    tile_scores(p, w, j0, n, c0);
    tile_softmax(w, n, c0, attn_score_factor(p->s->scale));
    tile_values(p, w, j0, n, c0);
    return 2 * (uint64_t)n * (PANEL - (size_t)c0 * VW) * p->s->dh;
}

/* keys [lo, hi) in tiles of j->keys, each through the three steps; -> the
 * multiply-adds done. Keys past the panel's first query are seen by only
 * some of its queries: the register-blocked paths take them VW at a time,
 * each for the query vectors that can see one of them (the causal
 * triangle costs about half the tile instead of all of it). */
INLINE uint64_t visit_keys(const tile_job *j, const panel_view *p, panel_bufs *w, size_t lo,
                           size_t hi)
{
    uint64_t madds = 0;
    for (size_t j0 = lo; j0 < hi; j0 += j->keys) {
        size_t n = hi - j0 < j->keys ? hi - j0 : j->keys;
        size_t seen = j0 + n <= p->t0 ? n : j0 < p->t0 ? p->t0 - j0 : 0; /* keys < t0 */
#ifdef TILE_BLAS
        seen = n;
#endif
        if (seen)
            madds += tile_step(p, w, j0, seen, 0);
        for (size_t k = j0 + seen; k < j0 + n; k += VW)
            madds += tile_step(p, w, k, j0 + n - k < VW ? j0 + n - k : VW, /* k >= t0 */
                               (int)((k - p->t0) / VW));
    }
    return madds;
}

/* VW rows of VW floats from src (ld apart) -> rows: (VW) vectors, the
 * block transposed (rows[i] holds column i) */
INLINE void load_transposed(const float *src, size_t ld, vf rows[VW])
{
#pragma GCC unroll 16
    for (int i = 0; i < VW; i++)
        rows[i] = vload(src + (size_t)i * ld);
    vtranspose(rows);
}

/* queries t0.. of head h -> qt: (dh, PANEL), transposed, times the scale's
 * sign (-1, 0 or 1: exact),
 * zero past the last query, by blocks of VW x VW and then what they leave;
 * ot, l <- 0, m, tmax <- -inf; the panel's output rows prefetched (for
 * writing), so that finish_panel does not wait for memory */
STEP void start_panel(const tile_job *j, const panel_view *p, size_t h, panel_bufs *w)
{
    const attn_shape *s = j->s;
    float factor = attn_score_sign(s->scale);
    const float *Q = j->Q + p->t0 * p->ld + h * s->dh;
    size_t dfull = s->dh / VW * VW, cfull = p->queries / VW * VW;
    if (p->queries < PANEL)
        memset(w->qt, 0, s->dh * PANEL * sizeof *w->qt);
    memset(w->ot, 0, s->dh * PANEL * sizeof *w->ot);
    for (size_t c0 = 0; c0 < cfull; c0 += VW)
        for (size_t d0 = 0; d0 < dfull; d0 += VW) {
            vf rows[VW];
            load_transposed(Q + c0 * p->ld + d0, p->ld, rows);
            for (int i = 0; i < VW; i++)
                vstore(w->qt + (d0 + (size_t)i) * PANEL + c0, factor * rows[i]);
        }
    for (size_t c = 0; c < p->queries; c++)
        for (size_t d = c < cfull ? dfull : 0; d < s->dh; d++)
            w->qt[d * PANEL + c] = factor * Q[c * p->ld + d];
    for (size_t c = 0; c < PANEL; c++)
        w->m[c] = w->tmax[c] = -INFINITY, w->l[c] = 0.0f;
    float *out = j->out + p->t0 * p->ld + h * s->dh;
    for (size_t c = 0; c < p->queries; c++) /* the output's lines, fetched while we work */
        for (size_t d = 0; d < s->dh; d += 64 / sizeof(float))
            __builtin_prefetch(out + c * p->ld + d, 1, 3);
}

/* ot, l -> out rows t0.. of head h: ot^T / l, by blocks of VW x VW and then
 * what they leave */
STEP void finish_panel(const tile_job *j, const panel_view *p, size_t h, const panel_bufs *w)
{
    size_t dh = j->s->dh, dfull = dh / VW * VW, cfull = p->queries / VW * VW;
    float *out = j->out + p->t0 * p->ld + h * dh;
    for (size_t c0 = 0; c0 < cfull; c0 += VW)
        for (size_t d0 = 0; d0 < dfull; d0 += VW) {
            vf rows[VW];
            load_transposed(w->ot + d0 * PANEL + c0, PANEL, rows);
            for (size_t i = 0; i < VW; i++)
                vstore(out + (c0 + i) * p->ld + d0, (1.0f / w->l[c0 + i]) * rows[i]);
        }
    for (size_t c = 0; c < p->queries; c++)
        for (size_t d = c < cfull ? dfull : 0; d < dh; d++)
            out[c * p->ld + d] = w->ot[d * PANEL + c] / w->l[c];
}

/* worker -> its buffers, carved from the job's scratch */
INLINE panel_bufs carve(const tile_job *j, int worker)
{
    float *f = j->scratch + (size_t)worker * j->per_worker;
    size_t sq = j->s->dh * PANEL, st = j->keys * PANEL, v = 2 * sq + st;
    return (panel_bufs){f, f + sq, f + 2 * sq, f + v, f + v + PANEL, f + v + 2 * PANEL,
                        f + v + 3 * PANEL, f + v + 4 * PANEL};
}

/* item -> out rows of one (head, query panel): ctx is a tile_job */
int TILE_ITEM(void *ctx, size_t item, int worker)
{
    const tile_job *j = ctx;
    const attn_shape *s = j->s;
    size_t h, t0, lo, hi;
    tile_item_place(j, item, &h, &t0);
    tile_panel_keys(j, t0, &lo, &hi);
    size_t ld = s->H * s->dh;
    panel_view p = {s, j->K + h * s->dh, j->V + h * s->dh, ld, t0, hi - t0};
    panel_bufs w = carve(j, worker);
    start_panel(j, &p, h, &w);
    uint64_t madds = 0;
    lo = lo / j->keys * j->keys;
    if (!j->blocks)
        madds = visit_keys(j, &p, &w, lo, hi);
    else {
        size_t b = t0 / ATTN_TILE;
        for (size_t i = j->blocks->start[b]; i < j->blocks->start[b + 1]; i++) {
            size_t first = (size_t)j->blocks->key[i] * ATTN_TILE;
            madds += visit_keys(j, &p, &w, first, first + ATTN_TILE < hi ? first + ATTN_TILE : hi);
        }
    }
    finish_panel(j, &p, h, &w);
    j->madds[worker] += madds;
    return INVENT_OK;
}
