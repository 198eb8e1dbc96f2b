/* make bench: what causal multi-head attention costs on this machine.
 *
 * For T = tmin, 2 tmin, ..., tmax and H heads of size dh, each kernel of
 * lib/attn_kernels.h runs on the same random float inputs: the median time
 * of a few repeats (fewer at large T), the useful GFLOP/s (2 FLOP per
 * multiply-add that the causal mask leaves visible, 4 dh T(T+1)/2 H in all),
 * the peak extra memory the kernel allocated, and its largest difference
 * from `naive`. The yardstick is measured in the same run: cblas_sgemm on
 * the score product Q_h K_h^T of every head, (T, dh) x (dh, T), the largest
 * GEMM attention contains, with all OpenBLAS threads. A table on stdout,
 * DIR/bench.csv with --dump DIR, and two log-log figures. */
#include <gsl/gsl_cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "invent.h"

typedef struct {
    size_t tmin, tmax, heads, dh, naive_max;
} sizes;

typedef struct {
    size_t T;
    double ms[8];           /* median per kernel (index attn_kernels), then GEMM */
    double gflops[8];
    double rel_diff[8];     /* against naive; NAN where naive did not run */
    uint64_t bytes[8];
    int repeats[8];
} row;

#define GEMM (attn_kernels_count)

static int repeats_for(size_t T) { return T <= 512 ? 7 : T <= 1024 ? 5 : 3; }

/* OpenBLAS's threads spin for a while after a call; a pause before timing
 * our own threads keeps the two from sharing the cores. */
static void settle(void) { nanosleep(&(struct timespec){0, 200000000L}, NULL); }

static float *random_floats(size_t n, gsl_rng *r)
{
    float *f = malloc(n * sizeof *f);
    for (size_t i = 0; f && i < n; i++)
        f[i] = (float)(2.0 * gsl_rng_uniform(r) - 1.0);
    return f;
}

/* one head's score product per head, all heads -> median seconds */
static double time_gemm(const attn_shape *s, const float *Q, const float *K, float *C, int reps)
{
    double t[16];
    int ld = (int)(s->H * s->dh), T = (int)s->T;
    for (int r = -1; r < reps; r++) {
        double t0 = stopwatch_now();
        for (size_t h = 0; h < s->H; h++)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, T, (int)s->dh, 1.0f,
                        Q + h * s->dh, ld, K + h * s->dh, ld, 0.0f, C, T);
        if (r >= 0)
            t[r] = stopwatch_now() - t0;
    }
    return stopwatch_median(t, (size_t)reps);
}

/* kernel k -> median seconds (a warm-up run first unless reps is 1) */
static int time_kernel(int k, const attn_shape *s, const float *const in[3], float *out,
                       int reps, attn_cost *cost, double *median)
{
    double t[16];
    for (int r = reps > 1 ? -1 : 0; r < reps; r++) {
        double t0 = stopwatch_now();
        int status = attn_kernels[k].run(s, in[0], in[1], in[2], out, cost);
        if (status != INVENT_OK)
            return status;
        if (r >= 0)
            t[r] = stopwatch_now() - t0;
    }
    *median = stopwatch_median(t, (size_t)reps);
    return INVENT_OK;
}

/* every kernel and the GEMM at one T -> one row */
static int measure_T(const sizes *z, size_t T, gsl_rng *rng, row *out)
{
    attn_shape s = {T, z->heads, z->dh, 0, (float)(1.0 / sqrt((double)z->dh))};
    size_t n = T * s.H * s.dh;
    float *in[3] = {random_floats(n, rng), random_floats(n, rng), random_floats(n, rng)};
    float *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    float *C = malloc(T * T * sizeof *C);
    int status = in[0] && in[1] && in[2] && ref && got && C ? INVENT_OK : INVENT_ENOMEM;
    double useful = 2.0 * (double)attn_useful_madds(&s);
    *out = (row){.T = T};
    for (int k = 0; k < attn_kernels_count && status == INVENT_OK; k++) {
        int naive = k == 0, reps = naive && T > 512 ? 1 : repeats_for(T);
        out->repeats[k] = reps;
        out->rel_diff[k] = NAN;
        if (naive && T > z->naive_max)
            continue;
        attn_cost cost;
        double sec = NAN;
        settle();
        status = time_kernel(k, &s, (const float *const *)in, naive ? ref : got, reps, &cost,
                             &sec);
        out->ms[k] = 1e3 * sec, out->gflops[k] = useful / sec / 1e9;
        out->bytes[k] = cost.scratch_bytes;
        if (!naive && T <= z->naive_max)
            out->rel_diff[k] = attn_rel_diff(got, ref, n);
    }
    if (status == INVENT_OK) {
        out->repeats[GEMM] = repeats_for(T);
        double sec = time_gemm(&s, in[0], in[1], C, out->repeats[GEMM]);
        out->ms[GEMM] = 1e3 * sec;
        out->gflops[GEMM] = 2.0 * (double)T * (double)T * (double)(s.dh * s.H) / sec / 1e9;
        out->bytes[GEMM] = T * T * sizeof *C;
        out->rel_diff[GEMM] = NAN;
    }
    for (int i = 0; i < 3; i++)
        free(in[i]);
    free(ref), free(got), free(C);
    return status;
}

static const char *name_of(int k) { return k == GEMM ? "sgemm QK^T" : attn_kernels[k].name; }

static void print_table(const invent_opts *o, const row *rows, int n, size_t naive_max)
{
    report_line(o, "%6s  %-11s %4s %11s %10s %9s %12s %14s", "T", "kernel", "reps",
                "median ms", "GFLOP/s", "of GEMM", "extra MiB", "rel. diff");
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= GEMM; k++) {
            const row *r = rows + i;
            if (k == 0 && r->T > naive_max) {
                report_line(o, "%6zu  %-11s  (skipped above --naive-max %zu)", r->T,
                            name_of(k), naive_max);
                continue;
            }
            char diff[32] = "-";
            if (!isnan(r->rel_diff[k]) && k > 0)
                snprintf(diff, sizeof diff, "%.1e", r->rel_diff[k]);
            report_line(o, "%6zu  %-11s %4d %11.2f %10.2f %8.0f%% %12.3f %14s", r->T,
                        name_of(k), r->repeats[k], r->ms[k], r->gflops[k],
                        100.0 * r->gflops[k] / r->gflops[GEMM],
                        (double)r->bytes[k] / (1024.0 * 1024.0), diff);
        }
}

static int write_csv(const invent_opts *o, const sizes *z, const row *rows, int n)
{
    if (!o->dump_dir)
        return INVENT_OK;
    char path[4096];
    snprintf(path, sizeof path, "%s/bench.csv", o->dump_dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return INVENT_EIO;
    fprintf(f, "T,heads,dh,kernel,repeats,median_ms,useful_gflops,ratio_to_gemm,"
               "extra_bytes,rel_diff_vs_naive\n");
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= GEMM; k++) {
            const row *r = rows + i;
            if (k == 0 && r->T > z->naive_max)
                continue;
            fprintf(f, "%zu,%zu,%zu,%s,%d,%.4f,%.3f,%.4f,%llu,%.3g\n", r->T, z->heads, z->dh,
                    k == GEMM ? "sgemm" : attn_kernels[k].name, r->repeats[k], r->ms[k],
                    r->gflops[k], r->gflops[k] / r->gflops[GEMM],
                    (unsigned long long)r->bytes[k], r->rel_diff[k]);
        }
    return fclose(f) == 0 ? INVENT_OK : INVENT_EIO;
}

static void plot_figures(const invent_opts *o, const sizes *z, const row *rows, int n)
{
    for (int fig = 0; fig < 2; fig++) {
        char name[32];
        snprintf(name, sizeof name, "bench_%s", fig ? "memory" : "time");
        plot *p = plot_begin(o, name);
        plot_set(p, "heads", (double)z->heads);
        plot_set(p, "dh", (double)z->dh);
        for (int k = 0; k <= GEMM; k++) {
            plot_block(p, fig ? "T  extra_bytes" : "T  median_ms");
            for (int i = 0; i < n; i++)
                if (k > 0 || rows[i].T <= z->naive_max)
                    PLOT_ROW(p, (double)rows[i].T,
                             fig ? (double)rows[i].bytes[k] : rows[i].ms[k]);
        }
        plot_set(p, "first_T", (double)rows[0].T);
        plot_set(p, "last_T", (double)rows[n - 1].T);
        plot_render(p, fig ? "bench_memory.gp" : "bench_time.gp");
    }
}

/* The bar of the benchmark (not a test): tiled at >= 45% of the GEMM rate
 * for every T >= 1024, with the same extra memory at every T. */
static void print_verdict(const invent_opts *o, const row *rows, int n)
{
    const int tiled = 2;
    double worst = INFINITY;
    int flat = 1;
    for (int i = 0; i < n; i++) {
        if (rows[i].T >= 1024)
            worst = fmin(worst, rows[i].gflops[tiled] / rows[i].gflops[GEMM]);
        flat &= rows[i].bytes[tiled] == rows[0].bytes[tiled];
    }
    if (isinf(worst))
        return;
    report_line(o, "%s", "");
    report_line(o, "tiled at T >= 1024: at least %.0f%% of the same-run GEMM rate (bar: 45%%): %s",
                100.0 * worst, worst >= 0.45 ? "met" : "NOT met");
    report_line(o, "tiled extra memory: %s", flat ? "the same at every T (within O(T))"
                                                  : "grows with T");
}

/* N3 on the benchmark's shapes: the fast kernels agree with naive. */
static void check_agreement(const row *rows, int n)
{
    for (int k = 1; k < attn_kernels_count; k++) {
        double worst = 0.0;
        int compared = 0;
        for (int i = 0; i < n; i++)
            if (!isnan(rows[i].rel_diff[k])) {
                worst = fmax(worst, rows[i].rel_diff[k]);
                compared++;
            }
        char claim[128];
        snprintf(claim, sizeof claim, "%s agrees with naive on every benchmarked T "
                                      "(largest relative difference)", attn_kernels[k].name);
        if (compared)
            check_at_most("N3", claim, worst, 1e-5);
    }
}

int main(int argc, char **argv)
{
    sizes z = {.tmin = 256, .tmax = 4096, .heads = 12, .dh = 64, .naive_max = 4096};
    const cli_option options[] = {
        {"tmin", CLI_SIZE, &z.tmin, 1, 16384, "shortest sequence T"},
        {"tmax", CLI_SIZE, &z.tmax, 1, 16384, "longest sequence T (T doubles from tmin)"},
        {"heads", CLI_SIZE, &z.heads, 1, 128, "heads H"},
        {"dh", CLI_SIZE, &z.dh, 1, 1024, "size dh of one head"},
        {"naive-max", CLI_SIZE, &z.naive_max, 0, 16384,
         "longest T at which the (slow) naive kernel runs"},
    };
    const cli_spec spec = {"bench", "Times the attention kernels against a same-run cblas_sgemm "
                                    "(--dump DIR writes DIR/bench.csv).",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (z.tmin > z.tmax)
        return cli_fail(&o, "--tmin (%zu) must not exceed --tmax (%zu)", z.tmin, z.tmax);
    if (z.tmax * z.heads * z.dh > ((size_t)1 << 25))
        return cli_fail(&o, "--tmax * --heads * --dh must be at most 2^25 (memory), got %zu",
                        z.tmax * z.heads * z.dh);
    rc = chapter_start(&o, "Benchmark: causal multi-head attention, float32");
    if (rc != CLI_RUN)
        return rc;
    report_text(&o, "H = %zu heads of size dh = %zu, float32, causal; %d threads; vector code: "
                    "%s. Times are medians of the repeats; GFLOP/s count only the useful work, "
                    "4 dh T(T+1)/2 H FLOP.", z.heads, z.dh, workers_count(),
                simd_name(simd_detect()));
    row rows[17];
    int n = 0;
    gsl_rng *rng = rng_new(o.seed);
    if (!rng)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    for (size_t T = z.tmin; T <= z.tmax && n < 17 && rc == CLI_RUN; T *= 2, n++) {
        int status = measure_T(&z, T, rng, rows + n);
        if (status != INVENT_OK)
            rc = chapter_fail(&o, "running the kernels", status);
    }
    gsl_rng_free(rng);
    if (rc != CLI_RUN)
        return rc;
    print_table(&o, rows, n, z.naive_max);
    print_verdict(&o, rows, n);
    check_agreement(rows, n);
    if (write_csv(&o, &z, rows, n) != INVENT_OK)
        return chapter_fail(&o, "writing bench.csv", INVENT_EIO);
    plot_figures(&o, &z, rows, n);
    return chapter_end();
}
