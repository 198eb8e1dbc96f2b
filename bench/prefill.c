/* make bench, prefill: causal multi-head attention over a whole sequence,
 * the three kernels of attn_kernels.h against two same-run yardsticks.
 *
 * For T = tmin, 2 tmin, ..., tmax and H heads of size dh, every round
 * (after a warm-up) times, one after the other on the same random inputs:
 * the machine's peak multiply-add rate (machine.h), tiled, blas, and
 * cblas_sgemm on the score product Q_h K_h^T of every head, (T, dh) x
 * (dh, T) with all OpenBLAS threads: the largest GEMM attention contains,
 * with as many FLOP as causal attention's useful work (4 dh T(T+1)/2 H).
 * A busy machine slows a whole round, so each kernel's share of sgemm is
 * taken round by round, then the median. Other programs can only lower a
 * peak measurement, so the machine's peak is the best one of the whole run
 * and each kernel's share of it is its median rate over that. naive runs
 * once per T up to --naive-max, as the reference every other kernel must
 * match. */
#include <gsl/gsl_cblas.h>
#include <math.h>
#include <stdlib.h>

#include "bench.h"

enum { NAIVE, BLAS, TILED, SGEMM, KINDS }; /* the first three index attn_kernels */
#define MAX_T 17
#define MAX_ROUNDS 50 /* twice the largest --rounds: short T take twice as many */
#define PEAK_SECONDS 0.03

typedef struct {
    size_t T;
    int ran[KINDS];
    double ms[KINDS], gflops[KINDS], of_sgemm[KINDS], of_peak[KINDS];
    double extra[KINDS], diff[KINDS];
    double peak; /* GFLOP/s, the best of this T's rounds */
} prefill_row;

/* one T's arrays: inputs, naive's output, a kernel's output, the GEMM's,
 * and a workspace for every kernel */
typedef struct {
    attn_shape s;
    float *in[3], *ref, *got, *C;
    attn_work work;
} problem;

/* per round: seconds per kind, the peak, and the shares of sgemm */
typedef struct {
    double sec[KINDS][MAX_ROUNDS], peak[MAX_ROUNDS], of_sgemm[KINDS][MAX_ROUNDS];
} round_log;

static const char *name_of(int k) { return k == SGEMM ? "sgemm" : attn_kernels[k].name; }

/* sgemm Q_h K_h^T for every head -> seconds */
static double time_sgemm(const problem *p)
{
    int ld = (int)(p->s.H * p->s.dh), T = (int)p->s.T;
    double t0 = stopwatch_now();
    for (size_t h = 0; h < p->s.H; h++)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, T, (int)p->s.dh, 1.0f,
                    p->in[0] + h * p->s.dh, ld, p->in[1] + h * p->s.dh, ld, 0.0f, p->C, T);
    return stopwatch_now() - t0;
}

/* kernel k into out -> seconds and its cost */
static int time_kernel(problem *p, int k, float *out, double *sec, attn_cost *cost)
{
    double t0 = stopwatch_now();
    int status = attn_kernels[k].run(&p->s, p->in[0], p->in[1], p->in[2], out, &p->work, cost);
    *sec = stopwatch_now() - t0;
    return status;
}

/* round r (-1: warm-up, not kept): peak, tiled, sgemm, blas (tiled right
 * after the pause, while OpenBLAS's threads sleep; sgemm right after tiled,
 * so that a change in the machine's load falls on both alike); the outputs
 * compared with naive's in the last round when it ran */
static int run_round(problem *p, int r, int last, prefill_row *row, round_log *log)
{
    double sec[KINDS], peak;
    bench_settle();
    int status = machine_fma_peak(PEAK_SECONDS, &peak);
    const int order[2] = {TILED, BLAS};
    for (int i = 0; i < 2 && status == INVENT_OK; i++) {
        attn_cost cost;
        int k = order[i];
        status = time_kernel(p, k, p->got, &sec[k], &cost);
        row->extra[k] = (double)cost.scratch_bytes;
        if (last && row->ran[NAIVE])
            row->diff[k] = attn_rel_diff(p->got, p->ref, p->s.T * p->s.H * p->s.dh);
        if (k == TILED)
            sec[SGEMM] = time_sgemm(p);
    }
    if (r < 0 || status != INVENT_OK)
        return status;
    double useful = 2.0 * (double)attn_useful_madds(&p->s);
    double gemm = 2.0 * (double)p->s.T * (double)p->s.T * (double)(p->s.H * p->s.dh);
    log->peak[r] = peak;
    for (int k = BLAS; k < KINDS; k++) {
        double rate = (k == SGEMM ? gemm : useful) / sec[k] / 1e9;
        log->sec[k][r] = sec[k];
        log->of_sgemm[k][r] = rate / (gemm / sec[SGEMM] / 1e9);
    }
    return INVENT_OK;
}

/* naive once (the reference) when T <= naive_max */
static int run_naive(problem *p, const bench_sizes *z, prefill_row *row)
{
    if (p->s.T > z->naive_max)
        return INVENT_OK;
    attn_cost cost;
    double sec;
    int status = time_kernel(p, NAIVE, p->ref, &sec, &cost);
    row->ran[NAIVE] = status == INVENT_OK;
    row->ms[NAIVE] = 1e3 * sec;
    row->gflops[NAIVE] = 2.0 * (double)attn_useful_madds(&p->s) / sec / 1e9;
    row->extra[NAIVE] = (double)cost.scratch_bytes;
    return status;
}

/* the rounds' log -> the row's medians and best peak; naive against the
 * median sgemm */
static void summarise(const problem *p, int rounds, round_log *log, prefill_row *row)
{
    double useful = 2.0 * (double)attn_useful_madds(&p->s);
    double gemm = 2.0 * (double)p->s.T * (double)p->s.T * (double)(p->s.H * p->s.dh);
    row->peak = 0.0;
    for (int r = 0; r < rounds; r++)
        row->peak = fmax(row->peak, log->peak[r]);
    for (int k = BLAS; k < KINDS; k++) {
        row->ran[k] = 1;
        row->ms[k] = 1e3 * stopwatch_median(log->sec[k], (size_t)rounds);
        row->gflops[k] = (k == SGEMM ? gemm : useful) / row->ms[k] / 1e6;
        row->of_sgemm[k] = stopwatch_median(log->of_sgemm[k], (size_t)rounds);
    }
    row->extra[SGEMM] = (double)(p->s.T * p->s.T * sizeof(float));
    row->of_sgemm[NAIVE] = row->gflops[NAIVE] / row->gflops[SGEMM];
}

/* p -> its arrays and workspace freed */
static void problem_free(problem *p)
{
    free(p->in[0]), free(p->in[1]), free(p->in[2]), free(p->ref), free(p->got), free(p->C);
    attn_work_free(&p->work);
}


/* every kernel at one T -> one row */
static int measure_T(const bench_sizes *z, size_t T, prefill_row *row)
{
    problem p = {{T, z->heads, z->dh, 0, (float)(1.0 / sqrt((double)z->dh))}, {NULL}, NULL,
                 NULL, NULL, {NULL, 0}};
    size_t n = T * z->heads * z->dh;
    for (int i = 0; i < 3; i++)
        p.in[i] = malloc(n * sizeof(float));
    p.ref = malloc(n * sizeof(float)), p.got = malloc(n * sizeof(float));
    p.C = malloc(T * T * sizeof(float));
    int status = p.in[0] && p.in[1] && p.in[2] && p.ref && p.got && p.C ? INVENT_OK
                                                                         : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = attn_work_for(attn_kernels_work, &p.s, &p.work);
    for (int i = 0; i < 3 && status == INVENT_OK; i++)
        bench_fill(p.in[i], n, 17 * T + (size_t)i);
    *row = (prefill_row){.T = T};
    for (int k = 0; k < KINDS; k++)
        row->diff[k] = NAN;
    int rounds = (int)z->rounds * (T <= 1024 ? 2 : 1); /* short runs are noisier */
    round_log *log = malloc(sizeof *log);
    if (status == INVENT_OK)
        status = log ? run_naive(&p, z, row) : INVENT_ENOMEM;
    for (int r = -1; r < rounds && status == INVENT_OK; r++)
        status = run_round(&p, r, r == rounds - 1, row, log);
    if (status == INVENT_OK)
        summarise(&p, rounds, log, row);
    free(log);
    problem_free(&p);
    return status;
}

/* rows -> the table: per T and kernel, time, rate and the shares */
static void print_table(const invent_opts *o, const prefill_row *rows, int n, size_t naive_max)
{
    report_line(o, "%6s  %-6s %10s %9s %9s %8s %10s %10s", "T", "kernel", "median ms",
                "GFLOP/s", "of sgemm", "of peak", "extra MiB", "rel. diff");
    for (int i = 0; i < n; i++)
        for (int k = 0; k < KINDS; k++) {
            const prefill_row *r = rows + i;
            if (!r->ran[k]) {
                report_line(o, "%6zu  %-6s (skipped above --naive-max %zu)", r->T, name_of(k),
                            naive_max);
                continue;
            }
            char diff[16] = "-";
            if (!isnan(r->diff[k]))
                snprintf(diff, sizeof diff, "%.1e", r->diff[k]);
            report_line(o, "%6zu  %-6s %10.2f %9.1f %8.2fx %7.0f%% %10.3f %10s", r->T,
                        name_of(k), r->ms[k], r->gflops[k], r->of_sgemm[k], 100 * r->of_peak[k],
                        r->extra[k] / 1048576.0, diff);
        }
}

/* path -> the share of sgemm the tiled kernel should reach at T >= 1024
 * (issue 17); 0 where none is set */
static double target_of(simd_level level)
{
    return level == SIMD_AVX512 ? 0.95 : level == SIMD_AVX2 ? 0.75 : 0.0;
}

/* rows -> the line on the target (tiled against sgemm at T >= 1024) and
 * the one on the tiled kernel's memory */
static void print_verdict(const invent_opts *o, const prefill_row *rows, int n)
{
    double worst = INFINITY, low = INFINITY, high = 0.0;
    int flat = 1;
    for (int i = 0; i < n; i++) {
        if (rows[i].T >= 1024) {
            worst = fmin(worst, rows[i].of_sgemm[TILED]);
            low = fmin(low, rows[i].of_peak[TILED]), high = fmax(high, rows[i].of_peak[TILED]);
        }
        flat &= rows[i].extra[TILED] == rows[0].extra[TILED];
    }
    simd_level level = SIMD_PORTABLE;
    simd_current(&level);
    report_line(o, "%s", "");
    if (isinf(worst))
        report_line(o, "tiled against sgemm: no T >= 1024 in this run (the targets are set there)");
    else if (target_of(level) > 0.0)
        report_line(o, "tiled at T >= 1024: at least %.2fx the same-run sgemm rate (target on %s: "
                       "%.2fx): %s; %.0f to %.0f%% of the peak multiply-add rate", worst,
                    simd_name(level), target_of(level),
                    worst >= target_of(level) ? "met" : "NOT met", 100 * low, 100 * high);
    else
        report_line(o, "tiled at T >= 1024: at least %.2fx the same-run sgemm rate (portable "
                       "path: no target)", worst);
    report_line(o, "tiled extra memory: %s",
                flat ? "the same at every T (within O(T))" : "grows with T");
}

/* N3: the fast kernels agree with naive, on the benchmarked T up to
 * --naive-max, or on one small T of the same shape when none is */
static int check_agreement(const bench_sizes *z, const prefill_row *rows, int n)
{
    double worst[KINDS] = {0};
    size_t lo = 0, hi = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].ran[NAIVE]) {
            lo = lo ? lo : rows[i].T, hi = rows[i].T;
            for (int k = BLAS; k <= TILED; k++)
                worst[k] = fmax(worst[k], rows[i].diff[k]);
        }
    if (!lo) { /* naive ran at no benchmarked T: one untimed check */
        bench_sizes small = *z;
        small.naive_max = lo = hi = z->tmin < 256 ? z->tmin : 256;
        small.rounds = 1;
        prefill_row row;
        int status = measure_T(&small, lo, &row);
        if (status != INVENT_OK)
            return status;
        worst[BLAS] = row.diff[BLAS], worst[TILED] = row.diff[TILED];
    }
    for (int k = BLAS; k <= TILED; k++) {
        char claim[160], range[48];
        snprintf(range, sizeof range, lo == hi ? "%zu" : "%zu..%zu", lo, hi);
        snprintf(claim, sizeof claim, "%s agrees with naive at T = %s, %zu heads of %zu "
                                      "(largest relative difference)", name_of(k), range,
                 z->heads, z->dh);
        check_at_most("N3", claim, worst[k], 1e-5);
    }
    return INVENT_OK;
}

/* rows -> bench.csv rows, the best peak multiply-add rate of each T's
 * rounds included */
static void write_rows(FILE *csv, const bench_sizes *z, const prefill_row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < KINDS; k++) {
            const prefill_row *r = rows + i;
            if (!r->ran[k])
                continue;
            bench_row c = bench_row_empty("prefill", name_of(k));
            c.T = (double)r->T, c.heads = c.kv_heads = (double)z->heads, c.dh = (double)z->dh;
            c.rounds = k == NAIVE ? 1 : (double)(z->rounds * (r->T <= 512 ? 2 : 1));
            c.ms = r->ms[k], c.gflops = r->gflops[k], c.of_sgemm = r->of_sgemm[k];
            c.of_peak_fma = r->of_peak[k], c.extra_bytes = r->extra[k], c.rel_diff = r->diff[k];
            bench_csv_row(csv, &c);
        }
        bench_row peak = bench_row_empty("prefill", "peak_fma");
        peak.T = (double)rows[i].T, peak.gflops = rows[i].peak;
        bench_csv_row(csv, &peak);
    }
}

/* rows -> the figures bench_time and bench_memory against T */
static void plot_figures(const invent_opts *o, const bench_sizes *z, const prefill_row *rows,
                         int n)
{
    for (int fig = 0; fig < 2; fig++) {
        plot *p = plot_begin(o, fig ? "bench_memory" : "bench_time");
        plot_set(p, "heads", (double)z->heads);
        plot_set(p, "dh", (double)z->dh);
        for (int k = 0; k < KINDS; k++) {
            plot_block(p, fig ? "T  extra_bytes" : "T  median_ms");
            for (int i = 0; i < n; i++)
                if (rows[i].ran[k])
                    PLOT_ROW(p, (double)rows[i].T, fig ? rows[i].extra[k] : rows[i].ms[k]);
        }
        plot_set(p, "first_T", (double)rows[0].T);
        plot_set(p, "last_T", (double)rows[n - 1].T);
        plot_render(p, fig ? "bench_memory.gp" : "bench_time.gp");
    }
}

int bench_prefill(const invent_opts *o, const bench_sizes *z, FILE *csv)
{
    report_section(o, "Prefill: causal attention over T tokens");
    prefill_row rows[MAX_T];
    int n = 0, status = INVENT_OK;
    for (size_t T = z->tmin; T <= z->tmax && n < MAX_T && status == INVENT_OK; T *= 2, n++) {
        report_progress(o, 0, "prefill: T = %zu", T);
        status = measure_T(z, T, rows + n);
    }
    report_progress(o, 1, "prefill: %d sequence lengths timed", n);
    if (status != INVENT_OK)
        return status;
    double peak = 0.0; /* the machine's: the best of the run */
    for (int i = 0; i < n; i++)
        peak = fmax(peak, rows[i].peak);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < KINDS; k++)
            rows[i].of_peak[k] = rows[i].gflops[k] / peak;
    report_line(o, "peak multiply-add rate: %.0f GFLOP/s (the best of %d short register-only "
                   "runs on every thread)", peak, n * (int)z->rounds);
    print_table(o, rows, n, z->naive_max);
    print_verdict(o, rows, n);
    status = check_agreement(z, rows, n);
    write_rows(csv, z, rows, n);
    plot_figures(o, z, rows, n);
    return status;
}
