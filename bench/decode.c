/* make bench, decode: the step a model repeats for every token it writes,
 * one new query per head against the cache of the T tokens so far
 * (attn_decode.h). It reads every cached number once and does two
 * multiply-adds with it, so memory, not arithmetic, sets its speed: each
 * row gives its rate as a share of the memory read bandwidth measured in
 * the same rounds (decode_measure.h). The caches are cycled through an
 * arena far larger than the last-level cache, as a model's layers would be,
 * so that every step reads memory.
 *
 * Then the source's cache argument, measured: the setting of claim B3 (20
 * score functions, vectors of d = 1,000, here one layer of --ledger-tokens
 * tokens) with keys and values of d per head, of r = 200 per head (Q1, H2),
 * and the one cache of raw tokens that every function shares (C1). */
#include <math.h>
#include <stdlib.h>

#include "bench.h"
#include "decode_ledger.h"

#define MAX_T 16

size_t bench_smallest_cache_bytes(const bench_sizes *z)
{
    size_t T = z->decode_tmax < 256 ? z->decode_tmax : 256;
    return 2 * T * z->heads * z->dh * sizeof(float);
}

size_t bench_arena_bytes(const bench_sizes *z)
{
    if (z->cold_mib)
        return z->cold_mib << 20;
    size_t sweep = 2 * 2 * z->decode_tmax * z->heads * z->dh * sizeof(float); /* two copies */
    size_t ledger = decode_ledger_floats(z->ledger_tokens) * sizeof(float);
    size_t bytes = 4 * cpu_cache_bytes(3), most = BENCH_MAX_COPIES * bench_smallest_cache_bytes(z);
    bytes = bytes > ((size_t)256 << 20) ? bytes : (size_t)256 << 20;
    bytes = bytes < most ? bytes : most; /* tiny caches: a call's overhead dominates anyway */
    bytes = bytes > sweep ? bytes : sweep;
    return bytes > ledger ? bytes : ledger;
}

/* the sweep's T: 256, 1024, ... up to decode_tmax (just decode_tmax when smaller) */
static int sweep_sizes(const bench_sizes *z, size_t *T)
{
    int n = 0;
    for (size_t t = z->decode_tmax < 256 ? z->decode_tmax : 256; t <= z->decode_tmax && n < MAX_T;
         t *= 4)
        T[n++] = t;
    return n;
}

/* a decode point -> its bench.csv row (GFLOP/s: 4 T H dh per step) */
static bench_row decode_row(const char *section, const char *kernel, const attn_decode_shape *s,
                            const decode_point *p, int rounds)
{
    bench_row c = bench_row_empty(section, kernel);
    c.T = (double)s->T, c.heads = (double)s->H, c.kv_heads = (double)s->Hkv;
    c.dh = (double)s->dh, c.rounds = rounds, c.ms = p->ms, c.bytes = p->bytes;
    c.gflops = 4.0 * (double)s->T * (double)(s->H * s->dh) / p->ms / 1e6;
    c.of_bandwidth = p->share;
    return c;
}

/* the T sweep: table, verdict, rows, figure */
static int decode_sweep(const invent_opts *o, const bench_sizes *z, const float *arena, size_t n,
                        FILE *csv)
{
    size_t T[MAX_T];
    int count = sweep_sizes(z, T), status = INVENT_OK;
    decode_point pt[MAX_T];
    double worst = INFINITY;
    report_line(o, "%8s %12s %10s %8s %13s %13s %7s", "T", "us/token", "MB read", "GB/s",
                "bandwidth GB/s", "of bandwidth", "layers");
    plot *p = plot_begin(o, "bench_decode");
    plot_block(p, "T  decode_GBps  bandwidth_GBps");
    for (int i = 0; i < count && status == INVENT_OK; i++) {
        attn_decode_shape s = {T[i], z->heads, z->heads, z->dh, (float)(1.0 / sqrt((double)z->dh))};
        status = decode_measure(&s, 0, arena, n, (int)z->rounds, &pt[i]);
        if (status != INVENT_OK)
            break;
        report_line(o, "%8zu %12.1f %10.2f %8.2f %13.2f %12.0f%% %7zu", T[i], 1e3 * pt[i].ms,
                    pt[i].bytes / 1e6, pt[i].gbytes_per_s, pt[i].bandwidth_gbps,
                    100 * pt[i].share, pt[i].layers);
        if (T[i] >= 4096)
            worst = fmin(worst, pt[i].share);
        bench_row c = decode_row("decode", "decode", &s, &pt[i], (int)z->rounds);
        bench_csv_row(csv, &c);
        PLOT_ROW(p, (double)T[i], pt[i].gbytes_per_s, pt[i].bandwidth_gbps);
    }
    plot_set(p, "heads", (double)z->heads);
    plot_set(p, "dh", (double)z->dh);
    plot_render(p, "bench_decode.gp");
    if (status == INVENT_OK && !isinf(worst))
        report_line(o, "\ndecode at T >= 4096: at least %.0f%% of the same-run memory bandwidth "
                       "(target 70%%): %s", 100 * worst, worst >= 0.7 ? "met" : "NOT met");
    return status;
}

/* the ledger's three points -> their table and bench.csv rows */
static void ledger_table(const invent_opts *o, const bench_sizes *z, const attn_decode_shape *s,
                         const decode_point *pt, double peak, FILE *csv)
{
    static const char *what[3] = {"keys+values, d = 1000 per head (B3)",
                                  "keys+values, r = 200 per head (Q1, H2)",
                                  "raw tokens, d = 1000, shared (C1)"};
    static const char *kernel[3] = {"decode_d1000", "decode_r200", "decode_shared_d1000"};
    report_line(o, "%-39s %8s %9s %6s %8s %7s %9s %9s %8s %8s", "cache of one layer", "MB read",
                "ms/token", "of bw", "GFLOP/s", "of peak", "bound ms", "speed-up", "bytes /",
                "bound /");
    for (int i = 0; i < 3; i++) {
        bench_row c = decode_row("ledger", kernel[i], &s[i], &pt[i], (int)z->rounds);
        c.of_peak_fma = c.gflops / peak;
        double bound = decode_ledger_bound_ms(&s[i], &pt[i], peak);
        report_line(o, "%-39s %8.1f %9.3f %5.0f%% %8.1f %6.0f%% %9.3f %8.2fx %7.1fx %7.1fx",
                    what[i], pt[i].bytes / 1e6, pt[i].ms, 100 * pt[i].share, c.gflops,
                    100 * c.of_peak_fma, bound, pt[0].ms / pt[i].ms, pt[0].bytes / pt[i].bytes,
                    decode_ledger_bound_ms(&s[0], &pt[0], peak) / bound);
        bench_csv_row(csv, &c);
    }
}

/* the ledger's three caches -> their table, rows and a paragraph */
static int decode_ledger(const invent_opts *o, const bench_sizes *z, const float *arena, size_t n,
                         FILE *csv)
{
    attn_decode_shape s[3];
    decode_point pt[3];
    double peak;
    int status = decode_ledger_measure(z->ledger_tokens, arena, n, (int)z->rounds, s, pt);
    if (status == INVENT_OK)
        status = machine_fma_peak(0.1, &peak);
    if (status != INVENT_OK)
        return status;
    ledger_table(o, z, s, pt, peak, csv);
    double balance = peak / pt[2].bandwidth_gbps;
    double intensity = decode_ledger_flop(&s[2]) / pt[2].bytes;
    double gflops = intensity * pt[2].bytes / pt[2].ms / 1e6;
    report_text(o, "Per token through all %d layers of the ledger's model: %.0f ms, %.0f ms and "
                   "%.0f ms. Bound: the time at the same-run bandwidth or at the peak "
                   "multiply-add rate (%.0f GFLOP/s), whichever is longer. Keys and values of r "
                   "instead of d read %.1f times fewer bytes and take %.1f times less time: the "
                   "step stays limited by memory. The shared cache reads %.0f times fewer bytes "
                   "than d per head, but every head works on the same vectors: %.0f FLOP per "
                   "byte read, against this machine's balance of %.0f (peak / bandwidth, same "
                   "run): %s. Measured %.1f times faster than d per head (bound: %.1f); its "
                   "kernel reaches %.0f%% of the peak multiply-add rate.",
                LEDGER_LAYERS, LEDGER_LAYERS * pt[0].ms, LEDGER_LAYERS * pt[1].ms,
                LEDGER_LAYERS * pt[2].ms, peak, pt[0].bytes / pt[1].bytes, pt[0].ms / pt[1].ms,
                pt[0].bytes / pt[2].bytes, intensity, balance,
                decode_ledger_regime(intensity, balance), pt[0].ms / pt[2].ms,
                decode_ledger_bound_ms(&s[0], &pt[0], peak) /
                    decode_ledger_bound_ms(&s[2], &pt[2], peak),
                100 * gflops / peak);
    return INVENT_OK;
}

int bench_decode(const invent_opts *o, const bench_sizes *z, FILE *csv)
{
    size_t n = bench_arena_bytes(z) / sizeof(float);
    float *arena = malloc(n * sizeof *arena);
    if (!arena)
        return INVENT_ENOMEM;
    bench_fill(arena, n, 5);
    report_section(o, "Decode: one new token against the cache");
    double mib = (double)n * sizeof(float) / 1048576.0;
    double llc = (double)n * sizeof(float) / (double)cpu_cache_bytes(3);
    report_text(o, "The caches are cycled through %.0f MiB, %.1f times the last-level cache%s. "
                   "Time per token for one layer of %zu heads of %zu; bandwidth: a read-only "
                   "pass over the same %.0f MiB in the same round.", mib, llc,
                llc >= 2.0 ? ", so every step reads memory"
                           : " (too little to leave it: these rows measure the cache, not memory)",
                z->heads, z->dh, mib);
    int status = decode_sweep(o, z, arena, n, csv);
    if (status == INVENT_OK) {
        report_section(o, "The cache of chapters 5 and 6, read at decode time");
        status = decode_ledger(o, z, arena, n, csv);
    }
    free(arena);
    return status;
}
