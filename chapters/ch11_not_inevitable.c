/* Chapter 11: why it is not inevitable.
 *
 * The derivation ends with a layer in which every token looks at every
 * earlier token. This chapter measures what that costs and what can be done
 * about it. The work of causal attention grows as the square of the sequence
 * length T, counted as the kernels run (claim N1). A sliding window caps the
 * work per token, but whatever lies further back than the window is gone
 * (N2). And the T x T matrix itself is not needed: streaming the keys past
 * each block of queries with a running maximum and sum gives the same output
 * (without the rescaling of what was summed before, it does not), also where
 * scores reach +-1e4, while holding only a few tiles, the same at every T
 * (N3): the online softmax behind FlashAttention (Dao et al., 2022). The
 * arithmetic stays T^2; what the tiles remove is the T x T matrix in memory
 * and the traffic of writing it out and reading it back. Computing only some
 * of the scores, as sparse patterns do, cuts the counted work to the listed
 * pairs and, listing every pair, gives the dense output (N1, N3); whether it
 * also cuts the time is measured twice and narrated as the two measurements
 * say, not claimed. Last, the cache argument of chapters 5 and 6 at decode
 * time: the ledger's caches of r per head and of shared raw tokens read 5
 * and 40 times fewer bytes than d per head, the raw tokens for as many
 * multiply-adds, both computed from the shapes (Q1 and C1 are claimed in
 * chapters 5 and 6); how much time each saves is measured beside its
 * roofline bound, not claimed (--full: the ledger's 5,000 tokens, far
 * beyond the last-level cache).
 */
#include <float.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode_ledger.h"
#include "invent.h"

typedef struct {
    size_t tmin, tmax; /* sequence lengths T = tmin, 2 tmin, ... up to tmax */
    size_t heads, dh;  /* H heads of size dh */
    size_t window;     /* w of the sliding window */
    size_t probe;      /* tokens in the recall probe */
    size_t repeats;    /* timings per T (the fastest counts) */
    int full;          /* decode: the ledger's setting, far beyond the caches */
    size_t decode_tokens, decode_mib; /* decode: T of one layer, the arena (0: chosen) */
} sizes;

#define MAX_POINTS 16

/* What was measured at each T (one entry per T). */
typedef struct {
    size_t n;
    double T[MAX_POINTS];
    double madds_full[MAX_POINTS];         /* naive, causal: counted as it ran */
    double madds_window[MAX_POINTS];       /* naive, sliding window */
    double madds_tiled[MAX_POINTS];        /* tiled, causal */
    double score_bytes[MAX_POINTS];        /* blas: the materialised T x T scores */
    double tiled_bytes[MAX_POINTS];        /* tiled: all its extra memory */
    double cpu_ms[MAX_POINTS];             /* naive, process CPU time, fastest repeat */
    double tiled_vs_blas[MAX_POINTS];      /* max |tiled - blas| / max |blas| */
    double norescale_vs_blas[MAX_POINTS];  /* the same for the online softmax without rescaling */
    double huge_vs_blas[MAX_POINTS];       /* tiled against blas, scores up to +-1e4 */
    double huge_norescale[MAX_POINTS];     /* no rescaling against blas, scores up to +-1e4 */
    double naive_bytes[MAX_POINTS];        /* naive: one row of T scores per worker */
    double plain_vs_blas[MAX_POINTS];      /* the online softmax written plainly, with rescaling */
    double huge_plain[MAX_POINTS];         /* the same, scores up to +-1e4 */
} sweep;

/* Q, K, V and two outputs for one shape, as (T, H, dh) float arrays, and a
 * workspace for every kernel of attn_kernels.h at that shape */
typedef struct {
    attn_shape s;
    float *q, *k, *v, *out, *ref;
    attn_work work;
} problem;

/* bytes -> a workspace of that size owned by sc */
static attn_work work_new(scope *sc, size_t bytes)
{
    attn_work w;
    chapter_must(attn_work_new(bytes, &w), "a kernel's workspace");
    SCOPE_KEEP(sc, w.base, free);
    return w;
}

/* T, H, dh -> Gaussian Q, K, V, room for two outputs and the largest
 * workspace a kernel asks for, owned by sc */
static void problem_new(scope *sc, size_t T, size_t H, size_t dh, gsl_rng *r, problem *p)
{
    size_t n = T * H * dh, bytes;
    float *all = SCOPE_KEEP(sc, malloc(5 * n * sizeof *all), free);
    *p = (problem){{T, H, dh, 0, (float)(1.0 / sqrt((double)dh))},
                   all, all + n, all + 2 * n, all + 3 * n, all + 4 * n, {NULL, 0}};
    chapter_must(attn_kernels_work(&p->s, &bytes), "the kernels' workspace");
    p->work = work_new(sc, bytes);
    for (size_t i = 0; i < 3 * n; i++)
        all[i] = (float)gsl_ran_gaussian(r, 1.0);
}

/* the fastest of `repeats` runs of naive, in CPU milliseconds of the process */
static double time_naive(problem *p, size_t repeats, attn_cost *cost)
{
    double ms = INFINITY;
    for (size_t r = 0; r < repeats; r++) {
        double t0 = stopwatch_cpu();
        chapter_must(attn_naive(&p->s, p->q, p->k, p->v, p->ref, &p->work, cost),
                     "the naive kernel");
        ms = fmin(ms, 1e3 * (stopwatch_cpu() - t0));
    }
    return ms;
}

/* q: (dh) one query, p's head h, keys first..t -> out: (dh), the tiled kernel's
 * recurrence written plainly: key tiles of ATTN_TILE (aligned as the kernel's),
 * left to right, a running maximum m, sum l and output acc; a tile that raises
 * m to m' rescales l and acc by exp(m - m') when `rescale`, else not (the near
 * miss of N3) */
static void online_query(const problem *p, size_t h, size_t t, const float *q, int rescale,
                         float *out)
{
    const attn_shape *s = &p->s;
    size_t H = s->H, dh = s->dh, first = attn_first_key(s, t);
    float m = -INFINITY, l = 0.0f, score[ATTN_TILE];
    for (size_t j = 0; j < dh; j++)
        out[j] = 0.0f;
    for (size_t lo = first, end; lo <= t; lo = end) {
        end = (lo / ATTN_TILE + 1) * ATTN_TILE; /* the next tile starts there */
        size_t hi = end < t + 1 ? end : t + 1;
        float top = m;
        for (size_t i = lo; i < hi; i++) {
            const float *k = p->k + (i * H + h) * dh;
            float dot = 0.0f;
            for (size_t j = 0; j < dh; j++)
                dot += q[j] * k[j];
            score[i - lo] = s->scale * dot;
            top = fmaxf(top, score[i - lo]);
        }
        float factor = rescale ? expf(m - top) : 1.0f;
        l *= factor;
        for (size_t j = 0; j < dh; j++)
            out[j] *= factor;
        for (size_t i = lo; i < hi; i++) {
            float w = expf(score[i - lo] - top);
            const float *v = p->v + (i * H + h) * dh;
            l += w;
            for (size_t j = 0; j < dh; j++)
                out[j] += w * v[j];
        }
        m = top;
    }
    for (size_t j = 0; j < dh; j++)
        out[j] /= l;
}

/* p -> p->out: every query of every head through online_query */
static void online_attention(problem *p, int rescale)
{
    size_t H = p->s.H, dh = p->s.dh;
    for (size_t t = 0; t < p->s.T; t++)
        for (size_t h = 0; h < H; h++)
            online_query(p, h, t, p->q + (t * H + h) * dh, rescale, p->out + (t * H + h) * dh);
}

/* p -> the keys at positions 0 and T/2 of every head multiplied so that the
 * largest |scale q_t . k_i| of each over the queries that see it is 1e4: rows
 * that score one of them at about +1e4 put all their weight on it, rows at about
 * -1e4 none, and the second key arrives in a later tile than the first */
static void keys_to_huge(problem *p)
{
    const attn_shape *s = &p->s;
    size_t H = s->H, dh = s->dh, huge[2] = {0, s->T / 2};
    for (int n = 0; n < 2; n++)
        for (size_t h = 0; h < H; h++) {
            float *k = p->k + (huge[n] * H + h) * dh;
            double largest = 0.0;
            for (size_t t = huge[n]; t < s->T; t++) {
                double dot = 0.0;
                for (size_t j = 0; j < dh; j++)
                    dot += (double)p->q[(t * H + h) * dh + j] * k[j];
                largest = fmax(largest, fabs(s->scale * dot));
            }
            for (size_t j = 0; j < dh; j++)
                k[j] = (float)(k[j] * 1e4 / largest);
        }
}

/* p at its own scores, then at scores up to +-1e4 -> entry i's N3 differences:
 * the tiled kernel and the online softmax without rescaling, against the matrix form */
static void measure_huge(problem *p, sweep *w, size_t i)
{
    size_t n = p->s.T * p->s.H * p->s.dh;
    online_attention(p, 0);
    w->norescale_vs_blas[i] = attn_rel_diff(p->out, p->ref, n);
    online_attention(p, 1);
    w->plain_vs_blas[i] = attn_rel_diff(p->out, p->ref, n);
    keys_to_huge(p);
    chapter_must(attn_blas(&p->s, p->q, p->k, p->v, p->ref, &p->work, NULL), "the matrix form");
    chapter_must(attn_tiled(&p->s, p->q, p->k, p->v, p->out, &p->work, NULL), "the tiled kernel");
    w->huge_vs_blas[i] = attn_rel_diff(p->out, p->ref, n);
    online_attention(p, 0);
    w->huge_norescale[i] = attn_rel_diff(p->out, p->ref, n);
    online_attention(p, 1);
    w->huge_plain[i] = attn_rel_diff(p->out, p->ref, n);
}

/* every kernel at one T, causal and with the window -> entry i of the sweep */
static void measure_T(const sizes *z, size_t T, gsl_rng *r, sweep *w, size_t i)
{
    scope *sc = scope_open();
    problem p;
    problem_new(sc, T, z->heads, z->dh, r, &p);
    size_t n = T * z->heads * z->dh;
    attn_cost naive, blas, tiled, windowed;
    size_t shorter = z->tmax / T; /* short runs repeat more: each T gets about equal time */
    size_t runs = shorter > 32 ? 1024 * z->repeats : z->repeats * shorter * shorter;
    w->cpu_ms[i] = time_naive(&p, runs, &naive);
    chapter_must(attn_blas(&p.s, p.q, p.k, p.v, p.ref, &p.work, &blas), "the matrix form");
    chapter_must(attn_tiled(&p.s, p.q, p.k, p.v, p.out, &p.work, &tiled), "the tiled kernel");
    w->tiled_vs_blas[i] = attn_rel_diff(p.out, p.ref, n);
    p.s.window = z->window;
    chapter_must(attn_naive(&p.s, p.q, p.k, p.v, p.out, &p.work, &windowed), "the naive kernel");
    p.s.window = 0;
    w->naive_bytes[i] = (double)naive.scratch_bytes;
    measure_huge(&p, w, i);
    w->T[i] = (double)T;
    w->madds_full[i] = (double)naive.madds;
    w->madds_window[i] = (double)windowed.madds;
    w->madds_tiled[i] = (double)tiled.madds;
    w->score_bytes[i] = (double)blas.scratch_bytes;
    w->tiled_bytes[i] = (double)tiled.scratch_bytes;
    scope_close(sc);
}

static void run_sweep(const sizes *z, gsl_rng *r, sweep *w)
{
    w->n = 0;
    for (size_t T = z->tmin; T <= z->tmax; T *= 2, w->n++)
        measure_T(z, T, r, w, w->n);
}

/* ---------------------------------------------------------------- N1 */

static double exponent_of(const sweep *w, const double *cost)
{
    double p = NAN;
    growth_exponent(w->T, cost, w->n, &p);
    return p;
}

static void print_cost_table(const invent_opts *o, const sizes *z, const sweep *w)
{
    report_line(o, "     T   multiply-adds   score matrix   naive CPU ms   multiply-adds, window w=%zu",
                z->window);
    for (size_t i = 0; i < w->n; i++)
        report_line(o, "%6.0f   %13.0f   %10.0f B   %12.2f   %27.0f", w->T[i],
                    w->madds_full[i], w->score_bytes[i], w->cpu_ms[i], w->madds_window[i]);
}

static void cost_section(const invent_opts *o, const sizes *z, const sweep *w)
{
    report_section(o, "What attention costs as the sequence grows (N1)");
    report_text(o,
                "Every query scores every earlier key: T(T+1)/2 pairs, each a dot product of "
                "size dh and a weighted sum of values of size dh. The kernels count the "
                "multiply-adds they perform as they run; the naive loops are timed in the CPU "
                "time of this process (the fastest of %zu runs at the longest T, more at "
                "shorter T). H = %zu head%s of size %zu, T doubling from %zu to %zu. The "
                "matrix form holds one T x T score matrix per head: its bytes are shown, but "
                "they are the definition of that form, not a measurement, so they are not "
                "claimed.",
                z->repeats, z->heads, z->heads == 1 ? "" : "s", z->dh, z->tmin, z->tmax);
    print_cost_table(o, z, w);
    double p_madds = exponent_of(w, w->madds_full), p_time = exponent_of(w, w->cpu_ms);
    report_text(o, "Fitted on log-log axes: multiply-adds grow as T^%.3f. The measured time "
                   "grows as T^%.2f here; it is reported, not claimed: on a shared machine, "
                   "programs competing for the same core and caches slow a run down in every "
                   "clock, while the counts do not move.",
                p_madds, p_time);
    check_close("N1", "counted multiply-adds of causal attention grow as T^2 (fitted exponent)",
                p_madds, 2.0, 0.1);
    check_control("N1", "attention with a sliding window (the naive kernel, window w)");
    check_close("N1", NULL, exponent_of(w, w->madds_window), 2.0, 0.1);
}

/* ---------------------------------------------------------------- N2 */

/* The recall probe: token t's query is beta times the key of token t - delta,
 * so attention that can see that token returns its value. -> the mean
 * relative error |out_t - v_{t-delta}| / |v_{t-delta}| over t = delta..T-1. */
static double recall_at_distance(problem *p, size_t delta, double beta)
{
    const attn_shape *s = &p->s;
    size_t dh = s->dh;
    scope *sc = scope_open();
    float *q = SCOPE_KEEP(sc, malloc(2 * s->T * dh * sizeof *q), free), *out = q + s->T * dh;
    for (size_t t = 0; t < s->T; t++)
        for (size_t j = 0; j < dh; j++)
            q[t * dh + j] = t >= delta ? (float)beta * p->k[(t - delta) * dh + j] : 0.0f;
    chapter_must(attn_tiled(s, q, p->k, p->v, out, &p->work, NULL), "the tiled kernel");
    double total = 0.0;
    for (size_t t = delta; t < s->T; t++) {
        double diff = 0.0, size = 0.0;
        for (size_t j = 0; j < dh; j++) {
            double want = p->v[(t - delta) * dh + j];
            diff += (out[t * dh + j] - want) * (out[t * dh + j] - want);
            size += want * want;
        }
        total += sqrt(diff / size);
    }
    scope_close(sc);
    return total / (double)(s->T - delta);
}

/* keys of unit length: a query beta k_i then scores its own key beta */
static void normalise_keys(problem *p)
{
    for (size_t t = 0; t < p->s.T; t++) {
        float *k = p->k + t * p->s.dh;
        double norm = 0.0;
        for (size_t j = 0; j < p->s.dh; j++)
            norm += (double)k[j] * k[j];
        for (size_t j = 0; j < p->s.dh; j++)
            k[j] = (float)(k[j] / sqrt(norm));
    }
}

/* recall error against distance, with full causal attention and with the window;
 * the columns of `curve` (n, 3): distance, error full, error window */
static gsl_matrix *measure_recall(scope *sc, const sizes *z, gsl_rng *r)
{
    problem p;
    problem_new(sc, z->probe, 1, z->dh, r, &p);
    normalise_keys(&p);
    p.s.scale = 1.0f;
    const double beta = 60.0; /* own score 60; others ~ 60/sqrt(dh) each */
    size_t step = z->probe / 32 ? z->probe / 32 : 1, n = 0;
    gsl_matrix *curve = scope_matrix(sc, z->probe, 3);
    for (size_t delta = 0; delta < z->probe; delta++) {
        if (delta % step && delta + 1 != z->window && delta != z->window)
            continue; /* every step-th distance, and both sides of the window's edge */
        p.s.window = 0;
        double full = recall_at_distance(&p, delta, beta);
        p.s.window = z->window;
        double windowed = recall_at_distance(&p, delta, beta);
        gsl_vector_view row = gsl_matrix_row(curve, n++);
        gsl_vector_set(&row.vector, 0, (double)delta);
        gsl_vector_set(&row.vector, 1, full);
        gsl_vector_set(&row.vector, 2, windowed);
    }
    gsl_matrix_view used = gsl_matrix_submatrix(curve, 0, 0, n, 3);
    return scope_keep_matrix(sc, mat_clone(&used.matrix));
}

/* N2, cost: the window caps the work per token. */
static void check_window_cost(const sizes *z, const sweep *w)
{
    double per_token = 0.0, full_per_token = 0.0, cap = 2.0 * (double)(z->dh * z->heads * z->window);
    for (size_t i = 0; i < w->n; i++) {
        per_token = fmax(per_token, w->madds_window[i] / w->T[i]);
        full_per_token = fmax(full_per_token, w->madds_full[i] / w->T[i]);
    }
    char claim[160];
    snprintf(claim, sizeof claim, "with a window of w = %zu, multiply-adds per token stay at "
                                  "most 2 dh H w = %.0f at every T", z->window, cap);
    check_at_most("N2", claim, per_token, cap);
    check_control("N2", "full causal attention, no window");
    check_at_most("N2", NULL, full_per_token, cap);
    size_t a = w->n - 2, b = w->n - 1; /* the two longest T, both past the window */
    double extra = (w->madds_window[b] - w->madds_window[a]) / (w->T[b] - w->T[a]);
    double extra_full = (w->madds_full[b] - w->madds_full[a]) / (w->T[b] - w->T[a]);
    check_close("N2", "so the cost grows linearly: each token past the window adds exactly "
                "2 dh H w multiply-adds (between the two longest T)", extra, cap, 0.5);
    check_control("N2", "full causal attention, no window");
    check_close("N2", NULL, extra_full, cap, 0.5);
}

/* N2, recall: inside the window every token is recalled, beyond it none. */
static void check_recall(const sizes *z, const gsl_matrix *curve)
{
    double inside = 0.0, outside = INFINITY, full = 0.0, full_outside = INFINITY;
    double window_worst = 0.0, at_edge = NAN;
    for (size_t i = 0; i < curve->size1; i++) {
        size_t delta = (size_t)gsl_matrix_get(curve, i, 0);
        double e_full = gsl_matrix_get(curve, i, 1), e_window = gsl_matrix_get(curve, i, 2);
        full = fmax(full, e_full);
        window_worst = fmax(window_worst, e_window);
        if (delta < z->window) {
            inside = fmax(inside, e_window);
        } else {
            outside = fmin(outside, e_window);
            full_outside = fmin(full_outside, e_full);
        }
        if (delta == z->window)
            at_edge = e_window;
    }
    check_at_most("N2", "full causal attention recalls a token at every distance (worst error)",
                  full, 0.01);
    check_control("N2", "the window, over every distance");
    check_at_most("N2", NULL, window_worst, 0.01);
    check_at_most("N2", "the window recalls a token fewer than w positions back (worst error)",
                  inside, 0.01);
    check_control("N2", "the window, a token exactly w positions back");
    check_at_most("N2", NULL, at_edge, 0.01);
    check_at_least("N2", "and loses every token w or more positions back (least error)",
                   outside, 0.5);
    check_control("N2", "full causal attention at those distances");
    check_at_least("N2", NULL, full_outside, 0.5);
}

static void plot_recall(const invent_opts *o, const sizes *z, const gsl_matrix *curve)
{
    plot *p = plot_begin(o, "ch11_recall");
    plot_set(p, "window", (double)z->window);
    plot_set(p, "probe", (double)z->probe);
    plot_block(p, "distance  error_full  error_window");
    for (size_t i = 0; i < curve->size1; i++)
        PLOT_ROW(p, gsl_matrix_get(curve, i, 0), gsl_matrix_get(curve, i, 1),
                 gsl_matrix_get(curve, i, 2));
    plot_render(p, "ch11_recall.gp");
}

/* N2; -> nonzero if the dump failed (dump_matrix has said why) */
static int window_section(const invent_opts *o, const sizes *z, const sweep *w, gsl_rng *r)
{
    report_section(o, "A sliding window bounds the cost, and forgets (N2)");
    report_text(o,
                "Letting each token see only the w = %zu most recent tokens (itself included) "
                "caps the work per token at 2 dh H w multiply-adds, however long the sequence "
                "(the last column above). The price shows on a recall probe: %zu tokens with "
                "random unit keys, and at every position t a query that points at the key "
                "delta positions back. Attention that can see that token copies out its value; "
                "the error is how far the output is from that value (0 perfect, about 1.4 for "
                "an unrelated value).",
                z->window, z->probe);
    check_window_cost(z, w);
    scope *sc = scope_open();
    gsl_matrix *curve = measure_recall(sc, z, r);
    report_line(o, "  distance delta   error, full causal   error, window w = %zu", z->window);
    size_t n = curve->size1;
    for (size_t i = 0; i < n; i += (n > 12 ? n / 12 : 1))
        report_line(o, "  %14.0f   %18.2e   %21.2e", gsl_matrix_get(curve, i, 0),
                    gsl_matrix_get(curve, i, 1), gsl_matrix_get(curve, i, 2));
    check_recall(z, curve);
    plot_recall(o, z, curve);
    int failed = dump_matrix(o, "recall_distance_full_window", curve);
    scope_close(sc);
    return failed;
}

/* ---------------------------------------------------------------- N3 */

/* T, dh -> the extra bytes the tiled kernel counts for one head of size dh over
 * T tokens (fresh Gaussian inputs) */
static double tiled_count(size_t T, size_t dh)
{
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(1));
    problem p;
    attn_cost cost;
    problem_new(sc, T, 1, dh, r, &p);
    chapter_must(attn_tiled(&p.s, p.q, p.k, p.v, p.out, &p.work, &cost), "the tiled kernel");
    scope_close(sc);
    return (double)cost.scratch_bytes;
}

static void memory_section(const invent_opts *o, const sweep *w, int workers)
{
    report_section(o, "The same output without the T x T matrix (N3)");
    report_text(o,
                "The tiled kernel never forms the score matrix. For each block of %d queries "
                "it streams the visible key blocks past, keeping per query a running maximum "
                "m, a running sum l of exp(score - m) and an unnormalised output; a new block "
                "with a larger maximum rescales both by exp(m_old - m_new) (Milakov and "
                "Gimelshein, 2018). This online softmax is what FlashAttention (Dao et al., "
                "2022) builds on, keeping every tile in fast on-chip memory. The arithmetic "
                "does not shrink: the tiled kernel still does T^2 multiply-adds. What the "
                "tiles remove is the T x T matrix, and with it the traffic of writing every "
                "score to memory and reading it back. The workspace each kernel asks its "
                "caller for (and reports using), with %d worker thread%s:",
                ATTN_TILE, workers, workers == 1 ? "" : "s");
    report_line(o, "     T   matrix form:   tiled:      tiled   max |tiled - matrix| / max   "
                   "the same without rescaling");
    report_line(o, "          scores       all extra   multiply-adds    scores   up to +-1e4   "
                   "scores   up to +-1e4");
    double worst = 0.0, worst_huge = 0.0, wrong = 0.0, wrong_huge = 0.0, plain = 0.0;
    double plain_huge = 0.0;
    for (size_t i = 0; i < w->n; i++) {
        report_line(o, "%6.0f   %9.0f B   %9.0f B   %13.0f   %8.2e   %11.2e   %8.2e   %11.2e",
                    w->T[i], w->score_bytes[i], w->tiled_bytes[i], w->madds_tiled[i],
                    w->tiled_vs_blas[i], w->huge_vs_blas[i], w->norescale_vs_blas[i],
                    w->huge_norescale[i]);
        worst = fmax(worst, w->tiled_vs_blas[i]);
        worst_huge = fmax(worst_huge, w->huge_vs_blas[i]);
        wrong = fmax(wrong, w->norescale_vs_blas[i]);
        wrong_huge = fmax(wrong_huge, w->huge_norescale[i]);
        plain = fmax(plain, w->plain_vs_blas[i]);
        plain_huge = fmax(plain_huge, w->huge_plain[i]);
    }
    report_text(o, "The control is the same recurrence written plainly, one query at a time, "
                   "with the rescaling left out: where a later tile raises the maximum, what "
                   "was summed before keeps its larger scale. (At T = %d one tile holds every "
                   "key, and there is nothing to rescale.) With the rescaling, the plain "
                   "recurrence agrees with the matrix form to %.2g at most, so the control "
                   "differs from a correct computation by the rescaling alone.", ATTN_TILE,
                plain);
    check_at_most("N3", "the tiled online softmax gives the materialised matrix form's output "
                        "(float, largest relative difference over every T)", worst, 1e-5);
    check_control("N3", "the online softmax without the rescaling by exp(m_old - m_new)");
    check_at_most("N3", NULL, wrong, 1e-5);
    report_text(o, "Where scores reach 1e4, a float score is rounded by up to 1e4 x 2^-24 = "
                   "6e-4, and its weight exp(score) moves by that fraction; the check there "
                   "asks agreement within that rounding, 1e4 x 2^-23 (FLT_EPSILON). The tiled "
                   "kernel subtracts its running maximum from the raw dot products before it "
                   "scales them, so where the scores are exact (integer inputs) it is exact "
                   "too (a unit test holds it to 1e-5 there); here the inputs are not, and "
                   "what is left is the rounding of the dot products themselves, summed in "
                   "another order than sgemm's: the kernel agrees to %.2g, the plain "
                   "recurrence to %.2g:", worst_huge, plain_huge);
    check_at_most("N3", "... also where two keys, at 0 and T/2, are scaled so that their scores "
                        "reach +-1e4 (within the rounding of a float score of 1e4)",
                  worst_huge, 1e4 * FLT_EPSILON);
    check_control("N3", "the online softmax without the rescaling, scores up to +-1e4");
    check_at_most("N3", NULL, wrong_huge, 1e4 * FLT_EPSILON);
    double least = INFINITY, skipped = INFINITY;
    for (size_t i = 0; i < w->n; i++) {
        least = fmin(least, w->madds_tiled[i] / w->madds_full[i]);
        skipped = fmin(skipped, w->madds_window[i] / w->madds_full[i]);
    }
    check_at_least("N3", "the tiled kernel does every multiply-add of causal attention, so "
                   "its work grows as T^2 too (counted, tiled / naive, least over T)", least, 1.0);
    check_control("N3", "attention with a sliding window (the naive kernel, window w)");
    check_at_least("N3", NULL, skipped, 1.0);
    size_t last = w->n - 1;
    char claim[200];
    snprintf(claim, sizeof claim, "its extra memory, as the tiled kernel counts it, does not grow "
             "with T: from the shortest T to the longest (x%.0f) it grows x1 at most",
             w->T[last] / w->T[0]);
    check_at_most("N3", claim, w->tiled_bytes[last] / w->tiled_bytes[0], 1.0);
    check_control("N3", "the tiled kernel's own count when the sweep grows the head size "
                        "8-fold, 16 to 128, where it should grow T: its tiles grow, and the "
                        "count with them");
    check_at_most("N3", NULL, tiled_count((size_t)w->T[0], 128) / tiled_count((size_t)w->T[0], 16),
                  1.0);
    report_text(o, "A kernel without the online softmax must hold a query's whole row of T "
                   "scores: the naive kernel's count grows %.0f-fold over the sweep, the matrix "
                   "form's %.0f-fold.", w->naive_bytes[last] / w->naive_bytes[0],
                w->score_bytes[last] / w->score_bytes[0]);
    report_text(o, "At T = %.0f the tiled kernel does %.3g times the multiply-adds of the "
                   "naive loops: it also scores the masked half of each diagonal tile, a share "
                   "that shrinks as T grows. Each worker's tiles take %.3g of one head's score "
                   "matrix there; at short T the tiles can be the larger of the two: the "
                   "saving in memory grows with T.",
                w->T[last], w->madds_tiled[last] / w->madds_full[last],
                w->tiled_bytes[last] / workers / w->score_bytes[last]);
}

/* ------------------------------------------------ computing fewer scores */

#define SPARSE_T 512
#define SPARSE_HEADS 2
#define SPARSE_DH 32
#define SPARSE_ROUNDS 5
#define SPARSE_POINTS 6

static const double sparse_fractions[SPARSE_POINTS] = {0.01, 0.03, 0.1, 0.3, 0.5, 1.0};

/* list -> the same list without the pair (query 1, key 0): query 1 sees itself only */
static void drop_first_pair(attn_key_list *list)
{
    size_t n = list->start[list->T];
    for (size_t i = list->start[1]; i + 1 < n; i++)
        list->key[i] = list->key[i + 1];
    for (size_t t = 2; t <= list->T; t++)
        list->start[t]--;
}

/* s, list -> the workspace the key-list kernel asks for, owned by sc */
static attn_work keys_work(scope *sc, const attn_shape *s, const attn_key_list *list)
{
    size_t bytes;
    chapter_must(attn_sparse_keys_work(s, list, &bytes), "the key-list kernel's workspace");
    return work_new(sc, bytes);
}

/* N1 for sparse attention: the key-list kernel does the work of the pairs
 * it lists, counted as it runs; the dense tiled kernel does all of it. */
static void check_sparse_count(scope *sc, problem *p, gsl_rng *r)
{
    attn_key_list list;
    attn_cost sparse, dense;
    chapter_must(attn_key_list_random(p->s.T, 0.1, r, &list), "a random 10% key list");
    attn_work work = keys_work(sc, &p->s, &list);
    chapter_must(attn_sparse_keys(&p->s, &list, p->q, p->k, p->v, p->out, &work, &sparse),
                 "the key-list kernel");
    chapter_must(attn_tiled(&p->s, p->q, p->k, p->v, p->ref, &p->work, &dense), "the tiled kernel");
    double per_pair = 2.0 * (double)(p->s.H * p->s.dh), pairs = (double)attn_key_list_pairs(&list);
    check_close("N1", "computing a random 10% of the scores, the key-list kernel counts 2 H dh "
                      "multiply-adds per listed pair, no more (counted / listed pairs' work)",
                (double)sparse.madds / (per_pair * pairs), 1.0, 1e-12);
    check_control("N1", "the dense tiled kernel on the same problem");
    check_close("N1", NULL, (double)dense.madds / (per_pair * pairs), 1.0, 1e-12);
    attn_key_list_free(&list);
}

/* N3 for sparse attention: listing every key, the sparse kernel is the
 * dense one to float rounding; one pair fewer is not. */
static void check_sparse_agrees(scope *sc, problem *p, gsl_rng *r)
{
    attn_key_list list;
    size_t n = p->s.T * p->s.H * p->s.dh;
    chapter_must(attn_key_list_random(p->s.T, 1.0, r, &list), "a key list of every key");
    attn_work work = keys_work(sc, &p->s, &list);
    chapter_must(attn_tiled(&p->s, p->q, p->k, p->v, p->ref, &p->work, NULL), "the tiled kernel");
    chapter_must(attn_sparse_keys(&p->s, &list, p->q, p->k, p->v, p->out, &work, NULL),
                 "key lists");
    check_at_most("N3", "a key list holding every visible key gives the dense tiled kernel's "
                        "output (float, largest relative difference)",
                  attn_rel_diff(p->out, p->ref, n), 1e-5);
    drop_first_pair(&list);
    chapter_must(attn_sparse_keys(&p->s, &list, p->q, p->k, p->v, p->out, &work, NULL),
                 "key lists");
    check_control("N3", "the same list with one pair removed (query 1 no longer sees key 0)");
    check_at_most("N3", NULL, attn_rel_diff(p->out, p->ref, n), 1e-5);
    attn_key_list_free(&list);
}

/* Two measurements of the same lists, each the medians of its rounds. */
typedef sparse_point sparse_pair[2][SPARSE_POINTS];

/* kind 0: key lists, 1: block lists, i -> its time / the dense time at point i */
static double time_ratio(const sparse_point *pt, int kind, int i)
{
    return (kind ? pt[i].blocks_ms : pt[i].keys_ms) / pt[i].dense_ms;
}

/* m -> the table: share computed, ns per computed score, time / dense in each measurement */
static void print_sparse(const invent_opts *o, sparse_pair m)
{
    const sparse_point *pt = m[0];
    report_line(o, "%5s  %15s   %24s   %33s", "", "share computed", "ns per score (first)",
                "time / dense time (first, second)");
    report_line(o, "%5s  %7s %7s   %8s %7s %7s   %16s %16s", "f", "keys", "blocks", "dense",
                "keys", "blocks", "keys", "blocks");
    for (int i = 0; i < SPARSE_POINTS; i++)
        report_line(o, "%4.0f%%  %6.1f%% %6.1f%%   %8.3f %7.3f %7.3f   %7.2f, %6.2f  %7.2f, %6.2f",
                    100 * pt[i].fraction, 100 * pt[i].key_fraction, 100 * pt[i].block_fraction,
                    pt[i].dense_ns, pt[i].keys_ns, pt[i].blocks_ns, time_ratio(m[0], 0, i),
                    time_ratio(m[1], 0, i), time_ratio(m[0], 1, i), time_ratio(m[1], 1, i));
}

static void plot_sparse(const invent_opts *o, const sparse_point *pt)
{
    plot *p = plot_begin(o, "ch11_sparse");
    plot_set(p, "T", SPARSE_T);
    plot_set(p, "heads", SPARSE_HEADS);
    plot_set(p, "dh", SPARSE_DH);
    int alike = 1; /* how many of the smallest f give the diagonal blocks alone */
    while (alike < SPARSE_POINTS && pt[alike].block_fraction == pt[0].block_fraction)
        alike++;
    plot_set(p, "diagonal", pt[0].block_fraction);
    plot_set(p, "diagonal_time", pt[0].blocks_ms / pt[0].dense_ms);
    plot_set(p, "first_f", pt[0].fraction);
    plot_set(p, "last_alike_f", pt[alike - 1].fraction);
    plot_set(p, "alike", alike);
    plot_block(p, "fraction_keys  keys/dense  fraction_blocks  blocks/dense");
    for (int i = 0; i < SPARSE_POINTS; i++)
        PLOT_ROW(p, pt[i].key_fraction, pt[i].keys_ms / pt[i].dense_ms, pt[i].block_fraction,
                 pt[i].blocks_ms / pt[i].dense_ms);
    plot_render(p, "ch11_sparse.gp");
}

enum { PAYS, COSTS, NOISY }; /* a point's verdict: both measurements below 1, both not, or split */

/* m, kind, i -> PAYS, COSTS or NOISY */
static int verdict(sparse_pair m, int kind, int i)
{
    int a = time_ratio(m[0], kind, i) < 1.0, b = time_ratio(m[1], kind, i) < 1.0;
    return a != b ? NOISY : a ? PAYS : COSTS;
}

/* m, kind, which verdict -> text: the shares computed at the points with that
 * verdict, each once ("1.4%, 3.4% and 10.4%"), empty when none */
static void shares_with(sparse_pair m, int kind, int which, char *text, size_t size)
{
    double share[SPARSE_POINTS];
    int n = 0;
    for (int i = 0; i < SPARSE_POINTS; i++) {
        double f = kind ? m[0][i].block_fraction : m[0][i].key_fraction;
        if (verdict(m, kind, i) == which && (n == 0 || share[n - 1] != f))
            share[n++] = f;
    }
    text[0] = '\0';
    for (int k = 0; k < n; k++) {
        size_t used = strlen(text);
        snprintf(text + used, size - used, "%s%.1f%%", k == 0 ? "" : k == n - 1 ? " and " : ", ",
                 100 * share[k]);
    }
}

/* m, kind -> text: where, on this run, they are faster than dense, where slower,
 * and where the two measurements disagree; only what the numbers say */
static const char *paying(sparse_pair m, int kind, char *text, size_t size)
{
    static const char *const lead[3] = {"are faster than dense at ", "are slower at ",
                                        "are noisy (the two measurements disagree) at "};
    char shares[3][80];
    int n = 0, said = 0;
    for (int v = PAYS; v <= NOISY; v++) {
        shares_with(m, kind, v, shares[v], sizeof shares[v]);
        n += shares[v][0] != '\0';
    }
    text[0] = '\0';
    for (int v = PAYS; v <= NOISY; v++) {
        if (!shares[v][0])
            continue;
        size_t used = strlen(text);
        said++;
        snprintf(text + used, size - used, "%s%s%s", said == 1 ? "" : said == n ? ", and " : ", ",
                 lead[v], shares[v]);
    }
    size_t used = strlen(text);
    snprintf(text + used, size - used, " of the scores");
    return text;
}

/* m, kind ("key lists", "block lists"), i -> whether the cost per computed score
 * at point 0 exceeds that at the last point by half in both measurements (1), in
 * neither (0), or in one only (-1) */
static int fixed_cost_shows(sparse_pair m, int kind)
{
    int last = SPARSE_POINTS - 1, shows[2];
    for (int k = 0; k < 2; k++)
        shows[k] = kind ? m[k][0].blocks_ns > 1.5 * m[k][last].blocks_ns
                        : m[k][0].keys_ns > 1.5 * m[k][last].keys_ns;
    return shows[0] == shows[1] ? shows[0] : -1;
}

/* m -> in words: why few scores do not cost a proportionally short time, where
 * the numbers say so */
static void sparse_fixed_costs(const invent_opts *o, sparse_pair m)
{
    const sparse_point *few = &m[0][0], *all = &m[0][SPARSE_POINTS - 1];
    int keys = fixed_cost_shows(m, 0), blocks = fixed_cost_shows(m, 1);
    const char *reading[3] = {"so no fixed cost per query shows on this run",
                              "so what each query costs however few keys it lists (its "
                              "softmax per head, writing its output row, being handed to a "
                              "worker) dominates",
                              "and the second measurement says otherwise: noisy"};
    report_text(o, "At f = %.0f%% a query of the key lists computes %.1f scores on average, and "
                   "%.3g ns per score against %.3g at f = 100%% (first measurement), %s. They "
                   "take %.2f of the dense time for %.1f%% of its scores. Block lists, which pay "
                   "for each block of %d queries (packing the queries, writing the output), "
                   "take %.2f times the dense time per score at f = %.0f%% and %.2f at 100%%, "
                   "%s.",
                100 * few->fraction, few->key_fraction * (SPARSE_T + 1) / 2.0, few->keys_ns,
                all->keys_ns, reading[keys < 0 ? 2 : keys], few->keys_ms / few->dense_ms,
                100 * few->key_fraction, ATTN_TILE, few->blocks_ns / few->dense_ns,
                100 * few->fraction, all->blocks_ns / all->dense_ns,
                blocks < 0 ? "noisy between the two measurements"
                           : blocks ? "so that fixed cost shows at small f"
                                    : "so no fixed cost per block shows on this run");
}

static void sparse_section(const invent_opts *o, gsl_rng *r)
{
    report_section(o, "Computing fewer scores");
    report_text(o, "If a pattern says which scores matter, only those need computing (Child et "
                   "al., 2019; Dao et al., 2022, for block-sparse FlashAttention): a fraction f "
                   "of the scores should cost about f of the time. T = %d, %d heads of %d. Key "
                   "lists: each query keeps itself and a random f of its earlier keys, gathered "
                   "one by one. Block lists: each block of %d queries keeps its own block and "
                   "a random f of the earlier blocks, computed by the tiled kernel's tiles. "
                   "First what is counted:", SPARSE_T, SPARSE_HEADS, SPARSE_DH, ATTN_TILE);
    scope *sc = scope_open();
    problem p;
    problem_new(sc, SPARSE_T, SPARSE_HEADS, SPARSE_DH, r, &p);
    check_sparse_count(sc, &p, r);
    check_sparse_agrees(sc, &p, r);
    scope_close(sc);
    attn_shape s = {SPARSE_T, SPARSE_HEADS, SPARSE_DH, 0, (float)(1.0 / sqrt(SPARSE_DH))};
    sparse_pair m;
    double diff;
    char keys_text[400], blocks_text[400];
    unsigned long seed = gsl_rng_get(r);
    for (int k = 0; k < 2; k++)
        chapter_must(sparse_measure(&s, sparse_fractions, SPARSE_POINTS, SPARSE_ROUNDS, seed,
                                    m[k], &diff), "the sparse timings");
    report_text(o, "Then what it takes, measured twice on the same lists, each time the medians "
                   "of %d interleaved rounds (a shared machine is noisy; no claim rests on these "
                   "times). \"Computed\" is the share of the visible scores each list really "
                   "holds, after rounding:", SPARSE_ROUNDS);
    print_sparse(o, m);
    const sparse_point *last = &m[0][SPARSE_POINTS - 1];
    double gather = last->keys_ns / last->dense_ns;
    report_text(o, "The counts hold exactly; the times say how far that goes. Gathering keys "
                   "one by one costs %.1f times the dense tiles' time per score at f = 100%%%s: "
                   "on this run they %s. Block lists keep the tiles (%.1f times the "
                   "dense time per score at f = 100%%) and %s; a block is 1/%d of this "
                   "sequence, so small f rounds to the diagonal blocks alone (%.1f%% of the "
                   "scores computed at f = %.0f%%%s). `make bench` runs the same measurement "
                   "at a longer T.",
                gather, gather > 1.0 ? ", so the key lists can pay only at small f" : "",
                paying(m, 0, keys_text, sizeof keys_text),
                last->blocks_ns / last->dense_ns, paying(m, 1, blocks_text, sizeof blocks_text),
                SPARSE_T / ATTN_TILE, 100 * m[0][0].block_fraction, 100 * m[0][0].fraction,
                m[0][1].block_fraction == m[0][0].block_fraction ? ", and as many at the next f"
                                                                 : "");
    sparse_fixed_costs(o, m);
    plot_sparse(o, m[0]);
}

/* ------------------------------------------- the cache, read at decode time */

#define DECODE_QUICK_TOKENS 256
#define DECODE_FULL_TOKENS 5000 /* the ledger's (B3) */
#define DECODE_QUICK_MIB 48

static const char *decode_names[LEDGER_CACHES] = {"keys+values, d = 1000 per head",
                                                  "keys+values, r = 200 per head",
                                                  "raw tokens, d = 1000, shared"};

/* cache 0..2 -> the ledger's bytes for the whole model (B3, Q1, H2, C1):
 * keys and values per head, or the raw tokens once, 2 bytes a number;
 * computed from the shapes, as chapters 5 and 6 count them */
static double ledger_model_bytes(int cache)
{
    attn_decode_shape s = decode_ledger_shape(DECODE_FULL_TOKENS, cache);
    kvcache_shape shape = {DECODE_FULL_TOKENS, LEDGER_LAYERS, s.Hkv, s.dh, 2};
    uint64_t bytes;
    chapter_must(kvcache_bytes(&shape, &bytes), "the ledger's cache bytes");
    return (decode_ledger_shared(cache) ? 1.0 : 2.0) * (double)bytes;
}

/* -> the arena's MiB: --decode-mib, or at least one cache of d per head,
 * 48 MiB quick; with --full 4 times the last-level cache and two caches */
static size_t decode_arena_mib(const sizes *z)
{
    size_t cache = (decode_ledger_floats(z->decode_tokens) * sizeof(float) >> 20) + 1;
    size_t mib = z->full ? 2 * cache : cache;
    size_t floor = z->full ? 4 * (cpu_cache_bytes(3) >> 20) : DECODE_QUICK_MIB;
    if (z->decode_mib)
        return z->decode_mib;
    return mib > floor ? mib : floor;
}

/* s, pt: (3) caches, peak GFLOP/s -> the table: bytes, FLOP per byte, time, bound, ratios */
static void print_decode(const invent_opts *o, const attn_decode_shape *s, const decode_point *pt,
                         double peak)
{
    report_line(o, "%-31s %6s %9s %9s %10s %9s   %s", "", "MB", "FLOP", "ms per", "share of",
                "bound", "times less than d per head:");
    report_line(o, "%-31s %6s %9s %9s %10s %9s %8s %8s %8s", "cache of one layer", "read",
                "per byte", "token", "read rate", "ms", "time", "bytes", "bound");
    double bound0 = decode_ledger_bound_ms(&s[0], &pt[0], peak);
    for (int i = 0; i < LEDGER_CACHES; i++) {
        double bound = decode_ledger_bound_ms(&s[i], &pt[i], peak);
        report_line(o, "%-31s %6.1f %9.1f %9.3f %9.0f%% %9.3f %8.2f %8.1f %8.1f",
                    decode_names[i], pt[i].bytes / 1e6, decode_ledger_flop(&s[i]) / pt[i].bytes,
                    pt[i].ms, 100 * pt[i].share, bound, pt[0].ms / pt[i].ms,
                    pt[0].bytes / pt[i].bytes, bound0 / bound);
    }
}

/* the same -> the figure: each cache's bytes, bound and time as speed-ups over d per head */
static void plot_decode(const invent_opts *o, const attn_decode_shape *s, const decode_point *pt,
                        double peak)
{
    plot *p = plot_begin(o, "ch11_decode");
    plot_set(p, "T", (double)s[0].T);
    plot_set(p, "heads", LEDGER_FUNCS);
    plot_block(p, "cache  bytes_ratio  bound_ratio  speed_up  (each over d per head)");
    double bound0 = decode_ledger_bound_ms(&s[0], &pt[0], peak);
    for (int i = 0; i < LEDGER_CACHES; i++)
        PLOT_ROW(p, i, pt[0].bytes / pt[i].bytes,
                 bound0 / decode_ledger_bound_ms(&s[i], &pt[i], peak), pt[0].ms / pt[i].ms);
    plot_render(p, "ch11_decode.gp");
}

/* arena: (n) floats -> the three caches measured, with the peak multiply-add rate */
static void measure_decode(const sizes *z, const float *arena, size_t n, attn_decode_shape *s,
                           decode_point *pt, double *peak)
{
    chapter_must(decode_ledger_measure(z->decode_tokens, arena, n, z->full ? 5 : 3, s, pt),
                 "the decode timings");
    chapter_must(machine_fma_peak(0.1, peak), "the peak multiply-add rate");
}

/* the same -> the measured speed-ups against bytes and bounds, in words */
static void decode_verdict(const invent_opts *o, const attn_decode_shape *s,
                           const decode_point *pt, double peak)
{
    double bound[LEDGER_CACHES], fpb[LEDGER_CACHES];
    for (int i = 0; i < LEDGER_CACHES; i++) {
        bound[i] = decode_ledger_bound_ms(&s[i], &pt[i], peak);
        fpb[i] = decode_ledger_flop(&s[i]) / pt[i].bytes;
    }
    double balance = peak / pt[2].bandwidth_gbps, bytes_r = pt[0].bytes / pt[1].bytes;
    double gflops = decode_ledger_flop(&s[2]) / pt[2].ms / 1e6;
    report_text(o, "Keys and values of r read %.1f times fewer bytes and take %.1f times less "
                   "time, %.0f%% of what the bytes promise: at %.1f FLOP per byte, against this "
                   "machine's balance of %.0f (peak / read rate, same run), %s. Their bound "
                   "says %.1f rather than %.1f because each bound divides by the read rate "
                   "measured in its own rounds: %.1f GB/s beside d per head, %.1f beside r.",
                bytes_r, pt[0].ms / pt[1].ms, 100 * pt[0].ms / pt[1].ms / bytes_r, fpb[1],
                balance, decode_ledger_regime(fpb[1], balance), bound[0] / bound[1], bytes_r,
                pt[0].bandwidth_gbps, pt[1].bandwidth_gbps);
    report_text(o, "The raw tokens read %.1f times fewer bytes than d per head for as many "
                   "multiply-adds: %.1f FLOP per byte against the balance of %.0f, %s. Their "
                   "kernel runs at %.0f%% of the peak multiply-add rate and reads at %.0f%% of "
                   "the read rate, so it is %.1f times faster than d per head, where the bytes "
                   "promise %.0f and the bound %.1f. A token through all %d layers of the "
                   "ledger's model at this T: %.0f, %.0f and %.0f ms. What a smaller cache buys "
                   "at decode time is time only while memory bounds the step.",
                pt[0].bytes / pt[2].bytes, fpb[2], balance, decode_ledger_regime(fpb[2], balance),
                100 * gflops / peak, 100 * pt[2].share, pt[0].ms / pt[2].ms,
                pt[0].bytes / pt[2].bytes, bound[0] / bound[2], LEDGER_LAYERS,
                LEDGER_LAYERS * pt[0].ms, LEDGER_LAYERS * pt[1].ms, LEDGER_LAYERS * pt[2].ms);
}

/* z, the arena's MiB, s: (3) caches -> the ledger's caches and what one
 * step reads and does, computed from the shapes */
static void decode_intro(const invent_opts *o, const sizes *z, size_t mib,
                         const attn_decode_shape *s)
{
    double llc = (double)cpu_cache_bytes(3) / 1048576.0, mb[LEDGER_CACHES], madds[LEDGER_CACHES];
    for (int i = 0; i < LEDGER_CACHES; i++) {
        mb[i] = (double)attn_decode_bytes(&s[i], decode_ledger_shared(i)) / 1e6;
        madds[i] = decode_ledger_flop(&s[i]) / 2e6;
    }
    report_section(o, "The ledger's caches, read at decode time");
    report_text(o, "Chapters 5 and 6 counted the cache of the ledger's model (20 score "
                   "functions, d = 1,000, 50 layers, 5,000 tokens, 2 bytes a number): %.0f GB "
                   "of keys and values at d per head (B3, H2), %.0f GB at r = 200 (Q1, H2), "
                   "%.1f GB of raw tokens shared by every function (C1), %.0f and %.0f times "
                   "fewer. Writing one token at a time, each step reads its whole cache once, "
                   "so bytes become time. One layer of T = %zu tokens, 20 heads, float32, the "
                   "caches cycled through %zu MiB, %.2g times the %.0f MiB last-level cache%s. "
                   "What a step reads (its cache once, and the queries) and the multiply-adds "
                   "it does (2 H T dh) are computed from the shapes, not measured: %.1f, %.1f "
                   "and %.1f MB, %.1f, %.1f and %.1f million multiply-adds. The shared raw "
                   "tokens read far fewer bytes but need as many multiply-adds as d per head: "
                   "every head scores the same vectors with its own query.",
                ledger_model_bytes(0) / 1e9, ledger_model_bytes(1) / 1e9,
                ledger_model_bytes(2) / 1e9, ledger_model_bytes(0) / ledger_model_bytes(1),
                ledger_model_bytes(0) / ledger_model_bytes(2), z->decode_tokens, mib,
                (double)mib / llc, llc,
                (double)mib >= 2 * llc ? ", so every step reads memory"
                                       : ": the caches may partly stay in it, so the shares "
                                         "below are of the read rate measured on the same "
                                         "caches, not of memory bandwidth (--full: the "
                                         "ledger's 5,000 tokens, far beyond it)",
                mb[0], mb[1], mb[2], madds[0], madds[1], madds[2]);
}

/* z's decode tokens and arena -> the three caches timed beside their bounds */
static void decode_section(const invent_opts *o, const sizes *z)
{
    size_t mib = decode_arena_mib(z), n = (mib << 20) / sizeof(float);
    scope *sc = scope_open();
    float *arena = SCOPE_KEEP(sc, malloc(n * sizeof *arena), free);
    for (size_t i = 0; i < n; i++) /* written, so that every page is real memory */
        arena[i] = (float)((double)(i * 37 % 101) / 50.0 - 1.0);
    attn_decode_shape s[LEDGER_CACHES];
    decode_point pt[LEDGER_CACHES];
    double peak;
    measure_decode(z, arena, n, s, pt, &peak);
    scope_close(sc);
    decode_intro(o, z, mib, s);
    report_text(o, "What each step takes: medians of %d rounds, each beside its bound, the "
                   "time at the read rate of the same caches measured in the same rounds or at the peak "
                   "multiply-add rate (%.0f GFLOP/s), whichever is longer. A shared machine is "
                   "noisy: no claim rests on these times.", z->full ? 5 : 3, peak);
    print_decode(o, s, pt, peak);
    decode_verdict(o, s, pt, peak);
    plot_decode(o, s, pt, peak);
}

static void plot_cost(const invent_opts *o, const sizes *z, const sweep *w)
{
    plot *p = plot_begin(o, "ch11_cost");
    plot_set(p, "window", (double)z->window);
    plot_set(p, "first_T", w->T[0]);
    plot_set(p, "last_T", w->T[w->n - 1]);
    plot_block(p, "T  madds  madds_tiled  cpu_ms  madds_window  T^2  T  (relative to the first T; "
                  "madds_tiled on the naive loops' scale)");
    for (size_t i = 0; i < w->n; i++) {
        double g = w->T[i] / w->T[0];
        PLOT_ROW(p, w->T[i], w->madds_full[i] / w->madds_full[0],
                 w->madds_tiled[i] / w->madds_full[0], w->cpu_ms[i] / w->cpu_ms[0],
                 w->madds_window[i] / w->madds_window[0], g * g, g);
    }
    plot_render(p, "ch11_cost.gp");
    p = plot_begin(o, "ch11_memory");
    plot_set(p, "first_T", w->T[0]);
    plot_set(p, "last_T", w->T[w->n - 1]);
    plot_set(p, "heads", (double)z->heads);
    plot_set(p, "dh", (double)z->dh);
    plot_block(p, "T  score_bytes  tiled_bytes");
    for (size_t i = 0; i < w->n; i++)
        PLOT_ROW(p, w->T[i], w->score_bytes[i], w->tiled_bytes[i]);
    plot_render(p, "ch11_memory.gp");
}

/* decode: the default T; T of at least 64 (below, the queries' share of the
 * bytes blurs the ledger's ratios) and an arena that holds one cache of d
 * per head; -> 0, or the exit code of cli_fail */
static int check_decode_sizes(const invent_opts *o, sizes *z)
{
    if (z->decode_tokens == 0)
        z->decode_tokens = z->full ? DECODE_FULL_TOKENS : DECODE_QUICK_TOKENS;
    if (z->decode_tokens < 64)
        return cli_fail(o, "--decode-tokens (%zu) must be 0 or at least 64: below, the "
                           "queries' share of the bytes read blurs the ratios", z->decode_tokens);
    size_t cache = decode_ledger_floats(z->decode_tokens) * sizeof(float);
    if (z->decode_mib && (z->decode_mib << 20) < cache)
        return cli_fail(o, "--decode-mib (%zu) must hold one cache of d per head: %zu tokens "
                           "need %zu MiB", z->decode_mib, z->decode_tokens, (cache >> 20) + 1);
    return 0;
}

/* the limits between options; -> 0, or the exit code of cli_fail */
static int check_sizes(const invent_opts *o, sizes *z)
{
    double work = (double)z->repeats * (double)z->tmax * (double)z->tmax * (double)z->heads *
                  (double)z->dh;
    if (z->tmax < 8 * z->tmin)
        return cli_fail(o, "--tmax (%zu) must be at least 8 times --tmin (%zu): the fits need "
                           "four lengths", z->tmax, z->tmin);
    if (z->tmax * z->heads * z->dh > ((size_t)1 << 24))
        return cli_fail(o, "--tmax * --heads * --dh must be at most 2^24 (memory of the "
                           "kernels), got %zu", z->tmax * z->heads * z->dh);
    if (work > (double)(1u << 28))
        return cli_fail(o, "--repeats * --tmax^2 * --heads * --dh must be at most 2^28 (keeps "
                           "the timed naive loops to a few seconds), got %.0f", work);
    if ((double)z->probe * (double)z->probe * (double)z->dh > (double)(1u << 26))
        return cli_fail(o, "--probe^2 * --dh must be at most 2^26 (the recall probe runs "
                           "attention over the probe about 70 times; a few seconds), got %.0f",
                        (double)z->probe * (double)z->probe * (double)z->dh);
    if (z->window >= z->tmin || z->window >= z->probe)
        return cli_fail(o, "--window (%zu) must be smaller than --tmin (%zu) and --probe (%zu)",
                        z->window, z->tmin, z->probe);
    return check_decode_sizes(o, z);
}

/* -> nonzero if the dump failed (dump_matrix has said why) */
static int dump_sweep(const invent_opts *o, const sweep *w)
{
    scope *sc = scope_open();
    gsl_matrix *m = scope_matrix(sc, w->n, 7);
    for (size_t i = 0; i < w->n; i++) {
        const double row[7] = {w->T[i], w->madds_full[i], w->madds_window[i], w->score_bytes[i],
                               w->tiled_bytes[i], w->cpu_ms[i], w->tiled_vs_blas[i]};
        for (size_t j = 0; j < 7; j++)
            gsl_matrix_set(m, i, j, row[j]);
    }
    int failed = dump_matrix(o, "sweep_T_madds_window_scores_tiled_ms_diff", m);
    scope_close(sc);
    return failed;
}

int main(int argc, char **argv)
{
    sizes z = {.tmin = 64, .tmax = 512, .heads = 1, .dh = 64, .window = 32, .probe = 256,
               .repeats = 3, .full = 0, .decode_tokens = 0, .decode_mib = 0};
    const cli_option options[] = {
        {"tmin", CLI_SIZE, &z.tmin, 16, 512,
         "shortest sequence T of the sweep (from 16: below, T(T+1)/2 is far from T^2/2)"},
        {"tmax", CLI_SIZE, &z.tmax, 128, 4096,
         "longest T (at least 8 * --tmin: T doubles from --tmin, 3 doublings at least; "
         "--repeats * --tmax^2 * --heads * --dh at most 2^28, a few seconds)"},
        {"heads", CLI_SIZE, &z.heads, 1, 64, "heads H"},
        {"dh", CLI_SIZE, &z.dh, 16, 256, "size dh of one head"},
        {"window", CLI_SIZE, &z.window, 1, 511,
         "width w of the sliding window (less than --tmin and --probe)"},
        {"probe", CLI_SIZE, &z.probe, 8, 2048,
         "tokens in the recall probe (--probe^2 * --dh at most 2^26)"},
        {"repeats", CLI_SIZE, &z.repeats, 1, 50,
         "timings at the longest T, times (tmax/T)^2 at shorter T (the fastest counts)"},
        {"full", CLI_FLAG, &z.full, 0, 1,
         "decode at the ledger's setting: 5,000 tokens, caches cycled through 4 times the "
         "last-level cache and two caches (1.5 GiB here; about 10 s; quick: 256 tokens, 48 MiB)"},
        {"decode-tokens", CLI_SIZE, &z.decode_tokens, 0, 10000,
         "decode: tokens T of one layer's cache (0: 256, 5000 with --full; else at least 64)"},
        {"decode-mib", CLI_SIZE, &z.decode_mib, 0, 4096,
         "decode: MiB the caches are cycled through (0: chosen; else at least one cache of d "
         "per head, 2 T 20 1000 floats)"},
    };
    const cli_spec spec = {"ch11", "Chapter 11: what attention costs, a sliding window, and "
                                   "attention without the T x T matrix.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc; /* --help (0) or a refusal */
    rc = check_sizes(&o, &z);
    if (rc == 0)
        rc = chapter_start(&o, "Chapter 11: why it is not inevitable");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(o.seed));
    sweep w;
    run_sweep(&z, r, &w);
    int dump_failed = dump_sweep(&o, &w);
    cost_section(&o, &z, &w);
    dump_failed = window_section(&o, &z, &w, r) || dump_failed;
    memory_section(&o, &w, workers_count());
    plot_cost(&o, &z, &w);
    sparse_section(&o, r);
    decode_section(&o, &z);
    scope_close(sc);
    return chapter_close(&o, dump_failed ? CHAPTER_EXIT_RUNTIME : 0,
                         "Quadratic cost is a property of attention's arithmetic, not of its "
                         "memory: the tiled kernel reaches the same numbers in a few tiles of "
                         "memory, while its multiply-adds still grow as T^2, which hardware does "
                         "well when the data stay close to it. Giving up the past, as a window "
                         "does, is a separate choice with a measurable price in recall. `make "
                         "bench` times the kernels on this machine.");
}
