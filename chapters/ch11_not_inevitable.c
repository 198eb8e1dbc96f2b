/* Chapter 11: why it is not inevitable.
 *
 * The derivation ends with a layer in which every token looks at every
 * earlier token. This chapter measures what that costs and what can be done
 * about it. The work and the memory of the plain matrix form grow as the
 * square of the sequence length T (claim N1). A sliding window caps the
 * work per token, but whatever lies further back than the window is gone
 * (N2). And the T x T matrix itself is not needed: streaming the keys past
 * each block of queries with a running maximum and sum gives the same output
 * while holding only a few tiles (N3), the observation behind
 * FlashAttention (Dao et al., 2022): on real hardware, moving memory, not
 * arithmetic, decides what is fast.
 */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>

#include "invent.h"

typedef struct {
    size_t tmin, tmax; /* sequence lengths T = tmin, 2 tmin, ..., tmax */
    size_t heads, dh;  /* H heads of size dh */
    size_t window;     /* w of the sliding window */
    size_t probe;      /* tokens in the recall probe */
    size_t repeats;    /* timings per T (the fastest counts) */
} sizes;

#define MAX_POINTS 16

/* What was measured at each T (one entry per T). */
typedef struct {
    size_t n;
    double T[MAX_POINTS];
    double madds_full[MAX_POINTS];   /* naive, causal: counted as it ran */
    double madds_window[MAX_POINTS]; /* naive, sliding window */
    double madds_tiled_window[MAX_POINTS]; /* tiled, sliding window */
    double score_bytes[MAX_POINTS];  /* blas: the materialised T x T scores */
    double tiled_bytes[MAX_POINTS];  /* tiled: all its extra memory */
    double cpu_ms[MAX_POINTS];       /* naive, thread CPU time, fastest repeat */
    double tiled_vs_blas[MAX_POINTS];/* max |tiled - blas| / max |blas| */
} sweep;

/* Q, K, V, out for one shape, as (T, H, dh) float arrays */
typedef struct {
    attn_shape s;
    float *q, *k, *v, *out, *ref;
} problem;

static void problem_free(problem *p)
{
    free(p->q), free(p->k), free(p->v), free(p->out), free(p->ref);
}

static int problem_new(size_t T, size_t H, size_t dh, size_t window, gsl_rng *r, problem *p)
{
    size_t n = T * H * dh;
    *p = (problem){{T, H, dh, window, (float)(1.0 / sqrt((double)dh))},
                   malloc(n * sizeof(float)), malloc(n * sizeof(float)),
                   malloc(n * sizeof(float)), malloc(n * sizeof(float)),
                   malloc(n * sizeof(float))};
    if (!p->q || !p->k || !p->v || !p->out || !p->ref) {
        problem_free(p);
        return INVENT_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        p->q[i] = (float)gsl_ran_gaussian(r, 1.0);
        p->k[i] = (float)gsl_ran_gaussian(r, 1.0);
        p->v[i] = (float)gsl_ran_gaussian(r, 1.0);
    }
    return INVENT_OK;
}

/* the fastest of `repeats` runs of naive, in CPU milliseconds of the process */
static int time_naive(problem *p, size_t repeats, attn_cost *cost, double *ms)
{
    *ms = INFINITY;
    for (size_t r = 0; r < repeats; r++) {
        double t0 = stopwatch_cpu();
        int status = attn_naive(&p->s, p->q, p->k, p->v, p->ref, cost);
        if (status != INVENT_OK)
            return status;
        *ms = fmin(*ms, 1e3 * (stopwatch_cpu() - t0));
    }
    return INVENT_OK;
}

/* every kernel at one T -> entry i of the sweep */
static int measure_T(const sizes *z, size_t T, gsl_rng *r, sweep *w, size_t i)
{
    problem p;
    int status = problem_new(T, z->heads, z->dh, 0, r, &p);
    if (status != INVENT_OK)
        return status;
    attn_cost naive, blas, tiled, windowed, tiled_windowed;
    size_t shorter = z->tmax / T; /* short runs repeat more: each T gets about equal time */
    size_t runs = shorter > 32 ? 1024 * z->repeats : z->repeats * shorter * shorter;
    status = time_naive(&p, runs, &naive, &w->cpu_ms[i]);
    if (status == INVENT_OK)
        status = attn_blas(&p.s, p.q, p.k, p.v, p.ref, &blas);
    if (status == INVENT_OK)
        status = attn_tiled(&p.s, p.q, p.k, p.v, p.out, &tiled);
    p.s.window = z->window;
    float *scratch = p.out; /* the windowed output is not needed, only its cost */
    if (status == INVENT_OK) {
        w->tiled_vs_blas[i] = attn_rel_diff(p.out, p.ref, T * z->heads * z->dh);
        status = attn_naive(&p.s, p.q, p.k, p.v, scratch, &windowed);
    }
    if (status == INVENT_OK)
        status = attn_tiled(&p.s, p.q, p.k, p.v, scratch, &tiled_windowed);
    if (status == INVENT_OK) {
        w->T[i] = (double)T;
        w->madds_full[i] = (double)naive.madds;
        w->madds_window[i] = (double)windowed.madds;
        w->madds_tiled_window[i] = (double)tiled_windowed.madds;
        w->score_bytes[i] = (double)blas.scratch_bytes;
        w->tiled_bytes[i] = (double)tiled.scratch_bytes;
    }
    problem_free(&p);
    return status;
}

static int run_sweep(const invent_opts *o, const sizes *z, gsl_rng *r, sweep *w)
{
    w->n = 0;
    for (size_t T = z->tmin; T <= z->tmax; T *= 2, w->n++) {
        int status = measure_T(z, T, r, w, w->n);
        if (status != INVENT_OK)
            return chapter_fail(o, "running the attention kernels", status);
    }
    return 0;
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
    report_line(o, "     T   multiply-adds   score matrix   naive CPU ms   window w=%zu madds",
                z->window);
    for (size_t i = 0; i < w->n; i++)
        report_line(o, "%6.0f   %13.0f   %10.0f B   %12.2f   %18.0f", w->T[i],
                    w->madds_full[i], w->score_bytes[i], w->cpu_ms[i], w->madds_window[i]);
}

static void cost_section(const invent_opts *o, const sizes *z, const sweep *w)
{
    report_section(o, "What attention costs as the sequence grows (N1)");
    report_text(o,
                "Every query scores every earlier key: T(T+1)/2 pairs, each a dot product of "
                "size dh and a weighted sum of values of size dh. The kernels count the "
                "multiply-adds they perform as they run; the matrix form records the bytes of "
                "the score matrix it holds; the naive loops are timed in the CPU time of "
                "this process (the fastest of %zu runs at the longest T, more at shorter T), "
                "which other programs on a busy machine barely move. "
                "H = %zu head%s of size %zu, T doubling from %zu to %zu.",
                z->repeats, z->heads, z->heads == 1 ? "" : "s", z->dh, z->tmin, z->tmax);
    print_cost_table(o, z, w);
    double p_madds = exponent_of(w, w->madds_full), p_bytes = exponent_of(w, w->score_bytes);
    double p_time = exponent_of(w, w->cpu_ms);
    report_text(o, "Fitted on log-log axes: multiply-adds grow as T^%.3f, the score matrix as "
                   "T^%.3f. The measured time grows as T^%.2f here; it is reported, not "
                   "claimed: on a shared machine, programs competing for the same core and "
                   "caches slow a run down in every clock, while the counts do not move.",
                p_madds, p_bytes, p_time);
    check_close("N1", "counted multiply-adds of causal attention grow as T^2 (fitted exponent)",
                p_madds, 2.0, 0.1);
    check_close("N1", "the materialised score matrix grows as T^2 (fitted exponent of its bytes)",
                p_bytes, 2.0, 1e-9);
}

/* ---------------------------------------------------------------- N2 */

/* The recall probe: token t's query is beta times the key of token t - d,
 * so attention that can see that token returns its value. -> the mean
 * relative error |out_t - v_{t-d}| / |v_{t-d}| over t = d..T-1. */
static int recall_at_distance(const problem *p, size_t d, double beta, double *error)
{
    const attn_shape *s = &p->s;
    size_t dh = s->dh;
    float *q = malloc(s->T * dh * sizeof *q), *out = malloc(s->T * dh * sizeof *out);
    int status = q && out ? INVENT_OK : INVENT_ENOMEM;
    for (size_t t = 0; t < s->T && status == INVENT_OK; t++)
        for (size_t j = 0; j < dh; j++)
            q[t * dh + j] = t >= d ? (float)beta * p->k[(t - d) * dh + j] : 0.0f;
    if (status == INVENT_OK)
        status = attn_tiled(s, q, p->k, p->v, out, NULL);
    double total = 0.0;
    for (size_t t = d; t < s->T && status == INVENT_OK; t++) {
        double diff = 0.0, size = 0.0;
        for (size_t j = 0; j < dh; j++) {
            double want = p->v[(t - d) * dh + j];
            diff += (out[t * dh + j] - want) * (out[t * dh + j] - want);
            size += want * want;
        }
        total += sqrt(diff / size);
    }
    *error = total / (double)(s->T - d);
    free(q), free(out);
    return status;
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

typedef struct {
    size_t n;
    size_t *distance;
    double *full, *windowed;
} recall_curve;

static int measure_recall(const sizes *z, gsl_rng *r, recall_curve *c)
{
    problem p;
    int status = problem_new(z->probe, 1, z->dh, 0, r, &p);
    if (status != INVENT_OK)
        return status;
    normalise_keys(&p);
    p.s.scale = 1.0f;
    const double beta = 60.0; /* own score 60; others ~ 60/sqrt(dh) each */
    size_t step = z->probe / 32 ? z->probe / 32 : 1;
    c->n = 0;
    for (size_t d = 0; d < z->probe && status == INVENT_OK; d++) {
        if (d % step && d + 1 != z->window && d != z->window)
            continue; /* every step-th distance, and both sides of the window's edge */
        c->distance[c->n] = d;
        p.s.window = 0;
        status = recall_at_distance(&p, d, beta, &c->full[c->n]);
        p.s.window = z->window;
        if (status == INVENT_OK)
            status = recall_at_distance(&p, d, beta, &c->windowed[c->n]);
        c->n++;
    }
    problem_free(&p);
    return status;
}

static void check_window_cost(const sizes *z, const sweep *w)
{
    double per_token = 0.0;
    for (size_t i = 0; i < w->n; i++)
        per_token = fmax(per_token, w->madds_window[i] / w->T[i]);
    double bound = 2.0 * (double)(z->dh * z->heads * z->window);
    char claim[160];
    snprintf(claim, sizeof claim, "with a window of w = %zu, multiply-adds per token stay at "
                                  "most 2 dh H w = %.0f at every T", z->window, bound);
    check_at_most("N2", claim, per_token, bound);
    check_at_most("N2", "so the windowed cost grows about linearly (fitted exponent)",
                  exponent_of(w, w->madds_window), 1.2);
    double tiled_per_token = 0.0;
    for (size_t i = 0; i < w->n; i++)
        tiled_per_token = fmax(tiled_per_token, w->madds_tiled_window[i] / w->T[i]);
    snprintf(claim, sizeof claim, "the tiled kernel skips the key tiles outside the window: "
                                  "per token at most 2 dh H (w + 2 tiles) = %.0f",
             2.0 * (double)(z->dh * z->heads * (z->window + 2 * ATTN_TILE)));
    check_at_most("N2", claim, tiled_per_token,
                  2.0 * (double)(z->dh * z->heads * (z->window + 2 * ATTN_TILE)));
}

static void check_recall(const sizes *z, const recall_curve *c)
{
    double inside = 0.0, outside = INFINITY, full = 0.0;
    for (size_t i = 0; i < c->n; i++) {
        full = fmax(full, c->full[i]);
        if (c->distance[i] < z->window)
            inside = fmax(inside, c->windowed[i]);
        else
            outside = fmin(outside, c->windowed[i]);
    }
    check_at_most("N2", "full causal attention recalls a token at every distance (worst error)",
                  full, 0.01);
    check_at_most("N2", "the window recalls a token fewer than w positions back (worst error)",
                  inside, 0.01);
    check_at_least("N2", "and loses every token w or more positions back (least error)",
                   outside, 0.5);
}

static void plot_recall(const invent_opts *o, const sizes *z, const recall_curve *c)
{
    plot *p = plot_begin(o, "ch11_recall");
    plot_set(p, "window", (double)z->window);
    plot_set(p, "probe", (double)z->probe);
    plot_block(p, "distance  error_full  error_window");
    for (size_t i = 0; i < c->n; i++)
        PLOT_ROW(p, (double)c->distance[i], c->full[i], c->windowed[i]);
    plot_render(p, "ch11_recall.gp");
}

static int dump_recall(const invent_opts *o, const recall_curve *c)
{
    gsl_matrix *m = gsl_matrix_alloc(c->n, 3);
    if (!m)
        return INVENT_ENOMEM;
    for (size_t i = 0; i < c->n; i++) {
        gsl_matrix_set(m, i, 0, (double)c->distance[i]);
        gsl_matrix_set(m, i, 1, c->full[i]);
        gsl_matrix_set(m, i, 2, c->windowed[i]);
    }
    int status = dump_matrix(o, "recall_distance_full_window", m);
    gsl_matrix_free(m);
    return status;
}

static int window_section(const invent_opts *o, const sizes *z, const sweep *w, gsl_rng *r)
{
    report_section(o, "A sliding window bounds the cost, and forgets (N2)");
    report_text(o,
                "Letting each token see only the w = %zu most recent tokens (itself included) "
                "caps the work per token at 2 dh H w multiply-adds, however long the sequence "
                "(the last column above). The price shows on a recall probe: %zu tokens with "
                "random unit keys, and at every position t a query that points at the key "
                "d positions back. Attention that can see that token copies out its value; "
                "the error is how far the output is from that value (0 perfect, about 1.4 for "
                "an unrelated value).",
                z->window, z->probe);
    check_window_cost(z, w);
    size_t cap = z->probe;
    recall_curve c = {0, malloc(cap * sizeof(size_t)), malloc(cap * sizeof(double)),
                      malloc(cap * sizeof(double))};
    int status = c.distance && c.full && c.windowed ? measure_recall(z, r, &c) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = dump_recall(o, &c);
    if (status == INVENT_OK) {
        report_line(o, "  distance d   error, full causal   error, window w = %zu", z->window);
        for (size_t i = 0; i < c.n; i += (c.n > 12 ? c.n / 12 : 1))
            report_line(o, "  %10zu   %18.2e   %21.2e", c.distance[i], c.full[i],
                        c.windowed[i]);
        check_recall(z, &c);
        plot_recall(o, z, &c);
    }
    free(c.distance), free(c.full), free(c.windowed);
    if (status == INVENT_EIO) /* only dump_matrix fails so, and it has said where */
        return CHAPTER_EXIT_RUNTIME;
    return status == INVENT_OK ? 0 : chapter_fail(o, "running the recall probe", status);
}

/* ---------------------------------------------------------------- N3 */

static void memory_section(const invent_opts *o, const sweep *w, int workers)
{
    report_section(o, "The same output without the T x T matrix (N3)");
    report_text(o,
                "The tiled kernel never forms the score matrix. For each block of %d queries "
                "it streams the visible key blocks past, keeping per query a running maximum "
                "m, a running sum l of exp(score - m) and an unnormalised output; a new block "
                "with a larger maximum rescales both by exp(m_old - m_new) (Milakov and "
                "Gimelshein, 2018). Its extra memory, as allocated for its %d worker "
                "thread%s, next to the matrix form's:",
                ATTN_TILE, workers, workers == 1 ? "" : "s");
    report_line(o, "     T   matrix form: scores   tiled: all extra   max |tiled - matrix| / max");
    double worst = 0.0;
    for (size_t i = 0; i < w->n; i++) {
        report_line(o, "%6.0f   %17.0f B   %14.0f B   %26.2e", w->T[i], w->score_bytes[i],
                    w->tiled_bytes[i], w->tiled_vs_blas[i]);
        worst = fmax(worst, w->tiled_vs_blas[i]);
    }
    check_at_most("N3", "the tiled online softmax gives the materialised matrix form's output "
                        "(float, largest relative difference over every T)", worst, 1e-5);
    double p_tiled = exponent_of(w, w->tiled_bytes);
    char detail[160];
    snprintf(detail, sizeof detail, "fitted exponent of its extra memory: %.3f (matrix form: %.3f)",
             p_tiled, exponent_of(w, w->score_bytes));
    check_true("N3", "the tiled kernel's extra memory grows at most linearly in T (O(T))",
               p_tiled <= 1.0, detail);
    size_t last = w->n - 1;
    check_at_most("N3", "at the longest T each worker thread holds less than half the score "
                        "matrix of one head (ratio of bytes)",
                  w->tiled_bytes[last] / workers / w->score_bytes[last], 0.5);
}

static void plot_cost(const invent_opts *o, const sizes *z, const sweep *w)
{
    plot *p = plot_begin(o, "ch11_cost");
    plot_set(p, "window", (double)z->window);
    plot_set(p, "first_T", w->T[0]);
    plot_set(p, "last_T", w->T[w->n - 1]);
    plot_block(p, "T  madds  score_bytes  cpu_ms  madds_window  T^2  T  (relative to the first T)");
    for (size_t i = 0; i < w->n; i++) {
        double g = w->T[i] / w->T[0];
        PLOT_ROW(p, w->T[i], w->madds_full[i] / w->madds_full[0],
                 w->score_bytes[i] / w->score_bytes[0], w->cpu_ms[i] / w->cpu_ms[0],
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

/* -> bytes of scratch one worker of the tiled kernel allocates for heads of size dh
 * (the same at every T: a few tiles), measured on a one-token problem */
static int tiled_bytes_per_worker(size_t dh, gsl_rng *r, double *bytes)
{
    problem p;
    attn_cost cost;
    int status = problem_new(1, 1, dh, 0, r, &p);
    if (status != INVENT_OK)
        return status;
    status = attn_tiled(&p.s, p.q, p.k, p.v, p.out, &cost);
    problem_free(&p);
    *bytes = (double)cost.scratch_bytes / workers_count();
    return status;
}

/* the limits between options; -> 0, or the exit code of cli_fail */
static int check_sizes(const invent_opts *o, const sizes *z, double worker_bytes)
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
    if (z->window >= z->tmin || z->window >= z->probe)
        return cli_fail(o, "--window (%zu) must be smaller than --tmin (%zu) and --probe (%zu)",
                        z->window, z->tmin, z->probe);
    if (2.0 * worker_bytes >= 4.0 * (double)z->tmax * (double)z->tmax)
        return cli_fail(o, "--tmax (%zu) is too short for --dh %zu: one worker's tiles (%.0f B) "
                           "must be less than half of one head's score matrix at --tmax (%.0f B)",
                        z->tmax, z->dh, worker_bytes, 4.0 * (double)z->tmax * (double)z->tmax);
    return 0;
}

static int dump_sweep(const invent_opts *o, const sweep *w)
{
    gsl_matrix *m = gsl_matrix_alloc(w->n, 7);
    if (!m)
        return INVENT_ENOMEM;
    for (size_t i = 0; i < w->n; i++) {
        const double row[7] = {w->T[i], w->madds_full[i], w->madds_window[i], w->score_bytes[i],
                               w->tiled_bytes[i], w->cpu_ms[i], w->tiled_vs_blas[i]};
        for (size_t j = 0; j < 7; j++)
            gsl_matrix_set(m, i, j, row[j]);
    }
    int status = dump_matrix(o, "sweep_T_madds_window_scores_tiled_ms_diff", m);
    gsl_matrix_free(m);
    return status;
}

int main(int argc, char **argv)
{
    sizes z = {.tmin = 64, .tmax = 512, .heads = 1, .dh = 64, .window = 32, .probe = 256,
               .repeats = 3};
    const cli_option options[] = {
        {"tmin", CLI_SIZE, &z.tmin, 16, 512,
         "shortest sequence T of the sweep (from 16: below, T(T+1)/2 is far from T^2/2)"},
        {"tmax", CLI_SIZE, &z.tmax, 128, 4096,
         "longest T (T doubles from --tmin, 3 doublings at least; --repeats * --tmax^2 * "
         "--heads * --dh at most 2^28, a few seconds)"},
        {"heads", CLI_SIZE, &z.heads, 1, 64, "heads H"},
        {"dh", CLI_SIZE, &z.dh, 16, 256, "size dh of one head"},
        {"window", CLI_SIZE, &z.window, 1, 511,
         "width w of the sliding window (less than --tmin and --probe)"},
        {"probe", CLI_SIZE, &z.probe, 8, 4096, "tokens in the recall probe"},
        {"repeats", CLI_SIZE, &z.repeats, 1, 50,
         "timings at the longest T, times (tmax/T)^2 at shorter T (the fastest counts)"},
    };
    const cli_spec spec = {"ch11", "Chapter 11: what attention costs, a sliding window, and "
                                   "attention without the T x T matrix.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    sweep w;
    double worker_bytes = 0.0;
    gsl_rng *r = rng_new(o.seed);
    if (!r)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    int status = tiled_bytes_per_worker(z.dh, r, &worker_bytes);
    rc = status == INVENT_OK ? check_sizes(&o, &z, worker_bytes)
                             : chapter_fail(&o, "measuring the tiled kernel", status);
    if (rc == 0)
        rc = chapter_start(&o, "Chapter 11: why it is not inevitable") == CLI_RUN ? 0 : 2;
    if (rc == 0)
        rc = run_sweep(&o, &z, r, &w);
    if (rc == 0 && dump_sweep(&o, &w) != INVENT_OK)
        rc = CHAPTER_EXIT_RUNTIME; /* dump_matrix has said what went wrong */
    if (rc == 0) {
        cost_section(&o, &z, &w);
        rc = window_section(&o, &z, &w, r);
    }
    if (rc == 0) {
        memory_section(&o, &w, workers_count());
        plot_cost(&o, &z, &w);
    }
    gsl_rng_free(r);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "Quadratic cost is a property of the matrix form, not of attention's "
                    "output: the tiled kernel reaches the same numbers in a few tiles of "
                    "memory, so what remains quadratic is arithmetic, which hardware does "
                    "well. Giving up the past, as a window does, is a separate choice with a "
                    "measurable price in recall. `make bench` times the kernels on this "
                    "machine.");
    return chapter_end();
}
