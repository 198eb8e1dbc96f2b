/* What the benchmark's sections share: build/bench.csv, one long table for
 * every section, one row per measurement, empty fields where a column does
 * not apply; quick random inputs; the pause between libraries. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

int bench_csv_begin(const invent_opts *o, bench_csv *table)
{
    *table = (bench_csv){NULL, NULL, 0};
    if (!o->dump_dir)
        return INVENT_OK;
    table->f = open_memstream(&table->text, &table->size);
    if (!table->f)
        return INVENT_ENOMEM;
    fprintf(table->f, "section,kernel,T,heads,kv_heads,dh,fraction,rounds,median_ms,gflops,"
                      "of_sgemm,of_peak_fma,bytes_read,of_bandwidth,ns_per_score,extra_bytes,"
                      "rel_diff\n");
    return INVENT_OK;
}

/* the gathered rows -> f; nonzero when they could not all be written */
static int copy_rows(FILE *f, const void *ctx)
{
    const bench_csv *table = ctx;
    return fwrite(table->text, 1, table->size, f) != table->size;
}

int bench_csv_end(const invent_opts *o, bench_csv *table, int status)
{
    if (!table->f)
        return status;
    int kept = fclose(table->f) == 0; /* a memory stream fails only for want of memory */
    if (status == INVENT_OK && !kept)
        status = INVENT_ENOMEM;
    if (status == INVENT_OK)
        dump_text(o, "bench.csv", copy_rows, table);
    free(table->text);
    *table = (bench_csv){NULL, NULL, 0};
    return status;
}

/* x -> ",x" in format, or "," alone when x is NAN */
static void field(FILE *f, double x, const char *format)
{
    fputc(',', f);
    if (!isnan(x))
        fprintf(f, format, x);
}

void bench_csv_row(FILE *f, const bench_row *r)
{
    if (!f)
        return;
    fprintf(f, "%s,%s", r->section, r->kernel);
    const double whole[] = {r->T, r->heads, r->kv_heads, r->dh};
    for (int i = 0; i < 4; i++)
        field(f, whole[i], "%.0f");
    field(f, r->fraction, "%.4g");
    field(f, r->rounds, "%.0f");
    field(f, r->ms, "%.5g");
    field(f, r->gflops, "%.4g");
    field(f, r->of_sgemm, "%.4f");
    field(f, r->of_peak_fma, "%.4f");
    field(f, r->bytes, "%.0f");
    field(f, r->of_bandwidth, "%.4f");
    field(f, r->ns_per_score, "%.4g");
    field(f, r->extra_bytes, "%.0f");
    field(f, r->rel_diff, "%.3g");
    fputc('\n', f);
}

bench_row bench_row_empty(const char *section, const char *kernel)
{
    return (bench_row){section, kernel, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
                       NAN, NAN, NAN, NAN, NAN, NAN};
}

void bench_fill(float *x, size_t n, unsigned long seed)
{
    uint64_t state = 0x9E3779B97F4A7C15ull ^ seed;
    for (size_t i = 0; i < n; i++) { /* xorshift64 */
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        x[i] = (float)(state >> 40) / 8388608.0f - 1.0f;
    }
}

void bench_settle(void) { nanosleep(&(struct timespec){0, 150000000L}, NULL); }
