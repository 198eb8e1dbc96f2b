/* make bench, sparse against dense: does computing a fraction f of the
 * scores take a fraction f of the time? (Dao et al., 2022, for block
 * sparsity; the same question for scores picked one by one.) For f from 1%
 * to 100%, the dense tiled kernel and both sparse kernels of attn_sparse.h
 * on the same problem, in interleaved rounds (sparse_measure.h): time, time
 * per computed score, and where, if anywhere, the sparse kernel stops
 * paying (takes as long as the dense one). */
#include <math.h>

#include "bench.h"

#define FRACTIONS 7

static const double fractions[FRACTIONS] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};

/* x: (FRACTIONS) the fractions computed, ascending, ratio: sparse time /
 * dense time at each -> the fraction where the ratio reaches 1, by
 * interpolation in log x and log ratio; 0 when it never pays, 1 when it
 * pays at every fraction below 1 (computing every score, it may only tie) */
static double break_even(const double *x, const double *ratio)
{
    if (ratio[0] >= 1.0)
        return 0.0;
    for (int i = 0; i + 1 < FRACTIONS; i++)
        if (ratio[i + 1] >= 1.0 && x[i + 1] < 1.0) {
            double a = log(ratio[i]), b = log(ratio[i + 1]);
            return exp(log(x[i]) + (0.0 - a) / (b - a) * (log(x[i + 1]) - log(x[i])));
        }
    return 1.0;
}

/* points -> the table: fractions computed, times, time per computed score,
 * speed-ups */
static void print_points(const invent_opts *o, const sparse_point *pt)
{
    report_line(o, "%5s %13s %9s %9s %9s   %-23s %s", "f", "computed k/b", "dense ms",
                "keys ms", "blocks ms", "ns/score dense keys blk", "vs dense: keys, blocks");
    for (int i = 0; i < FRACTIONS; i++)
        report_line(o, "%4.0f%% %5.1f%% %5.1f%% %9.2f %9.2f %9.2f   %7.3f %7.3f %7.3f   %6.2fx "
                       "%6.2fx", 100 * pt[i].fraction, 100 * pt[i].key_fraction,
                    100 * pt[i].block_fraction, pt[i].dense_ms, pt[i].keys_ms, pt[i].blocks_ms,
                    pt[i].dense_ns, pt[i].keys_ns, pt[i].blocks_ns,
                    pt[i].dense_ms / pt[i].keys_ms, pt[i].dense_ms / pt[i].blocks_ms);
}

/* kind 0: key lists, 1: block lists -> one line on where it stops paying */
static void print_break_even(const invent_opts *o, const sparse_point *pt, int kind)
{
    double ratio[FRACTIONS], x[FRACTIONS];
    for (int i = 0; i < FRACTIONS; i++) {
        ratio[i] = (kind ? pt[i].blocks_ms : pt[i].keys_ms) / pt[i].dense_ms;
        x[i] = kind ? pt[i].block_fraction : pt[i].key_fraction;
    }
    double f = break_even(x, ratio);
    const char *name = kind ? "block lists" : "key lists";
    if (f == 0.0)
        report_line(o, "%s: never faster than dense, not even at %.1f%% of the scores (%.2fx its "
                       "time)", name, 100 * x[0], ratio[0]);
    else if (f == 1.0)
        report_line(o, "%s: faster than dense whenever they skip scores; at %.1f%% of the scores "
                       "%.1fx faster", name, 100 * x[0], 1.0 / ratio[0]);
    else
        report_line(o, "%s: stop paying at %.0f%% of the scores (as slow as dense there, by "
                       "interpolation); at %.1f%% of the scores %.1fx faster", name, 100 * f,
                    100 * x[0], 1.0 / ratio[0]);
}

/* points -> bench.csv rows: dense, key lists, block lists per f */
static void write_points(FILE *csv, const attn_shape *s, const sparse_point *pt, int rounds)
{
    static const char *kernel[3] = {"dense_tiled", "sparse_keys", "sparse_blocks"};
    for (int i = 0; i < FRACTIONS; i++)
        for (int k = 0; k < 3; k++) {
            bench_row c = bench_row_empty("sparse", kernel[k]);
            c.T = (double)s->T, c.heads = c.kv_heads = (double)s->H, c.dh = (double)s->dh;
            c.rounds = rounds;
            c.fraction = k == 0 ? 1.0 : k == 1 ? pt[i].key_fraction : pt[i].block_fraction;
            c.ms = k == 0 ? pt[i].dense_ms : k == 1 ? pt[i].keys_ms : pt[i].blocks_ms;
            c.ns_per_score = k == 0 ? pt[i].dense_ns : k == 1 ? pt[i].keys_ns : pt[i].blocks_ns;
            bench_csv_row(csv, &c);
        }
}

/* points -> the figure bench_sparse: time / dense time against f */
static void plot_points(const invent_opts *o, const attn_shape *s, const sparse_point *pt)
{
    plot *p = plot_begin(o, "bench_sparse");
    plot_block(p, "fraction_keys  keys/dense  fraction_blocks  blocks/dense");
    for (int i = 0; i < FRACTIONS; i++)
        PLOT_ROW(p, pt[i].key_fraction, pt[i].keys_ms / pt[i].dense_ms, pt[i].block_fraction,
                 pt[i].blocks_ms / pt[i].dense_ms);
    plot_set(p, "T", (double)s->T);
    plot_set(p, "heads", (double)s->H);
    plot_set(p, "dh", (double)s->dh);
    plot_render(p, "bench_sparse.gp");
}

int bench_sparse(const invent_opts *o, const bench_sizes *z, FILE *csv)
{
    attn_shape s = {z->sparse_t, z->heads, z->dh, 0, (float)(1.0 / sqrt((double)z->dh))};
    sparse_point pt[FRACTIONS];
    double diff;
    report_section(o, "Sparse against dense: a fraction f of the scores");
    report_text(o, "T = %zu, %zu heads of %zu. Key lists: each query keeps itself and a random "
                   "f of its earlier keys, gathered one by one. Block lists: each block of %d "
                   "queries keeps its own block and a random f of the earlier blocks of %d "
                   "keys, computed by the tiled kernel's tiles. Times are medians of %zu "
                   "interleaved rounds.", s.T, s.H, s.dh, ATTN_TILE, ATTN_TILE, z->rounds);
    int status = sparse_measure(&s, fractions, FRACTIONS, (int)z->rounds, 3, pt, &diff);
    if (status != INVENT_OK)
        return status;
    print_points(o, pt);
    report_line(o, "%s", "");
    print_break_even(o, pt, 0);
    print_break_even(o, pt, 1);
    check_at_most("N3", "both sparse kernels, every key listed, agree with the dense tiled "
                        "kernel (largest relative difference)", diff, 1e-5);
    write_points(csv, &s, pt, (int)z->rounds);
    plot_points(o, &s, pt);
    return INVENT_OK;
}
