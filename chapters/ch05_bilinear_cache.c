/* Chapter 5: bilinear scores and the cache.
 *
 * Chapter 4 kept the product as the interaction between the current token
 * x_L and a past token x_i. With vectors, the most general score that is
 * linear in each of them is x_L^T A x_i for one d x d matrix A: a learned
 * dot product, which is the plain dot product when A = I (claim B1). Because
 * the score is linear in x_i, the key A x_i can be computed once, when token
 * i arrives, and kept for every later token: the scores come out the same as
 * when everything is recomputed (B2). With 20 score functions such a cache
 * holds 20 keys per token and layer: 10 GB in the ledger's setting, counted
 * in 64 bits (B3). But the cache need not hold keys at all: the score is also
 * (A^T x_L) . x_i, so one copy of the raw token x_i serves every function,
 * with the same scores and the same work, in 0.5 GB (C1).
 */
#include <math.h>

#include "digits.h"
#include "invent.h"

typedef struct {
    size_t seq, layers, funcs, dim, bytes; /* the cache setting to add up */
    size_t tokens, width;                  /* the worked example: T tokens of size d */
} sizes;

/* The setting of the claims ledger: 5,000 tokens, 50 layers, 20 score
 * functions, cached vectors of 1,000 numbers, 2 bytes per number. */
static const kvcache_shape LEDGER = {5000, 50, 20, 1000, 2};
static const uint64_t LEDGER_BYTES = 10000000000ULL; /* what B3 claims: 10^10 */
static const uint64_t LEDGER_SHARED = 500000000ULL;  /* what C1 claims: 0.5 GB */

enum { FUNCS = 4 }; /* score functions sharing one cache in the worked example */

/* S: (T, T) -> a copy with zeros above the diagonal: the causal pairs only */
static gsl_matrix *causal_part(scope *sc, const gsl_matrix *S)
{
    gsl_matrix *C = scope_matrix(sc, S->size1, S->size2);
    gsl_matrix_tricpy(CblasLower, CblasNonUnit, C, S);
    return C;
}

/* X: (T, d), A: (d, d) -> the scores x_t^T A x_i of the causal pairs */
static gsl_matrix *recomputed(scope *sc, const gsl_matrix *X, const gsl_matrix *A)
{
    gsl_matrix *S = scope_matrix(sc, X->size1, X->size1), *keys = scope_matrix(sc, X->size1, A->size1);
    chapter_must(bilinear_scores(X, A, keys, S), "recomputing the scores");
    return causal_part(sc, S);
}

/* B1: with A = I the bilinear score is the dot product. */
static void dot_product_section(const invent_opts *o, const gsl_matrix *X, gsl_rng *r)
{
    size_t T = X->size1, d = X->size2;
    report_section(o, "A learned dot product");
    report_text(o, "Take T = %zu tokens of size d = %zu. The score x_L^T A x_i is linear in each "
                   "token, and every such score has this form for some d x d matrix A (Luong et "
                   "al., 2015, call it the \"general\" score). With A the identity it is the dot "
                   "product x_L . x_i. Here the scores of every pair with A = I (two matrix "
                   "products) are compared with the dot products of the tokens computed by "
                   "another routine (BLAS's symmetric rank-k update).", T, d);
    scope *sc = scope_open();
    gsl_matrix *I = scope_matrix(sc, d, d), *SI = scope_matrix(sc, T, T);
    gsl_matrix *SA = scope_matrix(sc, T, T), *G = scope_matrix(sc, T, T), *keys = scope_matrix(sc, T, d);
    gsl_matrix *A = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / sqrt((double)d), r));
    gsl_matrix_set_identity(I);
    chapter_must(bilinear_scores(X, I, keys, SI), "scoring with A = I");
    chapter_must(bilinear_scores(X, A, keys, SA), "scoring with a random A");
    gsl_blas_dsyrk(CblasLower, CblasNoTrans, 1.0, X, 0.0, G); /* lower half of X X^T */
    gsl_matrix_transpose_tricpy(CblasLower, CblasUnit, G, G);
    check_matrix_close("B1", "with A = I the bilinear score x_L^T A x_i is the dot product "
                             "x_L . x_i, for every pair of tokens", SI, G, rounding_tolerance(d, G));
    check_control("B1", "A a random matrix instead of I");
    check_matrix_close("B1", NULL, SA, G, rounding_tolerance(d, G));
    gsl_matrix *SAt = scope_matrix(sc, T, T);
    gsl_matrix_transpose_memcpy(SAt, SA);
    report_line(o, "%s", "");
    report_text(o, "A learned A is more than a rescaled dot product: its scores are not even "
                   "symmetric. With S the matrix of the scores of every pair, how strongly token t "
                   "looks at token i is not how strongly i looks at t (here ||S - S^T|| / ||S|| "
                   "= %.2f; 0 for A = I).",
                mat_rel_error(SAt, SA));
    scope_close(sc);
}

/* B2: the cached keys A x_i give the recomputed scores. */
static void cache_section(const invent_opts *o, const gsl_matrix *X, gsl_rng *r)
{
    size_t T = X->size1, d = X->size2;
    report_section(o, "Keep A x_i, do not recompute it");
    report_text(o, "A model that writes one token at a time scores the new token x_L against "
                   "every earlier one. The key A x_i depends on the old token alone, so it can "
                   "be computed once, when token i arrives, and kept in a cache; the new token "
                   "then costs d^2 multiply-adds for its own key and d per cached key. Here the "
                   "%zu tokens are fed one by one into such a cache and the scores are compared "
                   "with x_L^T A x_i recomputed from scratch for every pair.", T);
    scope *sc = scope_open();
    gsl_matrix *A = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / sqrt((double)d), r));
    gsl_matrix *At = scope_matrix(sc, d, d), *S = scope_matrix(sc, T, T);
    gsl_matrix *wrong = scope_matrix(sc, T, T), *want = recomputed(sc, X, A);
    decode_work *w = SCOPE_KEEP(sc, decode_work_new(T, d), decode_work_free);
    decode_count n;
    chapter_must(decode_bilinear(X, A, w, S, &n), "decoding from the cache");
    gsl_matrix_transpose_memcpy(At, A);
    chapter_must(decode_bilinear(X, At, w, wrong, &n), "decoding from the wrong cache");
    chapter_dump(o, "X", X);
    chapter_dump(o, "A", A);
    chapter_dump(o, "scores", S);
    check_matrix_close("B2", "caching A x_i gives the same scores as recomputing every causal "
                             "pair", S, want, rounding_tolerance(d, want));
    check_control("B2", "a wrong cache: A^T x_i, the matrix on the wrong side");
    check_matrix_close("B2", NULL, wrong, want, rounding_tolerance(d, want));
    scope_close(sc);
}

/* keys, other: two tallies -> a detail line, and whether they did the same
 * multiply-adds for the same scores */
static int same_tally(decode_count keys, decode_count other, char *detail, size_t cap)
{
    snprintf(detail, cap, "%llu multiply-adds for %llu scores, against %llu for %llu",
             (unsigned long long)(other.proj + other.pair), (unsigned long long)other.scores,
             (unsigned long long)(keys.proj + keys.pair), (unsigned long long)keys.scores);
    return other.proj + other.pair == keys.proj + keys.pair && other.scores == keys.scores;
}

/* C1: the shared raw tokens cost the work of the keys; recomputing every key
 * from them, the control, does not. */
static void same_work(decode_count keys, decode_count raw, decode_count again)
{
    char detail[160];
    int same = same_tally(keys, raw, detail, sizeof detail);
    check_true("C1", "the shared raw tokens take the same multiply-adds for the same scores as "
                     "the caches of keys (tallied by the decoding loops)", same, detail);
    check_control("C1", "the raw tokens cached, every key A_j x_i recomputed for each new token");
    same = same_tally(keys, again, detail, sizeof detail);
    check_true("C1", NULL, same, detail);
}

/* What decoding FUNCS functions three ways gave: the largest gaps to the
 * recomputed scores, and each way's tally of the work. */
typedef struct {
    double keyed, keyed_wrong;   /* own caches of keys A_j x_i; of A_j^T x_i */
    double shared, shared_wrong; /* shared raw tokens, queries A_j^T x_L; A_j x_L */
    double recomputed;           /* shared raw tokens, every key recomputed */
    double tol;                  /* rounding allowed */
    decode_count keys, raw, again; /* own caches; shared raw tokens; keys recomputed */
} funcs_run;

/* a, b: two tallies -> their sum */
static decode_count add(decode_count a, decode_count b)
{
    return (decode_count){a.scores + b.scores, a.proj + b.proj, a.pair + b.pair,
                          a.cached + b.cached};
}

/* X: (T, d), A, At: FUNCS matrices (d, d) and their transposes -> the run */
static funcs_run decode_funcs(const gsl_matrix *X, const gsl_matrix *const *A,
                              const gsl_matrix *const *At)
{
    size_t T = X->size1, d = X->size2;
    scope *sc = scope_open();
    gsl_matrix *want[FUNCS], *shared[FUNCS], *wrong[FUNCS], *again[FUNCS];
    gsl_matrix *S = scope_matrix(sc, T, T);
    decode_work *w = SCOPE_KEEP(sc, decode_work_new(T, d), decode_work_free);
    funcs_run f = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    decode_count n;
    for (int j = 0; j < FUNCS; j++) {
        want[j] = recomputed(sc, X, A[j]);
        shared[j] = scope_matrix(sc, T, T);
        wrong[j] = scope_matrix(sc, T, T);
        again[j] = scope_matrix(sc, T, T);
        f.tol = fmax(f.tol, rounding_tolerance(d, want[j]));
        chapter_must(decode_bilinear(X, A[j], w, S, &n), "decoding with keys A_j x_i");
        f.keys = add(f.keys, n);
        f.keyed = fmax(f.keyed, mat_max_abs_diff(S, want[j]));
        chapter_must(decode_bilinear(X, At[j], w, S, &n), "decoding with keys A_j^T x_i");
        f.keyed_wrong = fmax(f.keyed_wrong, mat_max_abs_diff(S, want[j]));
    }
    chapter_must(decode_shared(X, A, FUNCS, w, shared, &f.raw), "decoding from the raw tokens");
    chapter_must(decode_shared(X, At, FUNCS, w, wrong, &n), "decoding with queries A_j x_L");
    chapter_must(decode_recomputed(X, A, FUNCS, w, again, &f.again), "recomputing every key");
    for (int j = 0; j < FUNCS; j++) {
        f.shared = fmax(f.shared, mat_max_abs_diff(shared[j], want[j]));
        f.shared_wrong = fmax(f.shared_wrong, mat_max_abs_diff(wrong[j], want[j]));
        f.recomputed = fmax(f.recomputed, mat_max_abs_diff(again[j], want[j]));
    }
    scope_close(sc);
    return f;
}

/* n: a tally -> one row of the work table */
static void print_tally(const invent_opts *o, const char *who, decode_count n)
{
    report_line(o, "  %-34s %14llu   %13llu   %6llu", who, (unsigned long long)n.cached,
                (unsigned long long)(n.proj + n.pair), (unsigned long long)n.scores);
}

/* C1: one cache of raw tokens serves every function, for the same work. */
static void shared_section(const invent_opts *o, const gsl_matrix *X, gsl_rng *r)
{
    size_t T = X->size1, d = X->size2;
    report_section(o, "One cache for every function: the raw tokens");
    report_text(o, "A layer has several score functions, each with its own A_j, and a cache of "
                   "keys A_j x_i keeps one vector per function. But the score can be grouped "
                   "the other way, x_L^T A_j x_i = (A_j^T x_L) . x_i: the function's matrix goes "
                   "into the query of the new token, and what is cached is the raw token x_i, "
                   "the same for every function. Here %d functions (a fixed number, whatever "
                   "--funcs says: that flag only sizes the cache below) score the %zu tokens "
                   "both ways, one token at a time, each decode tallying the products its loops "
                   "perform; and a third way, the raw tokens cached but every key A_j x_i "
                   "recomputed from them for each new token:", FUNCS, T);
    scope *sc = scope_open();
    const gsl_matrix *A[FUNCS], *At[FUNCS];
    for (int j = 0; j < FUNCS; j++) {
        gsl_matrix *Aj = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / sqrt((double)d), r));
        gsl_matrix *Atj = scope_matrix(sc, d, d);
        gsl_matrix_transpose_memcpy(Atj, Aj);
        A[j] = Aj;
        At[j] = Atj;
    }
    funcs_run f = decode_funcs(X, A, At);
    report_line(o, "  %d functions, T = %zu, d = %zu:", FUNCS, T, d);
    report_line(o, "  %-34s %14s   %13s   %6s", "", "cached numbers", "multiply-adds", "scores");
    print_tally(o, "keys A_j x_i, one cache each", f.keys);
    print_tally(o, "raw tokens x_i, one shared", f.raw);
    print_tally(o, "raw tokens, every key recomputed", f.again);
    report_line(o, "%s", "");
    report_text(o, "All three give the recomputed scores (largest differences %.2g, %.2g and "
                   "%.2g); the shared cache holds 1/%d of the numbers of the keys.", f.keyed,
                f.shared, f.recomputed, FUNCS);
    check_at_most("B2", "each function's own cache of keys A_j x_i gives its scores (largest "
                        "difference over the causal pairs)", f.keyed, f.tol);
    check_control("B2", "keys A_j^T x_i, the matrix on the wrong side");
    check_at_most("B2", NULL, f.keyed_wrong, f.tol);
    check_at_most("C1", "one cache of raw tokens x_i for every function: (A_j^T x_L) . x_i gives "
                        "each function's scores (largest difference over the causal pairs)",
                  f.shared, f.tol);
    check_control("C1", "queries A_j x_L, the matrix on the wrong side");
    check_at_most("C1", NULL, f.shared_wrong, f.tol);
    same_work(f.keys, f.raw, f.again);
    scope_close(sc);
}

/* k: a cache shape, bytes: its size -> one line of the table */
static void print_setting(const invent_opts *o, const char *who, const kvcache_shape *k,
                          uint64_t bytes)
{
    char f[5][DIGITS_GROUPED_CAP], total[DIGITS_GROUPED_CAP];
    const uint64_t factor[5] = {k->tokens, k->layers, k->funcs, k->width, k->bytes_each};
    for (int i = 0; i < 5; i++)
        digits_grouped(factor[i], f[i]);
    report_line(o, "  %-24s %s x %s x %s x %s x %s = %s bytes (%.4g GB)", who, f[0], f[1], f[2],
                f[3], f[4], digits_grouped(bytes, total), (double)bytes / 1e9);
}

/* a, b: cache shapes -> whether they are the same */
static int same_shape(const kvcache_shape *a, const kvcache_shape *b)
{
    return a->tokens == b->tokens && a->layers == b->layers && a->funcs == b->funcs &&
           a->width == b->width && a->bytes_each == b->bytes_each;
}

/* B3 and C1 on the ledger's setting: keys, shared: the bytes of its keys and of
 * its raw tokens (raw: their shape) */
static void size_checks(const invent_opts *o, uint64_t keys, uint64_t shared,
                        const kvcache_shape *raw)
{
    uint32_t narrow = 1; /* the same product in 32-bit arithmetic */
    const uint64_t f[] = {LEDGER.tokens, LEDGER.layers, LEDGER.funcs, LEDGER.width,
                          LEDGER.bytes_each};
    for (int i = 0; i < 5; i++)
        narrow *= (uint32_t)f[i];
    char wrapped[DIGITS_GROUPED_CAP];
    report_text(o, "The product needs 64 bits: in 32-bit arithmetic it wraps around silently "
                   "to %s bytes, so the library counts in 64 bits and reports an overflow "
                   "instead of wrapping.", digits_grouped(narrow, wrapped));
    kvcache_shape numbers = LEDGER, one_cache = *raw;
    numbers.bytes_each = 1;
    one_cache.layers = 1;
    uint64_t counted = 0, one_cache_bytes = 0;
    chapter_must(kvcache_bytes(&numbers, &counted), "sizing the ledger's cache in numbers");
    chapter_must(kvcache_bytes(&one_cache, &one_cache_bytes), "sizing one cache for all layers");
    check_equal("B3", "5,000 tokens x 50 layers x 20 functions x 1,000 numbers x 2 bytes = "
                      "10^10 bytes (10 GB), in 64-bit arithmetic", keys, LEDGER_BYTES);
    check_control("B3", "the cache counted in numbers, the 2 bytes of each forgotten");
    check_equal("B3", NULL, counted, LEDGER_BYTES);
    const kvcache_shape huge = {1ULL << 32, 1ULL << 16, 1ULL << 8, 1ULL << 8, 1};
    const kvcache_shape fits = {1ULL << 32, 1ULL << 16, 1ULL << 8, 1ULL << 7, 1};
    uint64_t ignored = 0;
    int overflow = kvcache_bytes(&huge, &ignored) == INVENT_EOVERFLOW;
    check_true("B3", "a cache of 2^64 bytes, one more than the largest 64-bit number, is reported "
                     "as an overflow, not wrapped around to 0",
               overflow, overflow ? "kvcache_bytes returned INVENT_EOVERFLOW"
                                  : "kvcache_bytes returned a number");
    check_control("B3", "a cache of 2^63 bytes, which fits in 64 bits");
    overflow = kvcache_bytes(&fits, &ignored) == INVENT_EOVERFLOW;
    check_true("B3", NULL, overflow, overflow ? "kvcache_bytes returned INVENT_EOVERFLOW"
                                              : "kvcache_bytes returned 2^63");
    check_equal("C1", "raw tokens shared by the 20 functions: 5,000 x 50 x 1,000 x 2 bytes = "
                      "0.5 GB, a twentieth of the keys", shared, LEDGER_SHARED);
    check_control("C1", "one cache of raw tokens for all 50 layers, as if every layer read the "
                        "same tokens");
    check_equal("C1", NULL, one_cache_bytes, LEDGER_SHARED);
}

/* B3: the ledger's key cache is 10^10 bytes, and only 64 bits hold it;
 * C1: the raw tokens, shared, take 0.5 GB. */
static void size_section(const invent_opts *o, const sizes *s)
{
    report_section(o, "What the cache weighs");
    report_text(o, "Each layer keeps, per token, one key per score function, or one raw token "
                   "for all of them. Sizes as tokens x layers x vectors per token x numbers "
                   "per vector x bytes per number (only what the scores need; chapter 8 adds "
                   "the values):");
    kvcache_shape raw = LEDGER, own = {s->seq, s->layers, s->funcs, s->dim, s->bytes}, own_raw;
    raw.funcs = 1;
    own_raw = own;
    own_raw.funcs = 1;
    uint64_t keys = 0, shared = 0, mine = 0, mine_raw = 0;
    chapter_must(kvcache_bytes(&LEDGER, &keys), "sizing the ledger's cache");
    chapter_must(kvcache_bytes(&raw, &shared), "sizing the ledger's cache");
    chapter_must(kvcache_bytes(&own, &mine), "sizing your cache");
    chapter_must(kvcache_bytes(&own_raw, &mine_raw), "sizing your cache");
    print_setting(o, "ledger, keys A_j x_i:", &LEDGER, keys);
    print_setting(o, "ledger, raw tokens:", &raw, shared);
    if (!same_shape(&own, &LEDGER)) {
        print_setting(o, "your flags, keys:", &own, mine);
        print_setting(o, "your flags, raw tokens:", &own_raw, mine_raw);
    }
    report_line(o, "%s", "");
    size_checks(o, keys, shared, &raw);
}

/* m: a cache shape, ledger: whether it is the ledger's -> its legend entry */
static void size_label(const kvcache_shape *m, int ledger, char *label, size_t cap)
{
    char width[DIGITS_GROUPED_CAP];
    digits_grouped(m->width, width);
    if (ledger)
        snprintf(label, cap, "the ledger: %llu layers, %llu functions, d = %s",
                 (unsigned long long)m->layers, (unsigned long long)m->funcs, width);
    else if (m->bytes_each == 2) /* as the figure's key says */
        snprintf(label, cap, "your flags: %llu layers, %llu functions, d = %s",
                 (unsigned long long)m->layers, (unsigned long long)m->funcs, width);
    else
        snprintf(label, cap, "your flags: %llu layers, %llu functions, d = %s, %llu byte%s each",
                 (unsigned long long)m->layers, (unsigned long long)m->funcs, width,
                 (unsigned long long)m->bytes_each, m->bytes_each == 1 ? "" : "s");
}

/* Figure: cache size against sequence length, for the ledger's setting (or
 * the flags') and two hypothetical models that cache a key of d numbers per
 * function. */
static void plot_sizes(const invent_opts *o, const sizes *s)
{
    const kvcache_shape models[4] = {{1, 12, 12, 768, 2}, {1, s->layers, s->funcs, s->dim, s->bytes},
                                     {1, 80, 64, 8192, 2}, {1, s->layers, 1, s->dim, s->bytes}};
    kvcache_shape own = models[1], ledger = LEDGER;
    ledger.tokens = 1;
    plot *p = plot_begin(o, "ch05_cache_size");
    for (int m = 0; m < 4; m++) {
        char label[160], var[24], width[DIGITS_GROUPED_CAP];
        snprintf(label, sizeof label, "hypothetical: %llu layers, %llu functions, d = %s",
                 (unsigned long long)models[m].layers, (unsigned long long)models[m].funcs,
                 digits_grouped(models[m].width, width));
        if (m == 1)
            size_label(&own, same_shape(&own, &ledger), label, sizeof label);
        snprintf(var, sizeof var, "label%d", m);
        if (m < 3) /* the fourth curve, the raw tokens, has its own title */
            plot_set_text(p, var, label);
        plot_block(p, "tokens  cache_GB");
        for (uint64_t T = 256; T <= (1u << 20); T *= 2) {
            kvcache_shape k = models[m];
            k.tokens = T;
            uint64_t bytes;
            if (kvcache_bytes(&k, &bytes) == INVENT_OK)
                PLOT_ROW(p, (double)T, (double)bytes / 1e9);
        }
    }
    char tokens[DIGITS_GROUPED_CAP];
    plot_set(p, "ledger_tokens", (double)LEDGER.tokens);
    plot_set_text(p, "ledger_tokens_text", digits_grouped(LEDGER.tokens, tokens));
    plot_set(p, "ledger_gb", (double)LEDGER_BYTES / 1e9);
    plot_set(p, "shared_gb", (double)LEDGER_SHARED / 1e9);
    plot_render(p, "ch05_cache_size.gp");
}

int main(int argc, char **argv)
{
    sizes s = {.seq = 5000, .layers = 50, .funcs = 20, .dim = 1000, .bytes = 2,
               .tokens = 12, .width = 8};
    const cli_option options[] = {
        {"seq", CLI_SIZE, &s.seq, 1, 1e12, "tokens in the cache to size"},
        {"layers", CLI_SIZE, &s.layers, 1, 1e6, "layers, each with its own cache"},
        {"funcs", CLI_SIZE, &s.funcs, 1, 1e6, "score functions per layer"},
        {"dim", CLI_SIZE, &s.dim, 1, 1e9, "numbers per cached vector"},
        {"bytes", CLI_SIZE, &s.bytes, 1, 16, "bytes per number"},
        {"tokens", CLI_SIZE, &s.tokens, 2, 512, "tokens T in the worked example"},
        {"width", CLI_SIZE, &s.width, 2, 256,
         "size d of a token in the worked example (at d = 1, A^T = A: no wrong side to show)"},
    };
    const cli_spec spec = {"ch05", "Chapter 5: bilinear scores, and what a cache of past tokens "
                                   "must keep.", options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    kvcache_shape own = {s.seq, s.layers, s.funcs, s.dim, s.bytes};
    uint64_t bytes;
    if (kvcache_bytes(&own, &bytes) != INVENT_OK)
        return cli_fail(&o, "the cache for --seq %zu --layers %zu --funcs %zu --dim %zu --bytes "
                            "%zu exceeds 2^64 bytes", s.seq, s.layers, s.funcs, s.dim, s.bytes);
    rc = chapter_start(&o, "Chapter 5: bilinear scores and the cache");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(o.seed));
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(s.tokens, s.width, 1.0, r));
    dot_product_section(&o, X, r);
    cache_section(&o, X, r);
    shared_section(&o, X, r);
    size_section(&o, &s);
    plot_sizes(&o, &s);
    scope_close(sc);
    return chapter_close(&o, 0,
                         "Where this leaves the article whose derivation these chapters follow, "
                         "which factors A to shrink the cache (the forum thread that discussed "
                         "it is a second source, quoted in chapter 6). Caching one key A_j x_i "
                         "per function costs 10 GB in the ledger's setting, and the next "
                         "chapter's factoring, A_j = W_q^T W_k with keys of r = 200 numbers, "
                         "shrinks that to 2 GB. But the raw tokens, shared by all functions, "
                         "take 0.5 GB with the same scores and the same work: against that "
                         "cache, factoring saves no memory. What it does save is work, per token "
                         "and per pair of tokens, as the next chapter counts.");
}
