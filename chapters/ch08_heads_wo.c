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
 * (claim H1). Folding W_o^(j) into V_j would make each head's values as
 * long as the model's width d; keeping them apart keeps the value cache
 * small (H2). And each product W_o^(j) V_j is one d x d matrix of rank at
 * most r, the head's output-value circuit (Elhage et al., 2021) (H3).
 */
#include <math.h>

#include "invent.h"

typedef struct {
    size_t dim, heads, seq; /* d, H and T of the worked example; r = d / H */
} sizes;

/* The cache setting of claim B3 (chapter 5), with heads for score functions:
 * 5,000 tokens, 50 layers, 20 heads, width 1,000, 2 bytes per number; r = 200. */
static const kvcache_shape LEDGER = {5000, 50, 20, 1000, 2};
static const uint64_t LEDGER_RANK = 200;

/* The worked example: tokens, weights, and what every head computed. */
typedef struct {
    gsl_matrix *X;    /* (T, d) */
    mha_weights *w;   /* H heads of size r */
    mha_trace *tr;    /* Q, K, V, weights A_j, concatenated head outputs C */
    gsl_matrix **O;   /* H matrices (T, r): each head on its own */
    gsl_matrix *out;  /* (T, d): C W_o^T, the concatenation followed by W_o */
} example;

/* head j alone, from attention.h: O_j = attn(X W_q^(j)T, X W_k^(j)T, X W_v^(j)T) */
static int head_output(const mha_weights *w, const gsl_matrix *X, size_t j, gsl_matrix *O)
{
    size_t H = w->heads, dk = w->Wq->size1 / H;
    gsl_matrix_const_view Wq = heads_const_rows(w->Wq, H, j), Wk = heads_const_rows(w->Wk, H, j);
    gsl_matrix_const_view Wv = heads_const_rows(w->Wv, H, j);
    gsl_matrix *Q = mat_product(X, CblasNoTrans, &Wq.matrix, CblasTrans);
    gsl_matrix *K = mat_product(X, CblasNoTrans, &Wk.matrix, CblasTrans);
    gsl_matrix *V = mat_product(X, CblasNoTrans, &Wv.matrix, CblasTrans);
    int status = Q && K && V ? attn_matrix_form(Q, K, V, 1.0 / sqrt((double)dk), ATTN_CAUSAL, O)
                             : INVENT_ENOMEM;
    gsl_matrix_free(Q);
    gsl_matrix_free(K);
    gsl_matrix_free(V);
    return status;
}

static void example_free(example *e)
{
    for (size_t j = 0; e->O && j < e->w->heads; j++)
        gsl_matrix_free(e->O[j]);
    free(e->O);
    mha_trace_free(e->tr);
    mha_free(e->w);
    gsl_matrix_free(e->X);
    gsl_matrix_free(e->out);
}

static int example_new(const sizes *s, gsl_rng *rng, example *e)
{
    size_t r = s->dim / s->heads;
    *e = (example){0};
    e->X = mat_gaussian(s->seq, s->dim, 1.0, rng);
    e->w = mha_new(s->dim, s->heads, r, r, rng);
    e->out = gsl_matrix_alloc(s->seq, s->dim);
    e->O = e->w ? calloc(s->heads, sizeof *e->O) : NULL;
    e->tr = e->w ? mha_trace_new(s->seq, e->w) : NULL;
    if (!e->X || !e->out || !e->O || !e->tr)
        return INVENT_ENOMEM;
    int status = INVENT_OK;
    for (size_t j = 0; j < s->heads && status == INVENT_OK; j++) {
        e->O[j] = gsl_matrix_alloc(s->seq, r);
        status = e->O[j] ? head_output(e->w, e->X, j, e->O[j]) : INVENT_ENOMEM;
    }
    return status;
}

/* sum_j O_j (W_o^(j))^T: each head written through its own block of W_o */
static int per_head_sum(const example *e, gsl_matrix *sum)
{
    gsl_matrix_set_zero(sum);
    for (size_t j = 0; j < e->w->heads; j++) {
        gsl_matrix_const_view block = heads_const_columns(e->w->Wo, e->w->heads, j);
        if (gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, e->O[j], &block.matrix, 1.0, sum))
            return INVENT_ESHAPE;
    }
    return INVENT_OK;
}

/* H1, first half: concatenate, multiply by W_o; compare with the sum over heads. */
static int concat_versus_sum(const invent_opts *o, example *e)
{
    size_t H = e->w->heads;
    gsl_matrix *C = gsl_matrix_alloc(e->X->size1, e->w->Wv->size1);
    gsl_matrix *sum = gsl_matrix_alloc(e->X->size1, e->X->size2);
    gsl_matrix *lib = gsl_matrix_alloc(e->X->size1, e->X->size2);
    int status = C && sum && lib ? heads_concat((const gsl_matrix *const *)e->O, H, C)
                                 : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = mat_mul(C, CblasNoTrans, e->w->Wo, CblasTrans, e->out);
    if (status == INVENT_OK)
        status = per_head_sum(e, sum);
    if (status == INVENT_OK)
        status = mha_forward(e->w, e->X, ATTN_CAUSAL, e->tr, lib);
    if (status == INVENT_OK) {
        report_line(o, "  largest |concat(O_1..O_H) W_o^T - sum_j O_j W_o^(j)T| = %.3g",
                    mat_max_abs_diff(e->out, sum));
        check_matrix_close("H1", "concatenating the heads and multiplying by W_o equals the sum "
                           "over heads of W_o^(j) applied to each head's output",
                           e->out, sum, 1e-12);
        check_matrix_close("H1", "the library's multi-head attention (heads as views of one "
                           "matrix) gives the same output", lib, e->out, 1e-12);
        const char *names[] = {"X", "Wq", "Wk", "Wv", "Wo", "heads_concat", "out"};
        const gsl_matrix *dumped[] = {e->X, e->w->Wq, e->w->Wk, e->w->Wv, e->w->Wo, C, e->out};
        for (size_t i = 0; i < sizeof names / sizeof names[0] && status == INVENT_OK; i++)
            status = dump_matrix(o, names[i], dumped[i]);
    }
    gsl_matrix_free(C);
    gsl_matrix_free(sum);
    gsl_matrix_free(lib);
    return status;
}

/* H1, second half: W_o = [I I ... I] turns the concatenation into the plain sum. */
static int identity_blocks(const invent_opts *o, const example *e, gsl_rng *rng)
{
    size_t T = e->X->size1, d = e->X->size2, H = e->w->heads, r = d / H;
    mha_weights *w = mha_new(d, H, r, d, rng); /* values of full width d */
    gsl_matrix *out = gsl_matrix_alloc(T, d), *sum = gsl_matrix_calloc(T, d);
    gsl_matrix *Oj = gsl_matrix_alloc(T, d);
    int status = w && out && sum && Oj ? INVENT_OK : INVENT_ENOMEM;
    for (size_t j = 0; j < H && status == INVENT_OK; j++) {
        gsl_matrix_view block = heads_columns(w->Wo, H, j);
        gsl_matrix_set_identity(&block.matrix);
        status = head_output(w, e->X, j, Oj);
        gsl_matrix_add(sum, Oj);
    }
    if (status == INVENT_OK)
        status = mha_forward(w, e->X, ATTN_CAUSAL, NULL, out);
    if (status == INVENT_OK) {
        report_text(o, "Now give every head values of full width d and set each block W_o^(j) "
                       "to the identity: W_o = [I I ... I] just adds the heads up.");
        check_matrix_close("H1", "with identity blocks, W_o = [I I ... I], the heads are simply "
                           "added up", out, sum, 1e-12);
    }
    mha_free(w);
    gsl_matrix_free(out);
    gsl_matrix_free(sum);
    gsl_matrix_free(Oj);
    return status;
}

static int heads_section(const invent_opts *o, example *e, gsl_rng *rng)
{
    size_t H = e->w->heads, d = e->X->size2;
    report_section(o, "Concatenation and W_o are a sum over heads");
    report_text(o, "Take T = %zu tokens of width d = %zu and H = %zu causal heads, each with "
                   "queries, keys and values of size r = d/H = %zu. Head j turns the tokens into "
                   "a (T, r) output O_j. Placing the outputs side by side gives a (T, H*r) "
                   "matrix, and W_o, of shape (d, H*r), maps it back to width d. Cut W_o into H "
                   "blocks of r columns: block j only ever meets the columns of head j, so the "
                   "product is the sum over heads of O_j times the transpose of W_o^(j). In "
                   "the language of chapter 3, W_o^(j) V_j is the j-th learned value matrix.",
                e->X->size1, d, H, d / H);
    int status = concat_versus_sum(o, e);
    if (status == INVENT_OK)
        status = identity_blocks(o, e, rng);
    return status;
}

/* F_j = W_o^(j) V_j: (d, d), head j's output-value circuit -> a new matrix */
static gsl_matrix *folded_value(const mha_weights *w, size_t j)
{
    gsl_matrix_const_view Wo = heads_const_columns(w->Wo, w->heads, j);
    gsl_matrix_const_view Vj = heads_const_rows(w->Wv, w->heads, j);
    return mat_product(&Wo.matrix, CblasNoTrans, &Vj.matrix, CblasNoTrans);
}

/* out = sum_j A_j (X F_j^T): every head's values already of width d */
static int folded_output(const example *e, gsl_matrix *out)
{
    size_t T = e->X->size1, H = e->w->heads;
    gsl_matrix_set_zero(out);
    int status = INVENT_OK;
    for (size_t j = 0; j < H && status == INVENT_OK; j++) {
        gsl_matrix *F = folded_value(e->w, j);
        gsl_matrix *values = F ? mat_product(e->X, CblasNoTrans, F, CblasTrans) : NULL;
        gsl_matrix_const_view Aj = gsl_matrix_const_submatrix(e->tr->A, j * T, 0, T, T);
        status = values ? INVENT_OK : INVENT_ENOMEM;
        if (status == INVENT_OK)
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &Aj.matrix, values, 1.0, out);
        gsl_matrix_free(F);
        gsl_matrix_free(values);
    }
    return status;
}

/* ledger with width w -> bytes; the setting is small enough never to overflow */
static uint64_t ledger_bytes(uint64_t width)
{
    kvcache_shape shape = LEDGER;
    shape.width = width;
    uint64_t bytes = 0;
    kvcache_bytes(&shape, &bytes);
    return bytes;
}

static void plot_value_cache(const invent_opts *o)
{
    plot *p = plot_begin(o, "ch08_value_cache");
    plot_set(p, "dim", (double)LEDGER.width);
    plot_set(p, "rank", (double)LEDGER_RANK);
    plot_set(p, "folded_gb", (double)ledger_bytes(LEDGER.width) / 1e9);
    plot_set(p, "kept_gb", (double)ledger_bytes(LEDGER_RANK) / 1e9);
    plot_block(p, "r  cache_GB_values_of_size_r  cache_GB_folded_values_of_size_d");
    for (uint64_t r = 10; r <= 2 * LEDGER.width; r += 10)
        PLOT_ROW(p, (double)r, (double)ledger_bytes(r) / 1e9,
                 (double)ledger_bytes(LEDGER.width) / 1e9);
    plot_render(p, "ch08_value_cache.gp");
}

/* H2: folding gives the same output; the arithmetic of the value cache. */
static int folding_section(const invent_opts *o, const example *e)
{
    size_t d = e->X->size2, H = e->w->heads, r = d / H;
    report_section(o, "Fold W_o into the values, or keep it apart?");
    report_text(o, "Since W_o^(j) and V_j are multiplied anyway, one could fold them into a "
                   "single value matrix per head, W_o^(j) V_j of shape (d, d). The output is "
                   "the same, but now every past token must keep a value of size d per head "
                   "instead of size r: here %zu numbers per token and head instead of %zu.",
                d, r);
    gsl_matrix *folded = gsl_matrix_alloc(e->X->size1, d);
    int status = folded ? folded_output(e, folded) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        check_matrix_close("H2", "values folded with W_o (width d per head) give the same "
                           "output as concatenation followed by W_o", folded, e->out, 1e-12);
    gsl_matrix_free(folded);
    uint64_t full = ledger_bytes(LEDGER.width), kept = ledger_bytes(LEDGER_RANK);
    report_text(o, "In the setting of chapter 5 (5,000 tokens, 50 layers, 20 heads, d = 1,000, "
                   "2 bytes a number) with r = %llu, the value cache takes %.3g GB with the "
                   "values folded and %.3g GB with W_o kept apart: %.3g times less, d/r.",
                (unsigned long long)LEDGER_RANK, (double)full / 1e9, (double)kept / 1e9,
                (double)full / (double)kept);
    check_equal("H2", "folded values of size d = 1,000: 10^10 bytes (10 GB)", full,
                10000000000ULL);
    check_equal("H2", "values of size r = 200 with W_o kept apart: 2 * 10^9 bytes (2 GB)", kept,
                2000000000ULL);
    check_true("H2", "the cache shrinks by exactly d/r (folded * r == kept * d)",
               full * LEDGER_RANK == kept * LEDGER.width,
               full * LEDGER_RANK == kept * LEDGER.width ? "5 = 1,000 / 200"
                                                         : "the ratio is not d/r");
    plot_value_cache(o);
    return status;
}

/* singular values of every head's F_j -> largest rank found; head 0's into s0 */
static int circuit_ranks(const example *e, gsl_vector *s0, size_t *worst_rank, double *tail)
{
    size_t d = e->X->size2, r = d / e->w->heads;
    gsl_vector *s = gsl_vector_alloc(d);
    int status = s ? INVENT_OK : INVENT_ENOMEM;
    *worst_rank = 0;
    *tail = 0.0;
    for (size_t j = 0; j < e->w->heads && status == INVENT_OK; j++) {
        gsl_matrix *F = folded_value(e->w, j);
        status = F ? linalg_singular_values(F, s) : INVENT_ENOMEM;
        gsl_matrix_free(F);
        if (status != INVENT_OK)
            break;
        size_t rank = linalg_rank(s, 1e-10);
        *worst_rank = rank > *worst_rank ? rank : *worst_rank;
        if (r < d)
            *tail = fmax(*tail, gsl_vector_get(s, r) / gsl_vector_get(s, 0));
        if (j == 0)
            gsl_vector_memcpy(s0, s);
    }
    gsl_vector_free(s);
    return status;
}

static void plot_spectrum(const invent_opts *o, const gsl_vector *s0, const gsl_vector *full,
                          size_t r)
{
    plot *p = plot_begin(o, "ch08_ov_spectrum");
    plot_set(p, "rank", (double)r);
    plot_set(p, "dim", (double)s0->size);
    plot_block(p, "k  sigma_k(W_o^(1) V_1)/sigma_1  sigma_k(random d x d)/sigma_1");
    for (size_t k = 0; k < s0->size; k++)
        PLOT_ROW(p, (double)(k + 1),
                 fmax(gsl_vector_get(s0, k) / gsl_vector_get(s0, 0), 1e-17),
                 gsl_vector_get(full, k) / gsl_vector_get(full, 0));
    plot_render(p, "ch08_ov_spectrum.gp");
}

/* H3: every head's W_o^(j) V_j is a d x d matrix of rank <= r. */
static int circuit_section(const invent_opts *o, const example *e, gsl_rng *rng)
{
    size_t d = e->X->size2, r = d / e->w->heads;
    report_section(o, "Each head is one low-rank d x d matrix");
    report_text(o, "Whatever head j attends to, it adds W_o^(j) V_j x_i, weighted, to the "
                   "output: the head acts on the tokens through one d x d matrix, its "
                   "output-value circuit. That matrix passes through r = %zu dimensions, so "
                   "its rank is at most r. The singular values (GSL's SVD) show it: r of "
                   "them are of order one, the other d - r are zero up to rounding. A free d x d "
                   "matrix, for comparison, has all d.", r);
    gsl_vector *s0 = gsl_vector_alloc(d), *full = gsl_vector_alloc(d);
    gsl_matrix *R = mat_gaussian(d, d, 1.0, rng);
    size_t worst = 0;
    double tail = 0.0;
    int status = s0 && full && R ? circuit_ranks(e, s0, &worst, &tail) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = linalg_singular_values(R, full);
    if (status == INVENT_OK) {
        char detail[160];
        snprintf(detail, sizeof detail, "largest numerical rank over %zu heads: %zu, r = %zu, "
                 "d = %zu", e->w->heads, worst, r, d);
        check_true("H3", "every head's W_o^(j) V_j is a d x d matrix of rank at most r",
                   worst <= r, detail);
        check_at_most("H3", "singular values beyond the r-th vanish (sigma_{r+1} / sigma_1, "
                      "worst head)", tail, 1e-12);
        check_equal("H3", "a free d x d matrix has full rank d", linalg_rank(full, 1e-10), d);
        plot_spectrum(o, s0, full, r);
    }
    gsl_vector_free(s0);
    gsl_vector_free(full);
    gsl_matrix_free(R);
    return status;
}

static int run(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    example e;
    int status = example_new(s, rng, &e);
    if (status == INVENT_OK)
        status = heads_section(o, &e, rng);
    if (status == INVENT_OK)
        status = folding_section(o, &e);
    if (status == INVENT_OK)
        status = circuit_section(o, &e, rng);
    example_free(&e);
    if (status == INVENT_EIO) /* only dump_matrix fails so, and it has said where */
        return CHAPTER_EXIT_RUNTIME;
    return status == INVENT_OK ? 0 : chapter_fail(o, "computing the heads", status);
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 64, .heads = 8, .seq = 10};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 2, 256, "model width d"},
        {"heads", CLI_SIZE, &s.heads, 1, 64,
         "number of heads H (must divide d; r = d/H; --heads * --dim^3 at most 2^28)"},
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
    gsl_rng *rng = rng_new(o.seed);
    if (!rng)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    rc = run(&o, &s, rng);
    gsl_rng_free(rng);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "Attention now reads from the past through H low-rank circuits and writes "
                    "the result back at width d. What it does not do is transform a token on "
                    "its own, whatever the context. That is the job of the next piece, the MLP.");
    return chapter_end();
}
