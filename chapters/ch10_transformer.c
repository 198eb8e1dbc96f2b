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
 * files. Finally it maps each component back to the step that required it
 * (T2), on a small task that a block with hand-set weights solves: taking
 * out a component the task needs makes it fail; taking out one it does not
 * need leaves it solved, and the chapter says which are which.
 */
#include <gsl/gsl_randist.h>
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

/* One row of the T2 table: a component, the step that asked for it, why, and whether
 * the task of T2 needs it (the task is built so that seven of the ten matter). */
static const struct {
    const char *component, *step, *why;
    int needed;
} MAP[N_PARTS] = {
    [PART_ATTN] = {"attention over the past", "ch01 R1-R3", "a memory that grows", 1},
    [PART_SCORE] = {"query-key score", "ch02,04-06", "weights from x_L and x_i", 1},
    [PART_MASK] = {"causal mask", "ch07 S3-S4", "no peeking at the future", 1},
    [PART_SCALE] = {"scale 1/sqrt(dk)", "ch07 S2,S7", "softmax not saturated", 0},
    [PART_WO] = {"heads and W_o", "ch03,08 H1", "heads write where needed", 1},
    [PART_SKIP1] = {"skip around attention", "ch02 D2-D3", "x_L's own input stays", 1},
    [PART_NORM1] = {"layer norm 1", "ch09 M4", "stream kept in range", 0},
    [PART_MLP] = {"MLP", "ch09 M1-M3", "key-value memory", 1},
    [PART_SKIP2] = {"skip around the MLP", "ch09 M4", "MLP adds, not replaces", 1},
    [PART_NORM2] = {"layer norm 2", "ch09 M4", "next block gets a norm", 0},
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

static void ref_alloc(scope *sc, size_t T, size_t d, size_t m, size_t H, ref_space *r)
{
    *r = (ref_space){scope_matrix(sc, T, d), scope_matrix(sc, T, d), scope_matrix(sc, T, d),
                     scope_matrix(sc, T, d), scope_matrix(sc, T, d), scope_matrix(sc, T, d),
                     scope_matrix(sc, T, m), scope_matrix(sc, T, d), scope_matrix(sc, H * T, T)};
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
static void reference_block(const block_weights *w, const gsl_matrix *X, part drop,
                            gsl_matrix *Y, gsl_matrix *attn)
{
    scope *sc = scope_open();
    ref_space r;
    ref_alloc(sc, X->size1, X->size2, w->mlp->W1->size1, w->attn->heads, &r);
    ref_attention_half(w, X, drop, &r);
    ref_mlp_half(w, drop, &r, Y);
    if (attn)
        gsl_matrix_memcpy(attn, r.A);
    scope_close(sc);
}

/* --------------------------------------------------------------------- model */

/* Random block weights, with norms and biases that are not the identity, so
 * that every parameter shows in the output. */
static block_weights *model_new(scope *sc, const sizes *s, gsl_rng *rng)
{
    block_weights *w = SCOPE_KEEP(sc, block_new(s->dim, s->heads, s->hidden, rng), block_free);
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

/* X: (T, d) -> the largest change in outputs 0..T-2 when the last token is scaled by
 * -3, for the library block (drop == PART_NONE) or the reference without `drop` */
static double earlier_change(const block_weights *w, const gsl_matrix *X, part drop)
{
    scope *sc = scope_open();
    size_t T = X->size1, d = X->size2;
    gsl_matrix *X2 = scope_keep_matrix(sc, mat_clone(X));
    gsl_matrix *Y = scope_matrix(sc, T, d), *Y2 = scope_matrix(sc, T, d);
    block_trace *tr = SCOPE_KEEP(sc, block_trace_new(T, w), block_trace_free);
    gsl_vector_view last = gsl_matrix_row(X2, T - 1);
    gsl_vector_scale(&last.vector, -3.0);
    if (drop == PART_NONE) {
        chapter_must(block_forward(w, X, tr, Y), "the block");
        chapter_must(block_forward(w, X2, tr, Y2), "the block");
    } else {
        reference_block(w, X, drop, Y, NULL);
        reference_block(w, X2, drop, Y2, NULL);
    }
    gsl_matrix_const_view a = gsl_matrix_const_submatrix(Y, 0, 0, T - 1, d);
    gsl_matrix_const_view b = gsl_matrix_const_submatrix(Y2, 0, 0, T - 1, d);
    double change = mat_max_abs_diff(&a.matrix, &b.matrix);
    scope_close(sc);
    return change;
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

/* T1: the library's block against the direct formulas; -> nonzero if a dump failed */
static int assembled_section(const invent_opts *o, const sizes *s, gsl_rng *rng)
{
    report_section(o, "One block, built from the library");
    report_text(o, "T = %zu tokens of width d = %zu go through H = %zu causal heads of size "
                   "%zu, W_o, a skip and a layer norm, then an MLP with m = %zu hidden units "
                   "(ReLU), a second skip and a second norm. The same block is then written "
                   "again directly from the formulas: Q = X W_q^T, softmax(Q_j K_j^T / sqrt(dk) "
                   "+ M) V_j per head, concatenation, W_o, and so on, with nothing from the "
                   "library but BLAS.",
                s->seq, s->dim, s->heads, s->dim / s->heads, s->hidden);
    scope *sc = scope_open();
    size_t T = s->seq, d = s->dim;
    block_weights *w = model_new(sc, s, rng);
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(T, d, 1.0, rng));
    block_trace *tr = SCOPE_KEEP(sc, block_trace_new(T, w), block_trace_free);
    gsl_matrix *Y = scope_matrix(sc, T, d), *Yref = scope_matrix(sc, T, d);
    gsl_matrix *Aref = scope_matrix(sc, T, d), *Ynoscale = scope_matrix(sc, T, d);
    gsl_matrix *Anomask = scope_matrix(sc, T, d);
    chapter_must(block_forward(w, X, tr, Y), "the block");
    reference_block(w, X, PART_NONE, Yref, Aref);
    reference_block(w, X, PART_MASK, Ynoscale, Anomask);
    reference_block(w, X, PART_SCALE, Ynoscale, NULL);
    check_matrix_close("T1", "attention output: library heads and W_o against the direct "
                       "formula", tr->A, Aref, 1e-10);
    check_control("T1", "the direct formula without the causal mask");
    check_matrix_close("T1", NULL, tr->A, Anomask, 1e-10);
    check_matrix_close("T1", "block output: library block against the standard "
                       "formulation written as matrices", Y, Yref, 1e-10);
    check_control("T1", "the direct formula without the scale 1/sqrt(dk)");
    check_matrix_close("T1", NULL, Y, Ynoscale, 1e-10);
    check_at_most("T1", "the block is autoregressive: changing the last token leaves every "
                  "earlier output unchanged", earlier_change(w, X, PART_NONE), 1e-14);
    check_control("T1", "the direct formula without the causal mask");
    check_at_most("T1", NULL, earlier_change(w, X, PART_MASK), 1e-14);
    report_text(o, "The comparison with a mainstream framework runs outside the chapter: "
                   "`make check-framework` writes every tensor with --dump and recomputes "
                   "the block with PyTorch, and checks that PyTorch without the causal mask "
                   "disagrees (see README.md).");
    plot_patterns(o, tr, s->heads);
    int failed = dump_weights_failed(o, w) || dump_pass_failed(o, X, tr, Y);
    scope_close(sc);
    return failed;
}

/* ---------------------------------------------------------------------- T2 */

/* The task of T2, for one block with hand-set weights. A sequence holds, after a
 * start token, for each of KEYS keys: a memory (the key and a value bit v = +-1), later
 * a query (the key and a sign bit s = +-1), and after the query a second memory of the
 * same key with the opposite value. At every query the block must write v (recall:
 * the value stored before, not the one after) and v * s (parity: needs the query's own
 * bit and a nonlinearity). Stream coordinates come in pairs (c, -c), so every token has
 * mean 0 and a norm only rescales it. */
#define KEYS 4
#define TASK_T (1 + 3 * KEYS)
#define TRIALS 64
enum { MEM = 0, QRY = KEYS, VAL = 2 * KEYS, SGN, ONE, BOS, RECALL, PARITY, CONTENT };
#define TASK_D (2 * CONTENT)

/* token t's content coordinate c <- value, its mirror c + CONTENT <- -value */
static void put(gsl_matrix *X, size_t t, size_t c, double value)
{
    gsl_matrix_set(X, t, c, value);
    gsl_matrix_set(X, t, c + CONTENT, -value);
}

/* a matrix that writes to the stream (W_o, W2): column j writes value to content
 * coordinate c and -value to its mirror */
static void put_write(gsl_matrix *W, size_t c, size_t j, double value)
{
    gsl_matrix_set(W, c, j, value);
    gsl_matrix_set(W, c + CONTENT, j, -value);
}

/* weights: the query of a query token is beta (its key, 1); the key of a memory is its
 * key, of the start token 1/2; so a query finds its memory (score beta), a memory or a
 * query without one the start token (beta / 2). The value is VAL; W_o writes it to
 * RECALL. Four ReLU units compute v * s from RECALL and SGN. */
static block_weights *task_block(scope *sc, gsl_rng *rng)
{
    block_weights *w = SCOPE_KEEP(sc, block_new(TASK_D, 1, 4, rng), block_free);
    const mha_weights *a = w->attn;
    const mlp_weights *f = w->mlp;
    double beta = 20.0 * sqrt((double)TASK_D); /* 20 after the scale 1/sqrt(dk) */
    gsl_matrix *all[] = {a->Wq, a->Wk, a->Wv, a->Wo, f->W1, f->W2};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        gsl_matrix_set_zero(all[k]);
    for (size_t key = 0; key < KEYS; key++) {
        gsl_matrix_set(a->Wq, key, QRY + key, beta);
        gsl_matrix_set(a->Wk, key, MEM + key, 1.0);
    }
    gsl_matrix_set(a->Wq, KEYS, ONE, beta);
    gsl_matrix_set(a->Wk, KEYS, BOS, 0.5);
    gsl_matrix_set(a->Wv, 0, VAL, 1.0);
    put_write(a->Wo, RECALL, 0, 1.0); /* head coordinate 0 goes to the stream's RECALL */
    const double units[4][2] = {{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}; /* (r, s) weights */
    for (size_t u = 0; u < 4; u++) {
        gsl_matrix_set(f->W1, u, RECALL, units[u][0]);
        gsl_matrix_set(f->W1, u, SGN, units[u][1]);
        put_write(f->W2, PARITY, u, u < 2 ? 0.5 : -0.5); /* |r + s| - |r - s| = 2 r s */
    }
    return w;
}

/* one random sequence -> X: (TASK_T, TASK_D), target: (TASK_T, 2) with (v, v s) at
 * queries and zeros elsewhere */
static void task_sequence(gsl_rng *rng, gsl_matrix *X, gsl_matrix *target)
{
    int order[3 * KEYS], seen[KEYS] = {0}, value[KEYS], sign[KEYS];
    for (int i = 0; i < 3 * KEYS; i++)
        order[i] = i % KEYS;
    gsl_ran_shuffle(rng, order, 3 * KEYS, sizeof order[0]);
    for (int key = 0; key < KEYS; key++) {
        value[key] = gsl_rng_uniform_int(rng, 2) ? 1 : -1;
        sign[key] = gsl_rng_uniform_int(rng, 2) ? 1 : -1;
    }
    gsl_matrix_set_zero(X);
    gsl_matrix_set_zero(target);
    put(X, 0, ONE, 1.0);
    put(X, 0, BOS, 1.0);
    for (size_t t = 1; t < TASK_T; t++) {
        int key = order[t - 1], n = seen[key]++;
        put(X, t, ONE, 1.0);
        put(X, t, n == 1 ? QRY + key : MEM + key, 1.0);
        put(X, t, n == 1 ? SGN : VAL, n == 1 ? sign[key] : n == 0 ? value[key] : -value[key]);
        if (n == 1) {
            gsl_matrix_set(target, t, 0, value[key]);
            gsl_matrix_set(target, t, 1, value[key] * sign[key]);
        }
    }
}

/* Y: (TASK_T, TASK_D), target -> queries answered: both RECALL and PARITY carry the
 * target's sign with at least half the token's root-mean-square size */
static size_t answered(const gsl_matrix *Y, const gsl_matrix *target)
{
    size_t right = 0;
    for (size_t t = 0; t < TASK_T; t++) {
        if (gsl_matrix_get(target, t, 0) == 0.0)
            continue;
        gsl_vector_const_view y = gsl_matrix_const_row(Y, t);
        double rms = gsl_blas_dnrm2(&y.vector) / sqrt((double)TASK_D);
        right += gsl_matrix_get(target, t, 0) * gsl_vector_get(&y.vector, RECALL) >= 0.5 * rms &&
                 gsl_matrix_get(target, t, 1) * gsl_vector_get(&y.vector, PARITY) >= 0.5 * rms;
    }
    return right;
}

/* accuracy[k]: the reference without component k; accuracy[N_PARTS]: the library block;
 * accuracy[N_PARTS + 1]: the library block with random weights; same sequences for all */
static void task_accuracy(const block_weights *w, const block_weights *random_w, gsl_rng *rng,
                          double *accuracy)
{
    scope *sc = scope_open();
    gsl_matrix *X = scope_matrix(sc, TASK_T, TASK_D), *target = scope_matrix(sc, TASK_T, 2);
    gsl_matrix *Y = scope_matrix(sc, TASK_T, TASK_D);
    block_trace *tr = SCOPE_KEEP(sc, block_trace_new(TASK_T, w), block_trace_free);
    block_trace *tr_random = SCOPE_KEEP(sc, block_trace_new(TASK_T, random_w), block_trace_free);
    for (int k = 0; k < N_PARTS + 2; k++)
        accuracy[k] = 0.0;
    for (int trial = 0; trial < TRIALS; trial++) {
        task_sequence(rng, X, target);
        for (int k = 0; k < N_PARTS; k++) {
            reference_block(w, X, (part)k, Y, NULL);
            accuracy[k] += (double)answered(Y, target) / (TRIALS * KEYS);
        }
        chapter_must(block_forward(w, X, tr, Y), "the task's block");
        accuracy[N_PARTS] += (double)answered(Y, target) / (TRIALS * KEYS);
        chapter_must(block_forward(random_w, X, tr_random, Y), "a random block");
        accuracy[N_PARTS + 1] += (double)answered(Y, target) / (TRIALS * KEYS);
    }
    scope_close(sc);
}
/* T2: the map, and the task without each component. */
static void map_section(const invent_opts *o, gsl_rng *rng)
{
    report_section(o, "Where each piece came from");
    report_text(o, "Each component answers a need that an earlier step ran into. To see the "
                   "need, a block with hand-set weights (d = %d, one head, 4 hidden units) "
                   "solves a small task: after a start token, %d keys each get a memory (the "
                   "key and a bit v), later a query (the key and its own bit s), and after the "
                   "query a second memory of the key with the opposite bit. At every query the "
                   "block must write v, the bit stored before it, and v * s. The query's "
                   "score finds its memory; the mask hides the later one; W_o writes the "
                   "recalled bit where the MLP reads it; the first skip keeps s; the MLP "
                   "computes the product; the second skip keeps v. Every coordinate comes "
                   "with its negative, so a norm only rescales a token, and the readout asks "
                   "for the right sign at half the token's root-mean-square size. Over %d "
                   "random sequences, each component is taken out in turn (the reference can "
                   "leave out any one):",
                TASK_D, KEYS, TRIALS);
    scope *sc = scope_open();
    block_weights *w = task_block(sc, rng);
    block_weights *random_w = SCOPE_KEEP(sc, block_new(TASK_D, 1, 4, rng), block_free);
    double accuracy[N_PARTS + 2];
    task_accuracy(w, random_w, rng, accuracy);
    report_line(o, "  %-23s %-11s %-26s %s", "component", "step", "what it is for",
                "accuracy without it");
    for (int k = 0; k < N_PARTS; k++)
        report_line(o, "  %-23s %-11s %-26s %.3f%s", MAP[k].component, MAP[k].step, MAP[k].why,
                    accuracy[k], MAP[k].needed ? "" : "  (not needed by this task)");
    check_at_least("T2", "the hand-set block solves the task (accuracy, library block)",
                   accuracy[N_PARTS], 0.99);
    check_control("T2", "the same block with random weights");
    check_at_least("T2", NULL, accuracy[N_PARTS + 1], 0.99);
    char claim[160], what[160];
    for (int k = 0; k < N_PARTS; k++) {
        snprintf(claim, sizeof claim, "without the %s (%s) the task fails (accuracy)",
                 MAP[k].component, MAP[k].step);
        snprintf(what, sizeof what, "the %s taken out, which this task does not need",
                 MAP[k].component);
        if (!MAP[k].needed)
            check_control("T2", what);
        check_at_most("T2", MAP[k].needed ? claim : NULL, accuracy[k], 0.75);
    }
    report_text(o, "Seven of the ten are needed here. The scale and the two norms are not: "
                   "this task is solved without them, which is what their controls show. What "
                   "they are for, a softmax that does not saturate as r grows (chapter 7, "
                   "S7) and a stream kept in range, is not something one hand-set block can "
                   "show; the map gives the step that introduced them.");
    scope_close(sc);
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
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(o.seed));
    int dump_failed = assembled_section(&o, &s, rng);
    map_section(&o, rng);
    scope_close(sc);
    if (dump_failed)
        return CHAPTER_EXIT_RUNTIME;
    report_section(&o, "What follows");
    report_text(&o, "The block is the real thing, derived one need at a time. Chapter 11 asks "
                    "what it costs, and what alternatives give up; chapter 12 lets it learn.");
    return chapter_end();
}
