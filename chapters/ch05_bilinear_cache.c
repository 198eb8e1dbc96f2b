/* Chapter 5: bilinear scores and the cache.
 *
 * Chapter 4 kept the product as the interaction between the current token
 * x_L and a past token x_i. With vectors, the most general score that is
 * linear in each of them is x_L^T A x_i for one d x d matrix A: a learned
 * dot product. With A = I it is the plain dot product (claim B1). Because
 * the score is linear in x_i, the vector A x_i can be computed once, when
 * token i arrives, and kept for every later token: the scores come out the
 * same as when everything is recomputed (B2). What such a cache costs in
 * memory for a model of realistic size is simple arithmetic, provided it is
 * done in 64 bits (B3).
 */
#include <math.h>

#include "invent.h"

typedef struct {
    size_t seq, layers, funcs, dim, bytes; /* the cache setting to add up */
    size_t tokens, width;                  /* the worked example: T tokens of size d */
} sizes;

/* The setting of the claims ledger: 5,000 tokens, 50 layers, 20 score
 * functions, cached vectors of 1,000 numbers, 2 bytes per number. */
static const kvcache_shape LEDGER = {5000, 50, 20, 1000, 2};
static const uint64_t LEDGER_BYTES = 10000000000ULL; /* what B3 claims: 10^10 */

static kvcache_shape shape_of(const sizes *s)
{
    return (kvcache_shape){s->seq, s->layers, s->funcs, s->dim, s->bytes};
}

/* B1: with A = I the bilinear score is the dot product. */
static int dot_product_section(const invent_opts *o, const gsl_matrix *X)
{
    report_section(o, "A learned dot product");
    report_text(o, "Take two tokens x_L and x_i of size d = %zu. The score x_L^T A x_i is linear "
                   "in each of them, and every such score has this form for some d x d matrix A "
                   "(Luong et al., 2015, call it the \"general\" score). With A the identity "
                   "it is nothing but the dot product x_L . x_i: the bilinear score is the dot "
                   "product with a matrix the model can learn.",
                X->size2);
    gsl_matrix *I = gsl_matrix_alloc(X->size2, X->size2);
    if (!I)
        return chapter_fail(o, "allocating the identity", INVENT_ENOMEM);
    gsl_matrix_set_identity(I);
    gsl_vector_const_view xL = gsl_matrix_const_row(X, X->size1 - 1);
    gsl_vector_const_view xi = gsl_matrix_const_row(X, 0);
    double bilinear = NAN, dot = NAN;
    bilinear_score(&xL.vector, I, &xi.vector, &bilinear);
    gsl_blas_ddot(&xL.vector, &xi.vector, &dot);
    report_line(o, "  x_L^T I x_i = %.15f", bilinear);
    report_line(o, "  x_L . x_i   = %.15f", dot);
    check_close("B1", "with A = I the bilinear score x_L^T A x_i is the dot product x_L . x_i",
                bilinear, dot, 1e-12);
    gsl_matrix_free(I);
    return 0;
}

/* Feeds the tokens one at a time, caching A x_i, and returns the largest
 * difference from the scores recomputed from scratch (S, all pairs). */
static int decode_with_cache(const gsl_matrix *X, const gsl_matrix *A, const gsl_matrix *S,
                             double *worst)
{
    size_t T = X->size1, d = X->size2;
    kvcache *c = kvcache_new(T, d);
    gsl_vector *key = gsl_vector_alloc(d), *s = gsl_vector_alloc(T);
    int status = c && key && s ? INVENT_OK : INVENT_ENOMEM;
    *worst = 0.0;
    for (size_t L = 0; L < T && status == INVENT_OK; L++) {
        gsl_vector_const_view xL = gsl_matrix_const_row(X, L);
        gsl_vector_view seen = gsl_vector_subvector(s, 0, L + 1);
        status = bilinear_key(A, &xL.vector, key);
        if (status == INVENT_OK)
            status = kvcache_append(c, key);
        if (status == INVENT_OK)
            status = kvcache_scores(c, &xL.vector, &seen.vector);
        for (size_t i = 0; i <= L && status == INVENT_OK; i++)
            *worst = fmax(*worst, fabs(gsl_vector_get(s, i) - gsl_matrix_get(S, L, i)));
    }
    kvcache_free(c);
    gsl_vector_free(key);
    gsl_vector_free(s);
    return status;
}

/* B2: the cached keys give the recomputed scores. */
static int cache_section(const invent_opts *o, const gsl_matrix *X, gsl_rng *r)
{
    size_t T = X->size1, d = X->size2;
    report_section(o, "Keep A x_i, do not recompute it");
    report_text(o, "A model that writes one token at a time scores the new token x_L against "
                   "every earlier one. The factor A x_i depends on the old token alone, so it can "
                   "be computed once, when token i arrives, and kept in a cache; the new token "
                   "then costs one product A x_L and one dot product per cached vector. Here "
                   "%zu tokens of size %zu are fed one by one into such a cache and the scores "
                   "are compared with x_L^T A x_i recomputed from scratch for every pair.",
                T, d);
    gsl_matrix *A = mat_gaussian(d, d, 1.0 / sqrt((double)d), r);
    gsl_matrix *S = gsl_matrix_alloc(T, T);
    int status = A && S ? bilinear_scores(X, A, S) : INVENT_ENOMEM;
    double worst = NAN;
    if (status == INVENT_OK)
        status = decode_with_cache(X, A, S, &worst);
    /* dump_matrix reports its own failure: no second message for it */
    int dump_failed = status == INVENT_OK && (dump_matrix(o, "X", X) || dump_matrix(o, "A", A) ||
                                              dump_matrix(o, "scores", S));
    if (status == INVENT_OK && !dump_failed)
        check_at_most("B2", "caching A x_i gives the same scores as recomputing every pair "
                            "(largest difference over all causal pairs)", worst, 1e-12);
    gsl_matrix_free(A);
    gsl_matrix_free(S);
    if (status != INVENT_OK)
        return chapter_fail(o, "running the cache", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

static void print_setting(const invent_opts *o, const char *who, const kvcache_shape *k,
                          uint64_t bytes)
{
    report_line(o, "  %-14s %llu tokens x %llu layers x %llu functions x %llu numbers x %llu "
                   "bytes", who, (unsigned long long)k->tokens, (unsigned long long)k->layers,
                (unsigned long long)k->funcs, (unsigned long long)k->width,
                (unsigned long long)k->bytes_each);
    report_line(o, "  %-14s = %llu bytes = %.4g GB (%.4g GiB)", "",
                (unsigned long long)bytes, (double)bytes / 1e9, (double)bytes / 1073741824.0);
}

/* B3: the ledger's cache is 10^10 bytes, and only 64 bits hold it. */
static void size_section(const invent_opts *o, const sizes *s)
{
    report_section(o, "What the cache weighs");
    report_text(o, "Every layer keeps one cached vector per score function and per token. The "
                   "cache therefore grows as tokens x layers x functions x numbers per vector x "
                   "bytes per number. Only the vectors the scores need are counted here; "
                   "chapter 8 adds the values.");
    uint64_t ledger = 0, mine = 0;
    kvcache_bytes(&LEDGER, &ledger);
    kvcache_shape own = shape_of(s);
    kvcache_bytes(&own, &mine);
    print_setting(o, "ledger:", &LEDGER, ledger);
    print_setting(o, "your flags:", &own, mine);
    report_line(o, "%s", "");
    uint32_t narrow = 1; /* the same product in 32-bit arithmetic, for contrast */
    const uint64_t f[] = {LEDGER.tokens, LEDGER.layers, LEDGER.funcs, LEDGER.width,
                          LEDGER.bytes_each};
    for (int i = 0; i < 5; i++)
        narrow *= (uint32_t)f[i];
    report_text(o, "In 32-bit arithmetic the same product silently wraps around to %lu bytes "
                   "(%.3g GB), a plausible-looking and wrong number. The library counts in 64 "
                   "bits and reports overflow instead of wrapping.",
                (unsigned long)narrow, narrow / 1e9);
    check_equal("B3", "5,000 tokens x 50 layers x 20 functions x 1,000 numbers x 2 bytes = 10^10 "
                      "bytes (10 GB), in 64-bit arithmetic", ledger, LEDGER_BYTES);
    kvcache_shape huge = {1ULL << 32, 1ULL << 16, 1ULL << 8, 1ULL << 8, 2};
    uint64_t ignored = 0;
    int overflow = kvcache_bytes(&huge, &ignored) == INVENT_EOVERFLOW;
    check_true("B3", "a cache of 2^65 bytes is reported as an overflow, not wrapped around",
               overflow, overflow ? "kvcache_bytes returned INVENT_EOVERFLOW"
                                  : "kvcache_bytes returned a number");
}

/* Figure: cache size against sequence length for a few model sizes. */
static void plot_sizes(const invent_opts *o, const sizes *s)
{
    const kvcache_shape models[3] = {{1, 12, 12, 768, 2}, {1, s->layers, s->funcs, s->dim, s->bytes},
                                     {1, 80, 64, 8192, 2}};
    plot *p = plot_begin(o, "ch05_cache_size");
    for (int m = 0; m < 3; m++) {
        char label[160];
        snprintf(label, sizeof label, "%llu layers, %llu functions, d = %llu, %llu bytes",
                 (unsigned long long)models[m].layers, (unsigned long long)models[m].funcs,
                 (unsigned long long)models[m].width, (unsigned long long)models[m].bytes_each);
        plot_set_text(p, m == 0 ? "label0" : m == 1 ? "label1" : "label2", label);
        plot_block(p, "tokens  cache_GB");
        for (uint64_t T = 256; T <= (1u << 20); T *= 2) {
            kvcache_shape k = models[m];
            k.tokens = T;
            uint64_t bytes;
            if (kvcache_bytes(&k, &bytes) == INVENT_OK)
                PLOT_ROW(p, (double)T, (double)bytes / 1e9);
        }
    }
    plot_set(p, "ledger_tokens", (double)LEDGER.tokens);
    plot_set(p, "ledger_gb", (double)LEDGER_BYTES / 1e9);
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
        {"width", CLI_SIZE, &s.width, 1, 256, "size d of a token in the worked example"},
    };
    const cli_spec spec = {"ch05", "Chapter 5: bilinear scores, and caching A x_i for past tokens.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    kvcache_shape own = shape_of(&s);
    uint64_t bytes;
    if (kvcache_bytes(&own, &bytes) != INVENT_OK)
        return cli_fail(&o, "the cache for --seq %zu --layers %zu --funcs %zu --dim %zu --bytes "
                            "%zu exceeds 2^64 bytes", s.seq, s.layers, s.funcs, s.dim, s.bytes);
    rc = chapter_start(&o, "Chapter 5: bilinear scores and the cache");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *r = rng_new(o.seed);
    gsl_matrix *X = r ? mat_gaussian(s.tokens, s.width, 1.0, r) : NULL;
    if (!X) {
        gsl_rng_free(r);
        return chapter_fail(&o, "creating the tokens", INVENT_ENOMEM);
    }
    rc = dot_product_section(&o, X);
    if (rc == 0)
        rc = cache_section(&o, X, r);
    gsl_matrix_free(X);
    gsl_rng_free(r);
    if (rc != 0)
        return rc;
    size_section(&o, &s);
    plot_sizes(&o, &s);
    report_section(&o, "What follows");
    report_text(&o, "Ten gigabytes for five thousand tokens is a lot to keep. The next chapter "
                    "factors A into two thin matrices, which shrinks what must be cached from "
                    "d numbers to r.");
    return chapter_end();
}
