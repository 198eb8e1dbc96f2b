/* Chapter 8: many heads, and the matrix W_o that mixes them.
 *
 * Chapter 3 replaced one fully dynamic weight by a sum over a few learned
 * matrices V_1 .. V_H, each scaled by its own dynamic coefficient. With the
 * score functions of chapters 5-7 those coefficients become H attention
 * heads: each head j has its own queries and keys, and its own value matrix
 * V_j. Real systems do not add the heads up directly. They place the H head
 * outputs side by side and multiply by one output matrix W_o (Vaswani et
 * al., 2017). This chapter shows that the two descriptions are the same
 * thing: the concatenation followed by W_o is the sum over heads of
 * W_o^(j) V_j, with W_o^(j) the block of W_o's columns that meets head j
 * (claim H1). Folding W_o^(j) into V_j gives the same output with values
 * d wide per head; keeping them apart caches values r wide; and one cache of
 * the raw tokens, shared by every head, is smaller than both and gives the
 * same output too. What keeping W_o apart buys is work per (query, key)
 * pair, not the smallest cache (H2). Each product W_o^(j) V_j is one d x d
 * matrix of rank at most r, the head's output-value circuit (Elhage et al.,
 * 2021) (H3).
 */
#include <math.h>

#include "invent.h"

#define MAX_HEADS 64

typedef struct {
    size_t dim, heads, seq; /* d, H and T of the worked example; r = d / H */
} sizes;

/* The cache setting of claim B3 (chapter 5), with heads for score functions:
 * 5,000 tokens, 50 layers, 20 heads, width 1,000, 2 bytes per number; r = 200. */
static const kvcache_shape LEDGER = {5000, 50, 20, 1000, 2};
static const uint64_t LEDGER_RANK = 200;

/* The worked example: tokens, weights, and what every head computed. */
typedef struct {
    size_t T, d, H, r;
    gsl_matrix *X;              /* (T, d) */
    mha_weights *w;             /* H heads of size r */
    mha_trace *tr;              /* Q, K, V, weights A_j, concatenated head outputs C */
    gsl_matrix *O[MAX_HEADS];   /* H matrices (T, r): each head on its own */
    gsl_matrix *out;            /* (T, d): C W_o^T, the concatenation followed by W_o */
} example;

/* head j alone, from attention.h: O_j = attn(X W_q^(j)T, X W_k^(j)T, X W_v^(j)T), causal */
static void head_output(const mha_weights *w, const gsl_matrix *X, size_t j, gsl_matrix *O)
{
    scope *sc = scope_open();
    size_t H = w->heads, dk = w->Wq->size1 / H;
    gsl_matrix_const_view Wq = heads_const_rows(w->Wq, H, j), Wk = heads_const_rows(w->Wk, H, j);
    gsl_matrix_const_view Wv = heads_const_rows(w->Wv, H, j);
    gsl_matrix *Q = scope_keep_matrix(sc, mat_product(X, CblasNoTrans, &Wq.matrix, CblasTrans));
    gsl_matrix *K = scope_keep_matrix(sc, mat_product(X, CblasNoTrans, &Wk.matrix, CblasTrans));
    gsl_matrix *V = scope_keep_matrix(sc, mat_product(X, CblasNoTrans, &Wv.matrix, CblasTrans));
    gsl_matrix *W = scope_matrix(sc, X->size1, X->size1);
    chapter_must(attn_forward(Q, K, V, 1.0 / sqrt((double)dk), ATTN_CAUSAL, W, O),
                 "one head's attention");
    scope_close(sc);
}

/* X: (T, d) and H heads of size r = d / H, every head computed on its own */
static void example_build(scope *sc, const sizes *s, gsl_rng *rng, example *e)
{
    *e = (example){.T = s->seq, .d = s->dim, .H = s->heads, .r = s->dim / s->heads};
    e->X = scope_keep_matrix(sc, mat_gaussian(e->T, e->d, 1.0, rng));
    e->w = SCOPE_KEEP(sc, mha_new(e->d, e->H, e->r, e->r, rng), mha_free);
    e->tr = SCOPE_KEEP(sc, mha_trace_new(e->T, e->w), mha_trace_free);
    e->out = scope_matrix(sc, e->T, e->d);
    for (size_t j = 0; j < e->H; j++) {
        e->O[j] = scope_matrix(sc, e->T, e->r);
        head_output(e->w, e->X, j, e->O[j]);
    }
}

/* sum_j O_j (W_o^(j + shift mod H))^T: each head written through a block of W_o
 * (shift 0: its own) -> sum: (T, d) */
static void per_head_sum(const example *e, size_t shift, gsl_matrix *sum)
{
    gsl_matrix_set_zero(sum);
    for (size_t j = 0; j < e->H; j++) {
        gsl_matrix_const_view block = heads_const_columns(e->w->Wo, e->H, (j + shift) % e->H);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, e->O[j], &block.matrix, 1.0, sum);
    }
}

/* e's weights with head j's block of W_v taken from head j + 1 (mod H) -> out: (T, d),
 * the library's multi-head attention with that off-by-one view */
static void shifted_values_forward(const example *e, gsl_matrix *out)
{
    scope *sc = scope_open();
    mha_weights w = *e->w;
    w.Wv = scope_matrix(sc, e->w->Wv->size1, e->w->Wv->size2);
    for (size_t j = 0; j < e->H; j++) {
        gsl_matrix_view to = heads_rows(w.Wv, e->H, j);
        gsl_matrix_const_view from = heads_const_rows(e->w->Wv, e->H, (j + 1) % e->H);
        gsl_matrix_memcpy(&to.matrix, &from.matrix);
    }
    mha_trace *tr = SCOPE_KEEP(sc, mha_trace_new(e->T, &w), mha_trace_free);
    chapter_must(mha_forward(&w, e->X, ATTN_CAUSAL, tr, out), "multi-head attention");
    scope_close(sc);
}

/* H1, first half: concatenate, multiply by W_o; compare with the sum over heads. */
static int concat_versus_sum(const invent_opts *o, example *e)
{
    scope *sc = scope_open();
    gsl_matrix *C = scope_matrix(sc, e->T, e->H * e->r), *sum = scope_matrix(sc, e->T, e->d);
    gsl_matrix *lib = scope_matrix(sc, e->T, e->d), *wrong = scope_matrix(sc, e->T, e->d);
    chapter_must(heads_concat((const gsl_matrix *const *)e->O, e->H, C), "concatenating heads");
    chapter_must(mat_mul(C, CblasNoTrans, e->w->Wo, CblasTrans, e->out), "multiplying by W_o");
    per_head_sum(e, 0, sum);
    per_head_sum(e, 1, wrong);
    chapter_must(mha_forward(e->w, e->X, ATTN_CAUSAL, e->tr, lib), "multi-head attention");
    report_line(o, "  largest |concat(O_1..O_H) W_o^T - sum_j O_j W_o^(j)T| = %.3g",
                mat_max_abs_diff(e->out, sum));
    check_matrix_close("H1", "concatenating the heads and multiplying by W_o equals the sum "
                       "over heads of W_o^(j) applied to each head's output",
                       e->out, sum, 1e-12);
    check_control("H1", "each head through the next head's block W_o^(j+1)");
    check_matrix_close("H1", NULL, e->out, wrong, 1e-12);
    check_matrix_close("H1", "the library's multi-head attention (heads as views of one "
                       "matrix) gives the same output", lib, e->out, 1e-12);
    shifted_values_forward(e, wrong);
    check_control("H1", "the library's multi-head attention with W_v's row blocks one head off "
                        "(head j reads head j+1's values), the slip of a view's offset");
    check_matrix_close("H1", NULL, wrong, e->out, 1e-12);
    const char *names[] = {"X", "Wq", "Wk", "Wv", "Wo", "heads_concat", "out"};
    const gsl_matrix *dumped[] = {e->X, e->w->Wq, e->w->Wk, e->w->Wv, e->w->Wo, C, e->out};
    int failed = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !failed; i++)
        failed = dump_matrix(o, names[i], dumped[i]); /* it reports its own failure */
    scope_close(sc);
    return failed;
}

/* H1, second half: W_o = [I I ... I] turns the concatenation into the plain sum. */
static void identity_blocks(const invent_opts *o, const example *e, gsl_rng *rng)
{
    scope *sc = scope_open();
    mha_weights *w = SCOPE_KEEP(sc, mha_new(e->d, e->H, e->r, e->d, rng), mha_free);
    mha_trace *tr = SCOPE_KEEP(sc, mha_trace_new(e->T, w), mha_trace_free);
    gsl_matrix *random_Wo = scope_keep_matrix(sc, mat_clone(w->Wo));
    gsl_matrix *out = scope_matrix(sc, e->T, e->d), *sum = scope_matrix(sc, e->T, e->d);
    gsl_matrix *Oj = scope_matrix(sc, e->T, e->d), *mixed = scope_matrix(sc, e->T, e->d);
    for (size_t j = 0; j < e->H; j++) {
        gsl_matrix_view block = heads_columns(w->Wo, e->H, j);
        gsl_matrix_set_identity(&block.matrix);
        head_output(w, e->X, j, Oj);
        gsl_matrix_add(sum, Oj);
    }
    chapter_must(mha_forward(w, e->X, ATTN_CAUSAL, tr, out), "multi-head attention");
    report_text(o, "Now give every head values of full width d and set each block W_o^(j) "
                   "to the identity: W_o = [I I ... I] just adds the heads up.");
    check_matrix_close("H1", "with identity blocks, W_o = [I I ... I], the heads are simply "
                       "added up", out, sum, 1e-12);
    gsl_matrix_memcpy(w->Wo, random_Wo);
    chapter_must(mha_forward(w, e->X, ATTN_CAUSAL, tr, mixed), "multi-head attention");
    check_control("H1", "W_o with random blocks instead of identities");
    check_matrix_close("H1", NULL, mixed, sum, 1e-12);
    scope_close(sc);
}

static int heads_section(const invent_opts *o, example *e, gsl_rng *rng)
{
    report_section(o, "Concatenation and W_o are a sum over heads");
    report_text(o, "Take T = %zu tokens of width d = %zu and H = %zu causal heads, each with "
                   "queries, keys and values of size r = d/H = %zu. Head j turns the tokens into "
                   "a (T, r) output O_j. Placing the outputs side by side gives a (T, H*r) "
                   "matrix, and W_o, of shape (d, H*r), maps it back to width d. Cut W_o into H "
                   "blocks of r columns: block j only ever meets the columns of head j, so the "
                   "product is the sum over heads of O_j times the transpose of W_o^(j). In "
                   "the language of chapter 3, W_o^(j) V_j is the j-th learned value matrix.",
                e->T, e->d, e->H, e->r);
    int failed = concat_versus_sum(o, e);
    identity_blocks(o, e, rng);
    return failed;
}

/* F_j = W_o^(jw) V_jv: (d, d), head j's output-value circuit when jw = jv = j
 * -> a new matrix owned by sc */
static gsl_matrix *folded_value(scope *sc, const mha_weights *w, size_t jw, size_t jv)
{
    gsl_matrix_const_view Wo = heads_const_columns(w->Wo, w->heads, jw);
    gsl_matrix_const_view Vj = heads_const_rows(w->Wv, w->heads, jv);
    return scope_keep_matrix(sc, mat_product(&Wo.matrix, CblasNoTrans, &Vj.matrix,
                                             CblasNoTrans));
}

/* A_j: (T, T) head j's attention weights, rows j*T .. of the trace's A */
static _gsl_matrix_const_view head_weights(const example *e, size_t j)
{
    return gsl_matrix_const_submatrix(e->tr->A, j * e->T, 0, e->T, e->T);
}

/* Folded values: head j caches X F^T (width d), F = W_o^(j + shift) V_j (shift 0:
 * its own block) -> out: (T, d) = sum_j A_j (X F^T) */
static void folded_output(const example *e, size_t shift, gsl_matrix *out)
{
    scope *sc = scope_open();
    gsl_matrix *cache = scope_matrix(sc, e->T, e->d);
    gsl_matrix_set_zero(out);
    for (size_t j = 0; j < e->H; j++) {
        gsl_matrix *F = folded_value(sc, e->w, (j + shift) % e->H, j);
        gsl_matrix_const_view Aj = head_weights(e, j);
        chapter_must(mat_mul(e->X, CblasNoTrans, F, CblasTrans, cache), "folded values");
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &Aj.matrix, cache, 1.0, out);
    }
    scope_close(sc);
}

/* One cache for every head, `shared` (T, width): the raw tokens (raw != 0, width d)
 * or one head's values (width r). Head j weights it by A_j, then maps the sum to
 * width d through W_o^(j) V_j (raw tokens) or W_o^(j) alone -> out: (T, d) */
static void shared_cache_output(const example *e, const gsl_matrix *shared, int raw,
                                gsl_matrix *out)
{
    scope *sc = scope_open();
    gsl_matrix *read = scope_matrix(sc, e->T, shared->size2), *value = scope_matrix(sc, e->T, e->r);
    gsl_matrix_set_zero(out);
    for (size_t j = 0; j < e->H; j++) {
        gsl_matrix_const_view Aj = head_weights(e, j), Vj = heads_const_rows(e->w->Wv, e->H, j);
        gsl_matrix_const_view Wo = heads_const_columns(e->w->Wo, e->H, j);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &Aj.matrix, shared, 0.0, read);
        if (raw) /* the head's own V_j comes after the weighted sum */
            gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, read, &Vj.matrix, 0.0, value);
        else
            gsl_matrix_memcpy(value, read);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, value, &Wo.matrix, 1.0, out);
    }
    scope_close(sc);
}

/* ledger with `funcs` caches per token and layer, each `width` wide -> bytes (the
 * setting is small enough never to overflow) */
static uint64_t ledger_bytes(uint64_t funcs, uint64_t width)
{
    kvcache_shape shape = LEDGER;
    shape.funcs = funcs;
    shape.width = width;
    uint64_t bytes = 0;
    chapter_must(kvcache_bytes(&shape, &bytes), "counting cache bytes");
    return bytes;
}

static void plot_value_cache(const invent_opts *o)
{
    uint64_t H = LEDGER.funcs, d = LEDGER.width;
    plot *p = plot_begin(o, "ch08_value_cache");
    plot_set(p, "dim", (double)d);
    plot_set(p, "rank", (double)LEDGER_RANK);
    plot_set(p, "heads", (double)H);
    plot_set(p, "folded_gb", (double)ledger_bytes(H, d) / 1e9);
    plot_set(p, "kept_gb", (double)ledger_bytes(H, LEDGER_RANK) / 1e9);
    plot_set(p, "raw_gb", (double)ledger_bytes(1, d) / 1e9);
    plot_block(p, "r  GB_values_of_size_r  GB_folded_values_of_size_d  GB_raw_tokens_shared");
    for (uint64_t r = 10; r <= d; r += 10)
        PLOT_ROW(p, (double)r, (double)ledger_bytes(H, r) / 1e9,
                 (double)ledger_bytes(H, d) / 1e9, (double)ledger_bytes(1, d) / 1e9);
    plot_render(p, "ch08_value_cache.gp");
}

/* The three caches in the ledger setting: numbers per token and layer, bytes, and
 * the multiply-adds per (query, key, head) pair of the weighted sum. */
static void ledger_table(const invent_opts *o)
{
    uint64_t H = LEDGER.funcs, d = LEDGER.width, r = LEDGER_RANK;
    report_line(o, "  %-40s %14s %5s %11s", "cache (ledger setting, r = 200)", "numbers/token",
                "GB", "madds/pair");
    report_line(o, "  %-40s %14llu %5.3g %11llu", "folded values W_o^(j) V_j x_i, per head",
                (unsigned long long)(H * d), (double)ledger_bytes(H, d) / 1e9,
                (unsigned long long)d);
    report_line(o, "  %-40s %14llu %5.3g %11llu", "values V_j x_i per head, W_o apart",
                (unsigned long long)(H * r), (double)ledger_bytes(H, r) / 1e9,
                (unsigned long long)r);
    report_line(o, "  %-40s %14llu %5.3g %11llu", "raw tokens x_i, one for all heads",
                (unsigned long long)d, (double)ledger_bytes(1, d) / 1e9, (unsigned long long)d);
}

/* H2: folded values, values kept apart from W_o, and raw tokens shared by every head. */
static void caching_section(const invent_opts *o, const example *e)
{
    report_section(o, "Fold W_o into the values, keep it apart, or cache the tokens?");
    report_text(o, "Since W_o^(j) and V_j are multiplied anyway, one could fold them into a "
                   "single value matrix per head, W_o^(j) V_j of shape (d, d). The output is "
                   "the same; a model that caches each head's values then keeps d = %zu "
                   "numbers per token and head instead of r = %zu.", e->d, e->r);
    scope *sc = scope_open();
    gsl_matrix *folded = scope_matrix(sc, e->T, e->d), *mixed = scope_matrix(sc, e->T, e->d);
    gsl_matrix *raw = scope_matrix(sc, e->T, e->d), *wrong = scope_matrix(sc, e->T, e->d);
    gsl_matrix_const_view V1 = gsl_matrix_const_submatrix(e->tr->V, 0, 0, e->T, e->r);
    folded_output(e, 0, folded);
    folded_output(e, 1, mixed);
    shared_cache_output(e, e->X, 1, raw);
    shared_cache_output(e, &V1.matrix, 0, wrong);
    check_matrix_close("H2", "values folded with W_o (width d per head) give the same output "
                       "as concatenation followed by W_o", folded, e->out, 1e-12);
    check_control("H2", "W_o^(j+1) folded into V_j: blocks of different heads");
    check_matrix_close("H2", NULL, mixed, e->out, 1e-12);
    report_text(o, "But values need not be cached per head at all. Head j's output at token "
                   "L is W_o^(j) V_j (sum_i a_ij x_i): a cache of the raw tokens x_i, one per "
                   "layer and shared by every head (claim C1 of chapters 5 and 6, where the "
                   "same cache serves the keys), is enough. What cannot be shared is one "
                   "head's values: the other heads need their own V_j.");
    check_matrix_close("H2", "one cache of the raw tokens, shared by every head, gives the "
                       "same output: W_o^(j) V_j applied after the weighted sum", raw, e->out,
                       1e-12);
    check_control("H2", "the shared cache holds head 1's values V_1 x_i instead of x_i");
    check_matrix_close("H2", NULL, wrong, e->out, 1e-12);
    scope_close(sc);
    report_text(o, "In the setting of chapter 5 (5,000 tokens, 50 layers, 20 heads, d = "
                   "1,000, 2 bytes a number) with r = %llu, counted in 64 bits:",
                (unsigned long long)LEDGER_RANK);
    ledger_table(o);
    report_text(o, "So the source's argument, that keeping W_o apart is what keeps the cache "
                   "small, holds only against folding: the raw tokens take %.3g GB, %.3g "
                   "times less than values of size r, because 20 heads of 200 are 4,000 "
                   "numbers against a width of 1,000 (with r = d/H, as in the example above, "
                   "the two are the same size). What keeping W_o apart buys is work: the "
                   "weighted sum over the past costs r multiply-adds per (query, key, head) "
                   "pair instead of d, and the d x r matrices are applied once per query. "
                   "Folding is dominated: as much work per pair as the raw tokens, H times "
                   "their memory. Caching a small latent per token and absorbing the "
                   "projections into the queries and outputs is what multi-head latent "
                   "attention does (DeepSeek-AI, 2024).",
                (double)ledger_bytes(1, LEDGER.width) / 1e9,
                (double)ledger_bytes(LEDGER.funcs, LEDGER_RANK) /
                    (double)ledger_bytes(1, LEDGER.width));
    plot_value_cache(o);
}

/* M: (d, d) -> s: its singular values; *rank (relative cut 1e-10), *tail = sigma_{r+1} / sigma_1 */
static void spectrum(const gsl_matrix *M, size_t r, gsl_vector *s, size_t *rank, double *tail)
{
    chapter_must(linalg_singular_values(M, s), "singular values");
    *rank = linalg_rank(s, 1e-10);
    *tail = gsl_vector_get(s, r) / gsl_vector_get(s, 0);
}

static void plot_spectrum(const invent_opts *o, const gsl_vector *s0, const gsl_vector *free_s,
                          size_t r)
{
    plot *p = plot_begin(o, "ch08_ov_spectrum");
    plot_set(p, "rank", (double)r);
    plot_set(p, "dim", (double)s0->size);
    plot_block(p, "k  sigma_k(W_o^(1) V_1)/sigma_1  sigma_k(random d x d)/sigma_1");
    for (size_t k = 0; k < s0->size; k++)
        PLOT_ROW(p, (double)(k + 1),
                 fmax(gsl_vector_get(s0, k) / gsl_vector_get(s0, 0), 1e-17),
                 gsl_vector_get(free_s, k) / gsl_vector_get(free_s, 0));
    plot_render(p, "ch08_ov_spectrum.gp");
}

/* H3: every head's W_o^(j) V_j is a d x d matrix of rank <= r. */
static void circuit_section(const invent_opts *o, const example *e, gsl_rng *rng)
{
    report_section(o, "Each head is one low-rank d x d matrix");
    report_text(o, "Whatever head j attends to, it adds W_o^(j) V_j x_i, weighted, to the "
                   "output: the head acts on the tokens through one d x d matrix, its "
                   "output-value circuit. That matrix passes through r = %zu dimensions, so "
                   "its rank is at most r. The singular values (GSL's SVD) show it: r of "
                   "them are of order one, the other d - r are zero up to rounding. A free d x d "
                   "matrix, the control, has all d.", e->r);
    scope *sc = scope_open();
    gsl_vector *s0 = scope_vector(sc, e->d), *s = scope_vector(sc, e->d);
    gsl_vector *free_s = scope_vector(sc, e->d);
    size_t worst = 0, rank, free_rank;
    double tail = 0.0, t, free_tail;
    for (size_t j = 0; j < e->H; j++) {
        spectrum(folded_value(sc, e->w, j, j), e->r, j == 0 ? s0 : s, &rank, &t);
        worst = rank > worst ? rank : worst;
        tail = fmax(tail, t);
    }
    spectrum(scope_keep_matrix(sc, mat_gaussian(e->d, e->d, 1.0, rng)), e->r, free_s,
             &free_rank, &free_tail);
    char detail[160];
    snprintf(detail, sizeof detail, "largest numerical rank over %zu heads: %zu, r = %zu, "
             "d = %zu", e->H, worst, e->r, e->d);
    check_true("H3", "every head's W_o^(j) V_j is a d x d matrix of rank at most r",
               worst <= e->r, detail);
    snprintf(detail, sizeof detail, "numerical rank %zu, r = %zu", free_rank, e->r);
    check_control("H3", "a free random d x d matrix");
    check_true("H3", NULL, free_rank <= e->r, detail);
    check_at_most("H3", "singular values beyond the r-th vanish (sigma_{r+1} / sigma_1, "
                  "worst head)", tail, 1e-12);
    check_control("H3", "a free random d x d matrix");
    check_at_most("H3", NULL, free_tail, 1e-12);
    plot_spectrum(o, s0, free_s, e->r);
    scope_close(sc);
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 64, .heads = 8, .seq = 10};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 2, 256, "model width d"},
        {"heads", CLI_SIZE, &s.heads, 2, MAX_HEADS,
         "number of heads H (from 2: with one, r = d and the rank bound says nothing; must "
         "divide d; r = d/H; --heads * --dim^3 at most 2^28)"},
        {"seq", CLI_SIZE, &s.seq, 1, 512, "tokens T in the worked example"},
    };
    const cli_spec spec = {"ch08", "Chapter 8: many heads, and the output matrix W_o.", options,
                           (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.dim % s.heads != 0)
        return cli_fail(&o, "--heads (%zu) must divide --dim (%zu)", s.heads, s.dim);
    if ((double)s.heads * pow((double)s.dim, 3) > (double)(1u << 28))
        return cli_fail(&o, "--heads * --dim^3 must be at most 2^28 (one SVD of a d x d matrix "
                            "per head; keeps the run to a few seconds), got %.0f",
                        (double)s.heads * pow((double)s.dim, 3));
    rc = chapter_start(&o, "Chapter 8: many heads and the mixing matrix W_o");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(o.seed));
    example e;
    example_build(sc, &s, rng, &e);
    int dump_failed = heads_section(&o, &e, rng);
    caching_section(&o, &e);
    circuit_section(&o, &e, rng);
    scope_close(sc);
    return chapter_close(&o, dump_failed ? CHAPTER_EXIT_RUNTIME : 0,
                         "Attention now reads from the past through H low-rank circuits and "
                         "writes the result back at width d. What it does not do is transform a "
                         "token on its own, whatever the context. That is the job of the next "
                         "piece, the MLP.");
}
