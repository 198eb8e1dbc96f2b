/* Chapter 10: the Transformer, assembled.
 *
 * Every piece is now in place. Attention over all past tokens replaced the
 * fixed state (chapter 1); its weights depend on the current token and the
 * past one together (chapters 2 and 4), through a bilinear score factored
 * into queries and keys (chapters 5 and 6) and normalised over positions
 * with a causal mask (chapter 7); several heads write back through W_o
 * (chapter 8); the MLP looks things up in its weights, with skips and a
 * normalisation between the two (chapter 9). Put together in the order of
 * Vaswani et al. (2017), they make one block of an autoregressive
 * Transformer:
 *     H = LN1(X + MHA(X)),    Y = LN2(H + MLP(H)).
 * This chapter builds that block from the library and checks it against
 * the same block written out directly as matrix expressions (claim T1);
 * `make check-framework` then recomputes it with PyTorch from the --dump
 * files. Finally it maps each component back to the step that required it,
 * and shows that taking any one of them out changes what the block computes
 * (T2).
 */
#include <math.h>

#include "invent.h"

typedef struct {
    size_t dim, heads, hidden, seq;
} sizes;

/* The components of the block; the reference below can leave any one out. */
typedef enum {
    PART_NONE = -1,
    PART_ATTN,  /* attention as a whole (left out: adds nothing) */
    PART_SCORE, /* the query-key score (left out: every visible token weighs the same) */
    PART_MASK,  /* causal mask */
    PART_SCALE, /* 1/sqrt(dk) in the scores */
    PART_WO,    /* the output matrix (left out: identity) */
    PART_SKIP1, /* skip around attention */
    PART_NORM1, /* norm after attention */
    PART_MLP,   /* the MLP */
    PART_SKIP2, /* skip around the MLP */
    PART_NORM2, /* norm after the MLP */
    N_PARTS
} part;

/* One row of the T2 table: a component, the step that asked for it, and why. */
static const struct {
    const char *component, *step, *why;
} MAP[N_PARTS] = {
    [PART_ATTN] = {"attention over the past", "ch01 R1-R3", "a memory that grows"},
    [PART_SCORE] = {"query-key score", "ch02,04-06", "weights from x_L and x_i"},
    [PART_MASK] = {"causal mask", "ch07 S3-S4", "no peeking at the future"},
    [PART_SCALE] = {"scale 1/sqrt(dk)", "ch07 S2", "softmax temperature"},
    [PART_WO] = {"heads and W_o", "ch03,08 H1", "few value maps, small cache"},
    [PART_SKIP1] = {"skip around attention", "ch02 D2-D3", "x_L's own input stays"},
    [PART_NORM1] = {"layer norm 1", "ch09 M4", "stream kept in range"},
    [PART_MLP] = {"MLP", "ch09 M1-M3", "key-value memory"},
    [PART_SKIP2] = {"skip around the MLP", "ch09 M4", "MLP adds, not replaces"},
    [PART_NORM2] = {"layer norm 2", "ch09 M4", "next block gets a norm"},
};

/* ------------------------------------------------------------------ reference */
/* The block once more, written directly from the formulas with BLAS and
 * loops, without the library's attention, heads, norm or MLP modules. */

/* rows of M <- (m - mean) / sqrt(var + eps) * gamma + beta, in place */
static void ref_layernorm(gsl_matrix *M, const gsl_vector *gamma, const gsl_vector *beta,
                          double eps)
{
    size_t d = M->size2;
    for (size_t t = 0; t < M->size1; t++) {
        double mean = 0.0, var = 0.0;
        for (size_t i = 0; i < d; i++)
            mean += gsl_matrix_get(M, t, i) / (double)d;
        for (size_t i = 0; i < d; i++)
            var += pow(gsl_matrix_get(M, t, i) - mean, 2) / (double)d;
        for (size_t i = 0; i < d; i++)
            gsl_matrix_set(M, t, i, (gsl_matrix_get(M, t, i) - mean) / sqrt(var + eps) *
                                        gsl_vector_get(gamma, i) + gsl_vector_get(beta, i));
    }
}

/* S: (T, T) scores -> S: row-wise exp(s - max) / sum, with s = -inf above the diagonal */
static void ref_softmax(gsl_matrix *S, int causal)
{
    for (size_t t = 0; t < S->size1; t++) {
        size_t last = causal ? t : S->size2 - 1;
        double top = -INFINITY, total = 0.0;
        for (size_t i = 0; i <= last; i++)
            top = fmax(top, gsl_matrix_get(S, t, i));
        for (size_t i = 0; i < S->size2; i++) {
            double e = i <= last ? exp(gsl_matrix_get(S, t, i) - top) : 0.0;
            gsl_matrix_set(S, t, i, e);
            total += e;
        }
        for (size_t i = 0; i < S->size2; i++)
            gsl_matrix_set(S, t, i, gsl_matrix_get(S, t, i) / total);
    }
}

/* C: (T, d) <- softmax(Q_j K_j^T / sqrt(dk) + M) V_j for every head j, side by side;
 * weights: (H*T, T) receives each head's weights */
static void ref_heads(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, size_t H,
                      part drop, gsl_matrix *weights, gsl_matrix *C)
{
    size_t T = Q->size1, dk = Q->size2 / H;
    double scale = drop == PART_SCALE ? 1.0 : drop == PART_SCORE ? 0.0 : 1.0 / sqrt((double)dk);
    for (size_t j = 0; j < H; j++) {
        gsl_matrix_const_view q = gsl_matrix_const_submatrix(Q, 0, j * dk, T, dk);
        gsl_matrix_const_view k = gsl_matrix_const_submatrix(K, 0, j * dk, T, dk);
        gsl_matrix_const_view v = gsl_matrix_const_submatrix(V, 0, j * dk, T, dk);
        gsl_matrix_view S = gsl_matrix_submatrix(weights, j * T, 0, T, T);
        gsl_matrix_view c = gsl_matrix_submatrix(C, 0, j * dk, T, dk);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, scale, &q.matrix, &k.matrix, 0.0, &S.matrix);
        ref_softmax(&S.matrix, drop != PART_MASK);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &S.matrix, &v.matrix, 0.0, &c.matrix);
    }
}

/* Scratch space of the reference: every intermediate, (T, d) unless noted. */
typedef struct {
    gsl_matrix *Q, *K, *V, *C, *A, *H, *Z, *M, *weights; /* Z: (T, m), weights: (H*T, T) */
} ref_space;

static void ref_free(ref_space *r)
{
    gsl_matrix *all[] = {r->Q, r->K, r->V, r->C, r->A, r->H, r->Z, r->M, r->weights};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gsl_matrix_free(all[i]);
}

static int ref_alloc(size_t T, size_t d, size_t m, size_t H, ref_space *r)
{
    *r = (ref_space){gsl_matrix_alloc(T, d), gsl_matrix_alloc(T, d), gsl_matrix_alloc(T, d),
                     gsl_matrix_alloc(T, d), gsl_matrix_alloc(T, d), gsl_matrix_alloc(T, d),
                     gsl_matrix_alloc(T, m), gsl_matrix_alloc(T, d), gsl_matrix_alloc(H * T, T)};
    int ok = r->Q && r->K && r->V && r->C && r->A && r->H && r->Z && r->M && r->weights;
    if (!ok)
        ref_free(r);
    return ok ? INVENT_OK : INVENT_ENOMEM;
}

/* M: (T, n) <- M + 1 b^T */
static void ref_add_bias(gsl_matrix *M, const gsl_vector *b)
{
    for (size_t t = 0; t < M->size1; t++)
        for (size_t i = 0; i < M->size2; i++)
            gsl_matrix_set(M, t, i, gsl_matrix_get(M, t, i) + gsl_vector_get(b, i));
}

/* H <- LN1(X + C W_o^T) with the skip, the norm or W_o left out as asked */
static void ref_attention_half(const block_weights *w, const gsl_matrix *X, part drop,
                               ref_space *r)
{
    const mha_weights *a = w->attn;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, a->Wq, 0.0, r->Q);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, a->Wk, 0.0, r->K);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, a->Wv, 0.0, r->V);
    ref_heads(r->Q, r->K, r->V, a->heads, drop, r->weights, r->C);
    if (drop == PART_WO)
        gsl_matrix_memcpy(r->A, r->C);
    else
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, r->C, a->Wo, 0.0, r->A);
    if (drop == PART_ATTN)
        gsl_matrix_set_zero(r->A);
    gsl_matrix_memcpy(r->H, r->A);
    if (drop != PART_SKIP1)
        gsl_matrix_add(r->H, X);
    if (drop != PART_NORM1)
        ref_layernorm(r->H, w->gamma1, w->beta1, w->eps);
}

/* Y <- LN2(H + relu(H W1^T + b1) W2^T + b2) with the MLP, skip or norm left out as asked */
static void ref_mlp_half(const block_weights *w, part drop, ref_space *r, gsl_matrix *Y)
{
    const mlp_weights *f = w->mlp;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, r->H, f->W1, 0.0, r->Z);
    ref_add_bias(r->Z, f->b1);
    for (size_t t = 0; t < r->Z->size1; t++)
        for (size_t i = 0; i < r->Z->size2; i++)
            gsl_matrix_set(r->Z, t, i, fmax(0.0, gsl_matrix_get(r->Z, t, i)));
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, r->Z, f->W2, 0.0, r->M);
    ref_add_bias(r->M, f->b2);
    if (drop == PART_MLP)
        gsl_matrix_set_zero(r->M);
    gsl_matrix_memcpy(Y, r->M);
    if (drop != PART_SKIP2)
        gsl_matrix_add(Y, r->H);
    if (drop != PART_NORM2)
        ref_layernorm(Y, w->gamma2, w->beta2, w->eps);
}

/* X: (T, d) -> Y: (T, d), the whole block with component `drop` left out (PART_NONE: all
 * in); attn: (T, d) receives MHA(X), or NULL */
static int reference_block(const block_weights *w, const gsl_matrix *X, part drop,
                           gsl_matrix *Y, gsl_matrix *attn)
{
    ref_space r;
    int status = ref_alloc(X->size1, X->size2, w->mlp->W1->size1, w->attn->heads, &r);
    if (status != INVENT_OK)
        return status;
    ref_attention_half(w, X, drop, &r);
    ref_mlp_half(w, drop, &r, Y);
    if (attn)
        gsl_matrix_memcpy(attn, r.A);
    ref_free(&r);
    return INVENT_OK;
}

/* --------------------------------------------------------------------- model */

/* Random block weights, with norms and biases that are not the identity, so
 * that every parameter shows in the output. */
static block_weights *model_new(const sizes *s, gsl_rng *rng)
{
    block_weights *w = block_new(s->dim, s->heads, s->hidden, rng);
    if (!w)
        return NULL;
    gsl_vector *vs[] = {w->gamma1, w->beta1, w->gamma2, w->beta2, w->mlp->b1, w->mlp->b2};
    const double centre[] = {1.0, 0.0, 1.0, 0.0, 0.0, 0.0};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
        gsl_matrix_view m = gsl_matrix_view_vector(vs[k], 1, vs[k]->size);
        rng_fill_gaussian(&m.matrix, rng, 0.2);
        gsl_vector_add_constant(vs[k], centre[k]);
    }
    return w;
}

/* (n) vector -> DIR/name.npy of shape (n) */
static int dump_vector(const invent_opts *o, const char *name, const gsl_vector *v)
{
    const size_t shape[1] = {v->size};
    return dump_array(o, name, NPY_F64, 1, shape, v->data);
}

/* -> nonzero if a file could not be written (dump_* has reported which) */
static int dump_weights_failed(const invent_opts *o, const block_weights *w)
{
    const double eps[1] = {w->eps};
    const size_t one[1] = {1};
    return dump_matrix(o, "Wq", w->attn->Wq) || dump_matrix(o, "Wk", w->attn->Wk) ||
           dump_matrix(o, "Wv", w->attn->Wv) || dump_matrix(o, "Wo", w->attn->Wo) ||
           dump_vector(o, "ln1_gamma", w->gamma1) || dump_vector(o, "ln1_beta", w->beta1) ||
           dump_matrix(o, "W1", w->mlp->W1) || dump_vector(o, "b1", w->mlp->b1) ||
           dump_matrix(o, "W2", w->mlp->W2) || dump_vector(o, "b2", w->mlp->b2) ||
           dump_vector(o, "ln2_gamma", w->gamma2) || dump_vector(o, "ln2_beta", w->beta2) ||
           dump_array(o, "eps", NPY_F64, 1, one, eps);
}

/* the names and layouts are documented in README.md (chapter 10, --dump);
 * -> nonzero if a file could not be written (dump_* has reported which) */
static int dump_pass_failed(const invent_opts *o, const gsl_matrix *X, const block_trace *tr,
                     const gsl_matrix *Y)
{
    const gsl_matrix *A = tr->attn->A;
    const size_t T = X->size1, shape[3] = {A->size1 / T, T, T};
    return dump_matrix(o, "x", X) || dump_matrix(o, "Q", tr->attn->Q) ||
           dump_matrix(o, "K", tr->attn->K) || dump_matrix(o, "V", tr->attn->V) ||
           dump_array(o, "attn_weights", NPY_F64, 3, shape, A->data) ||
           dump_matrix(o, "heads_concat", tr->attn->C) || dump_matrix(o, "attn_out", tr->A) ||
           dump_matrix(o, "resid1", tr->R1) || dump_matrix(o, "ln1_out", tr->H) ||
           dump_matrix(o, "mlp_pre", tr->Z) || dump_matrix(o, "mlp_out", tr->M) ||
           dump_matrix(o, "resid2", tr->R2) || dump_matrix(o, "y", Y);
}

/* ---------------------------------------------------------------------- T1 */

/* Changing the last token must leave every earlier output exactly as it was. */
static int check_causal(const block_weights *w, const gsl_matrix *X, const gsl_matrix *Y)
{
    size_t T = X->size1, d = X->size2;
    gsl_matrix *X2 = mat_clone(X), *Y2 = gsl_matrix_alloc(T, d);
    int status = X2 && Y2 ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_vector_view last = gsl_matrix_row(X2, T - 1);
        gsl_vector_scale(&last.vector, -3.0);
        status = block_forward(w, X2, NULL, Y2);
    }
    if (status == INVENT_OK && T > 1) {
        gsl_matrix_const_view a = gsl_matrix_const_submatrix(Y, 0, 0, T - 1, d);
        gsl_matrix_const_view b = gsl_matrix_const_submatrix(Y2, 0, 0, T - 1, d);
        check_at_most("T1", "the block is autoregressive: changing the last token leaves "
                      "every earlier output unchanged", mat_max_abs_diff(&a.matrix, &b.matrix),
                      1e-14);
    }
    gsl_matrix_free(X2);
    gsl_matrix_free(Y2);
    return status;
}

static void plot_patterns(const invent_opts *o, const block_trace *tr, size_t heads)
{
    size_t T = tr->A->size1;
    plot *p = plot_begin(o, "ch10_attention");
    plot_set(p, "heads", (double)heads);
    plot_set(p, "tokens", (double)T);
    for (size_t j = 0; j < heads; j++) {
        gsl_matrix_const_view Aj = gsl_matrix_const_submatrix(tr->attn->A, j * T, 0, T, T);
        plot_block(p, "key position i, query position t, weight");
        plot_matrix(p, &Aj.matrix);
    }
    plot_render(p, "ch10_attention.gp");
}

static int assembled_section(const invent_opts *o, const sizes *s, const block_weights *w,
                             const gsl_matrix *X, block_trace *tr, gsl_matrix *Y)
{
    report_section(o, "One block, built from the library");
    report_text(o, "T = %zu tokens of width d = %zu go through H = %zu causal heads of size "
                   "%zu, W_o, a skip and a layer norm, then an MLP with m = %zu hidden units "
                   "(ReLU), a second skip and a second norm. The same block is then written "
                   "again directly from the formulas: Q = X W_q^T, softmax(Q_j K_j^T / sqrt(dk) "
                   "+ M) V_j per head, concatenation, W_o, and so on, with nothing from the "
                   "library but BLAS.",
                s->seq, s->dim, s->heads, s->dim / s->heads, s->hidden);
    gsl_matrix *Yref = gsl_matrix_alloc(s->seq, s->dim), *Aref = gsl_matrix_alloc(s->seq, s->dim);
    int status = Yref && Aref ? block_forward(w, X, tr, Y) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = reference_block(w, X, PART_NONE, Yref, Aref);
    if (status == INVENT_OK) {
        check_matrix_close("T1", "attention output: library heads and W_o against the direct "
                           "formula", tr->A, Aref, 1e-10);
        check_matrix_close("T1", "block output: library block against the standard "
                           "formulation written as matrices", Y, Yref, 1e-10);
        status = check_causal(w, X, Y);
    }
    if (status == INVENT_OK) {
        report_text(o, "The comparison with a mainstream framework runs outside the chapter: "
                       "`make check-framework` writes every tensor with --dump and recomputes "
                       "the block with PyTorch (see README.md).");
        plot_patterns(o, tr, s->heads);
    }
    gsl_matrix_free(Yref);
    gsl_matrix_free(Aref);
    return status;
}

/* ---------------------------------------------------------------------- T2 */

static int map_section(const invent_opts *o, const block_weights *w, const gsl_matrix *X,
                       const gsl_matrix *Y)
{
    report_section(o, "Where each piece came from");
    report_text(o, "Each component answers a need that an earlier step ran into. The last "
                   "column takes the component out of the block (the reference can leave out "
                   "any one) and reports the largest change in the output: none of them is "
                   "decoration.");
    report_line(o, "  %-23s %-11s %-28s %s", "component", "step", "what it is for",
                "if removed");
    gsl_matrix *Yd = gsl_matrix_alloc(X->size1, X->size2);
    if (!Yd)
        return INVENT_ENOMEM;
    double least = INFINITY;
    int status = INVENT_OK;
    for (int k = 0; k < N_PARTS && status == INVENT_OK; k++) {
        status = reference_block(w, X, (part)k, Yd, NULL);
        double change = mat_max_abs_diff(Yd, Y);
        least = fmin(least, change);
        report_line(o, "  %-23s %-11s %-28s %.3g", MAP[k].component, MAP[k].step, MAP[k].why,
                    change);
    }
    gsl_matrix_free(Yd);
    if (status == INVENT_OK)
        check_at_least("T2", "every component in the table changes the block's output when it "
                       "is taken out (smallest largest change)", least, 1e-3);
    return status;
}

static int run(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    block_weights *w = model_new(s, rng);
    gsl_matrix *X = mat_gaussian(s->seq, s->dim, 1.0, rng);
    gsl_matrix *Y = gsl_matrix_alloc(s->seq, s->dim);
    block_trace *tr = w ? block_trace_new(s->seq, w) : NULL;
    int status = w && X && Y && tr ? assembled_section(o, s, w, X, tr, Y) : INVENT_ENOMEM;
    int dump_failed = status == INVENT_OK &&
                      (dump_weights_failed(o, w) || dump_pass_failed(o, X, tr, Y));
    if (status == INVENT_OK && !dump_failed)
        status = map_section(o, w, X, Y);
    block_trace_free(tr);
    block_free(w);
    gsl_matrix_free(X);
    gsl_matrix_free(Y);
    if (status != INVENT_OK)
        return chapter_fail(o, "computing the block", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

int main(int argc, char **argv)
{
    sizes s = {.dim = 16, .heads = 4, .hidden = 64, .seq = 8};
    const cli_option options[] = {
        {"dim", CLI_SIZE, &s.dim, 8, 512, "model width d"},
        {"heads", CLI_SIZE, &s.heads, 1, 16, "attention heads H (must divide d)"},
        {"hidden", CLI_SIZE, &s.hidden, 8, 2048, "hidden units m of the MLP"},
        {"seq", CLI_SIZE, &s.seq, 2, 128,
         "tokens T (up to 128: the figure draws every weight of every head)"},
    };
    const cli_spec spec = {"ch10", "Chapter 10: the Transformer block, assembled and checked.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.dim % s.heads != 0)
        return cli_fail(&o, "--heads (%zu) must divide --dim (%zu)", s.heads, s.dim);
    if (s.dim / s.heads < 2)
        return cli_fail(&o, "--heads (%zu) must leave at least 2 dimensions per head of --dim "
                            "(%zu): with one, the scale 1/sqrt(dk) is 1 and does nothing",
                        s.heads, s.dim);
    rc = chapter_start(&o, "Chapter 10: the Transformer, assembled");
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
    report_text(&o, "The block is the real thing, derived one need at a time. Chapter 11 asks "
                    "what it costs, and what alternatives give up; chapter 12 lets it learn.");
    return chapter_end();
}
