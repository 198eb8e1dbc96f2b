/* make bench: what attention costs on this machine, as ratios measured in
 * one run (a shared machine's timings are noisy; ratios of neighbours are
 * not). Three sections:
 *   prefill  causal multi-head attention over T tokens: naive, blas and
 *            tiled against cblas_sgemm and the peak multiply-add rate
 *            (prefill.c);
 *   decode   one new token against a cache of T tokens, against the memory
 *            read bandwidth; then the cache sizes of chapters 5 and 6
 *            (decode.c);
 *   sparse   a fraction f of the scores against all of them (sparse.c).
 * A table per section on stdout, DIR/bench.csv with --dump DIR, figures
 * bench_time, bench_memory, bench_decode and bench_sparse. Every bad
 * argument or environment variable is refused with one line and exit 2
 * before any work or output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench.h"

#define MAX_BYTES ((size_t)2 << 30) /* what the benchmark may hold at once */

/* OpenBLAS's own name for the kernels it chose (OpenBLAS API) */
char *openblas_get_corename(void);

/* the bytes the prefill and sparse sections hold at their largest T */
static size_t section_bytes(const bench_sizes *z, int sparse)
{
    size_t T = sparse ? z->sparse_t : z->tmax, n = T * z->heads * z->dh * sizeof(float);
    if (sparse) /* Q, K, V, two outputs; the key lists at f = 1; a row of scores per query */
        return 5 * n + T * (T + 1) / 2 * sizeof(uint32_t) + 64 * z->heads * (T + 1) * 4;
    return 5 * n + 2 * T * T * sizeof(float); /* Q, K, V, two outputs; blas's and sgemm's T x T */
}

/* the limits between options and the memory they need -> CLI_RUN or exit 2 */
static int check_sizes(const invent_opts *o, const bench_sizes *z)
{
    if (z->tmin > z->tmax)
        return cli_fail(o, "--tmin (%zu) must not exceed --tmax (%zu)", z->tmin, z->tmax);
    const char *what[3] = {"the prefill section (inputs, outputs, blas's and sgemm's T x T)",
                           "the sparse section (inputs, outputs, key lists)",
                           "the decode section's arena"};
    size_t bytes[3] = {section_bytes(z, 0), section_bytes(z, 1), bench_arena_bytes(z)};
    for (int i = 0; i < (z->prefill_only ? 1 : 3); i++)
        if (bytes[i] > MAX_BYTES)
            return cli_fail(o, "%s would take %.0f MiB, more than the benchmark's %zu MiB",
                            what[i], (double)bytes[i] / 1048576.0, MAX_BYTES >> 20);
    size_t sweep = 2 * z->decode_tmax * z->heads * z->dh * sizeof(float);
    size_t ledger = 2 * z->ledger_tokens * 20 * 1000 * sizeof(float);
    size_t layer = sweep > ledger ? sweep : ledger;
    if (z->cold_mib && !z->prefill_only && bytes[2] < 2 * layer)
        return cli_fail(o, "--cold-mib %zu holds fewer than two copies of a %.0f MiB cache "
                           "(--decode-tmax, --ledger-tokens)", z->cold_mib, layer / 1048576.0);
    size_t smallest = bench_smallest_cache_bytes(z);
    if (z->cold_mib && !z->prefill_only && bytes[2] / smallest > BENCH_MAX_COPIES)
        return cli_fail(o, "--cold-mib %zu holds %zu copies of the decode sweep's smallest "
                           "cache (%.1f KiB: --decode-tmax, --heads, --dh), more than the %zu "
                           "calls a round may take: give a smaller --cold-mib or larger caches",
                        z->cold_mib, bytes[2] / smallest, smallest / 1024.0, BENCH_MAX_COPIES);
    return CLI_RUN;
}

/* OpenBLAS 0.3.21 takes CPUs newer than it (Sapphire Rapids and later) for
 * a Prescott and runs SSE3 code: a weak yardstick. Unless the user chose
 * OPENBLAS_CORETYPE, set it to the family of the kernels' path and start
 * again (OpenBLAS reads it when it loads); on failure go on as we are. */
static void match_openblas_core(char **argv)
{
    simd_level level;
    if (getenv("OPENBLAS_CORETYPE") || simd_current(&level) != INVENT_OK ||
        level == SIMD_PORTABLE)
        return;
    static const char *family[2][3] = {{"haswell", "zen", "haswell"},
                                       {"skylakex", "cooperlake", "sapphirerapids"}};
    const char *core = openblas_get_corename();
    int avx512 = level == SIMD_AVX512;
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(core, family[avx512][i]))
            return;
    setenv("OPENBLAS_CORETYPE", avx512 ? "SkylakeX" : "Haswell", 1);
    execv("/proc/self/exe", argv);
    unsetenv("OPENBLAS_CORETYPE");
}

/* argv -> sizes, refused with one line and exit 2 before any output;
 * -> CLI_RUN or the exit code */
static int read_arguments(int argc, char **argv, const cli_spec *spec, bench_sizes *z)
{
    invent_opts o;
    int rc = chapter_parse(argc, argv, spec, &o);
    if (rc != CLI_RUN)
        return rc;
    char why[200];
    if (attn_env_check(why, sizeof why) != INVENT_OK)
        return cli_fail(&o, "%s", why);
    return check_sizes(&o, z);
}

/* the path, threads and yardsticks of this run -> a paragraph */
static void print_setting(const invent_opts *o, const bench_sizes *z)
{
    simd_level level = SIMD_PORTABLE;
    simd_current(&level);
    const char *core = openblas_get_corename();
    report_text(o, "Float32, causal. Vector path: %s (best on this CPU: %s; INVENT_SIMD to force "
                   "one); %d worker threads (INVENT_THREADS). Yardsticks measured in the same "
                   "run: OpenBLAS sgemm (core %s%s), the peak multiply-add rate of the %s path "
                   "(a register-only loop on every thread), the memory read bandwidth (a "
                   "read-only pass over a buffer far larger than the caches). Times are medians "
                   "of %zu rounds after a warm-up; shares of sgemm and of the bandwidth are taken "
                   "round by round; the peak is the best measured in the run (other programs "
                   "can only lower it).",
                simd_name(level), simd_name(simd_best()), workers_count(), core,
                getenv("OPENBLAS_CORETYPE") ? ", OPENBLAS_CORETYPE" : "", simd_name(level),
                z->rounds);
}

int main(int argc, char **argv)
{
    bench_sizes z = {.tmin = 256, .tmax = 4096, .heads = 12, .dh = 64, .naive_max = 1024,
                     .decode_tmax = 65536, .ledger_tokens = 5000, .sparse_t = 2048,
                     .cold_mib = 0, .rounds = 5};
    const cli_option options[] = {
        {"tmin", CLI_SIZE, &z.tmin, 1, 16384, "prefill: shortest sequence T"},
        {"tmax", CLI_SIZE, &z.tmax, 1, 16384, "prefill: longest sequence T (T doubles from tmin)"},
        {"heads", CLI_SIZE, &z.heads, 1, 128, "heads H (prefill, decode, sparse)"},
        {"dh", CLI_SIZE, &z.dh, 1, 1024, "size dh of one head (prefill, decode, sparse)"},
        {"naive-max", CLI_SIZE, &z.naive_max, 0, 16384,
         "prefill: longest T at which the (slow) naive kernel runs"},
        {"decode-tmax", CLI_SIZE, &z.decode_tmax, 1, 1 << 20,
         "decode: longest cache (T = 256, 1024, ... up to it)"},
        {"ledger-tokens", CLI_SIZE, &z.ledger_tokens, 1, 100000,
         "decode: tokens in one layer's cache for the d-against-r rows"},
        {"sparse-t", CLI_SIZE, &z.sparse_t, 1, 16384, "sparse against dense: T"},
        {"cold-mib", CLI_SIZE, &z.cold_mib, 0, 2048,
         "decode: MiB the caches are cycled through (0: 4 x the last-level cache or more)"},
        {"rounds", CLI_SIZE, &z.rounds, 1, 25, "timed rounds per measurement"},
        {"prefill-only", CLI_FLAG, &z.prefill_only, 0, 0,
         "only the prefill section (make bench-framework times it beside the frameworks)"},
    };
    const cli_spec spec = {"bench", "Times attention (prefill, decode, sparse) against same-run "
                                    "yardsticks (--dump DIR writes DIR/bench.csv).",
                           options, (int)(sizeof options / sizeof options[0])};
    int rc = read_arguments(argc, argv, &spec, &z);
    if (rc != CLI_RUN)
        return rc;
    match_openblas_core(argv);
    invent_opts o;
    rc = chapter_parse(argc, argv, &spec, &o); /* the arguments read_arguments checked */
    if (rc == CLI_RUN)
        rc = chapter_start(&o, "Benchmark: attention at the machine's limits");
    if (rc != CLI_RUN)
        return rc;
    print_setting(&o, &z);
    bench_csv table;
    int status = bench_csv_begin(&o, &table);
    if (status == INVENT_OK)
        status = bench_prefill(&o, &z, table.f);
    if (status == INVENT_OK && !z.prefill_only)
        status = bench_decode(&o, &z, table.f);
    if (status == INVENT_OK && !z.prefill_only)
        status = bench_sparse(&o, &z, table.f);
    status = bench_csv_end(&o, &table, status);
    if (status != INVENT_OK)
        return chapter_fail(&o, "running the benchmark", status);
    return chapter_end();
}
