/* make bench: what the benchmark's sections (prefill.c, decode.c,
 * sparse.c) share with its driver (bench.c): the sizes from the command
 * line and one row of build/bench.csv. */
#ifndef INVENT_BENCH_H
#define INVENT_BENCH_H

#include <stdio.h>

#include "invent.h"

typedef struct {
    size_t tmin, tmax, heads, dh, naive_max; /* prefill: T = tmin, 2 tmin, ..., tmax */
    size_t decode_tmax;   /* decode: T = 256, 1024, ... up to this */
    size_t ledger_tokens; /* d against r: tokens in one layer's cache */
    size_t sparse_t;      /* sparse against dense: T */
    size_t cold_mib;      /* arena the decode rows read (0: chosen from the caches) */
    size_t rounds;        /* timed rounds per measurement (medians), after a warm-up */
    int prefill_only;     /* skip the decode and sparse sections */
} bench_sizes;

/* One line of bench.csv; NAN (or a NULL string) where a column does not
 * apply to the section. */
typedef struct {
    const char *section;  /* prefill, decode, ledger, sparse */
    const char *kernel;
    double T, heads, kv_heads, dh, fraction, rounds;
    double ms;            /* median time of one call (decode: one token, one layer) */
    double gflops;        /* useful work: 2 FLOP per multiply-add the mask leaves */
    double of_sgemm;      /* the same-run sgemm's rate as 1 */
    double of_peak_fma;   /* the same-run peak multiply-add rate as 1 */
    double bytes;         /* bytes a decode step must read */
    double of_bandwidth;  /* the same-run memory read bandwidth as 1 */
    double ns_per_score;  /* time per computed score, per head */
    double extra_bytes;   /* peak memory beyond the inputs and outputs */
    double rel_diff;      /* largest relative difference from the reference */
} bench_row;

/* bench.csv while the run goes on: its rows gathered in memory (f), and
 * written to DIR/bench.csv only when every section has succeeded, whole or
 * not at all (dump_text) */
typedef struct {
    FILE *f;     /* NULL: no CSV wanted (no --dump), or none could be made */
    char *text;
    size_t size;
} bench_csv;

/* o -> table with its header line when o asks for a dump, else f NULL;
 * -> INVENT_OK or INVENT_ENOMEM */
int bench_csv_begin(const invent_opts *o, bench_csv *table);

/* table, status (the run's) -> DIR/bench.csv written when status is OK (a
 * failed write is reported by dump_text and ends in exit 3); the table
 * freed; -> status, or INVENT_ENOMEM when the rows could not be kept */
int bench_csv_end(const invent_opts *o, bench_csv *table, int status);

/* one row, empty fields for NAN */
void bench_csv_row(FILE *f, const bench_row *r);

/* a row with every number NAN */
bench_row bench_row_empty(const char *section, const char *kernel);

/* the three sections; each prints its table and verdict, adds its rows to
 * csv (may be NULL) and draws its figures; -> INVENT_OK or a status */
int bench_prefill(const invent_opts *o, const bench_sizes *z, FILE *csv);
int bench_decode(const invent_opts *o, const bench_sizes *z, FILE *csv);
int bench_sparse(const invent_opts *o, const bench_sizes *z, FILE *csv);

/* The most copies of the sweep's smallest cache the arena may hold: each is
 * one decode call per round, and past 65,536 calls a round takes minutes
 * (--cold-mib 2048 --decode-tmax 1 took 114 s, issue 28). */
#define BENCH_MAX_COPIES ((size_t)65536)

/* the decode sweep's smallest cache (keys and values at its first T), bytes */
size_t bench_smallest_cache_bytes(const bench_sizes *z);

/* the decode section's arena: bytes it needs for z (cold caches; without
 * --cold-mib at most BENCH_MAX_COPIES smallest caches) */
size_t bench_arena_bytes(const bench_sizes *z);

/* n floats -> random-looking finite values in [-1, 1), quickly */
void bench_fill(float *x, size_t n, unsigned long seed);

/* OpenBLAS keeps spinning its threads after a call: a pause before timing
 * the library's own threads keeps the two from sharing the cores */
void bench_settle(void);

#endif
