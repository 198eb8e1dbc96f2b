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
 * files. Then it maps each part back to the step that asked for it (T2):
 * a two-head block is trained on a small task built around those needs,
 * and each part is taken out and the rest trained again; a part is called
 * needed only when every run without it fails, and each such failure is
 * shown beside the near miss of a task without that part's reason.
 * Finally it shows what one block cannot (T3): why the skips and the norms
 * matter once blocks are stacked, with gradients, token spread and a few
 * training steps over 1 to 32 blocks.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics.h>
#include <math.h>
#include <stdlib.h>

#include "invent.h"

typedef struct {
    size_t dim, heads, hidden, seq;
} sizes;

/* What T1's reference can leave out, for its controls. */
typedef enum {
    PART_NONE, /* the whole block */
    PART_MASK,  /* causal mask */
    PART_SCALE, /* 1/sqrt(dk) in the scores */
} part;

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
    double scale = drop == PART_SCALE ? 1.0 : 1.0 / sqrt((double)dk);
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

/* H <- LN1(X + C W_o^T), with the mask or scale left out as asked */
static void ref_attention_half(const block_weights *w, const gsl_matrix *X, part drop,
                               ref_space *r)
{
    const mha_weights *a = w->attn;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, a->Wq, 0.0, r->Q);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, a->Wk, 0.0, r->K);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, a->Wv, 0.0, r->V);
    ref_heads(r->Q, r->K, r->V, a->heads, drop, r->weights, r->C);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, r->C, a->Wo, 0.0, r->A);
    gsl_matrix_memcpy(r->H, r->A);
    gsl_matrix_add(r->H, X);
    ref_layernorm(r->H, w->gamma1, w->beta1, w->eps);
}

/* Y <- LN2(H + relu(H W1^T + b1) W2^T + b2) */
static void ref_mlp_half(const block_weights *w, ref_space *r, gsl_matrix *Y)
{
    const mlp_weights *f = w->mlp;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, r->H, f->W1, 0.0, r->Z);
    ref_add_bias(r->Z, f->b1);
    for (size_t t = 0; t < r->Z->size1; t++)
        for (size_t i = 0; i < r->Z->size2; i++)
            gsl_matrix_set(r->Z, t, i, fmax(0.0, gsl_matrix_get(r->Z, t, i)));
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, r->Z, f->W2, 0.0, r->M);
    ref_add_bias(r->M, f->b2);
    gsl_matrix_memcpy(Y, r->M);
    gsl_matrix_add(Y, r->H);
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
    ref_mlp_half(w, &r, Y);
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

/* The task of T2. After a start token, each of KEYS keys brings a memory (the key and a
 * bit v = +-1), later a query (the key and its own bit s = +-1), and, after the query, a
 * second memory of the key with the opposite bit. At every query the read-out must give
 * v * s, with v the bit stored before the query, not after it: two classes. There are
 * no positions, so before and after differ only through the mask. Each option below
 * takes one reason away, for the near misses. */
typedef struct {
    size_t keys; /* 1: nothing to choose between, a plain average finds the memory */
    int later;   /* 0: no second memory after the query, nothing to hide */
    int recall;  /* 0: the query carries v itself, nothing to fetch from the past */
    int parity;  /* 0: the answer is v instead of v * s, linear in what attention brings */
} task_kind;

#define KEYS 6
#define TASK_D 20
enum { MEM = 0, QRY = KEYS, VAL = 2 * KEYS, SGN, BOS }; /* coordinates; the rest are free */

static const task_kind FULL_TASK = {.keys = KEYS, .later = 1, .recall = 1, .parity = 1};

/* one sequence, kept with its queries' positions and classes */
typedef struct {
    gsl_matrix *X; /* (T, TASK_D) */
    size_t at[KEYS], y[KEYS];
} task_example;

/* one random sequence of kind k -> *e (e->X allocated in sc) */
static void task_example_new(scope *sc, const task_kind *k, gsl_rng *rng, task_example *e)
{
    int events = k->later ? 3 : 2, order[3 * KEYS], seen[KEYS] = {0}, v[KEYS], sgn[KEYS];
    size_t n = (size_t)events * k->keys;
    for (size_t i = 0; i < n; i++)
        order[i] = (int)(i % k->keys);
    gsl_ran_shuffle(rng, order, n, sizeof order[0]);
    for (size_t key = 0; key < k->keys; key++) {
        v[key] = gsl_rng_uniform_int(rng, 2) ? 1 : -1;
        sgn[key] = gsl_rng_uniform_int(rng, 2) ? 1 : -1;
    }
    e->X = scope_matrix(sc, 1 + n, TASK_D);
    gsl_matrix_set_zero(e->X);
    gsl_matrix_set(e->X, 0, BOS, 1.0);
    for (size_t t = 1; t <= n; t++) {
        int key = order[t - 1], m = seen[key]++, query = m == 1;
        gsl_matrix_set(e->X, t, query ? QRY + key : MEM + key, 1.0);
        gsl_matrix_set(e->X, t, query ? SGN : VAL, query ? sgn[key] : m == 0 ? v[key] : -v[key]);
        if (query && !k->recall)
            gsl_matrix_set(e->X, t, VAL, v[key]);
        if (query) {
            e->at[key] = t;
            e->y[key] = (k->parity ? v[key] * sgn[key] : v[key]) > 0;
        }
    }
}

/* The parts of the block that T2 takes out, and trains without. */
typedef enum {
    ABL_NONE,
    ABL_ATTN,  /* attention adds nothing: W_o held at zero */
    ABL_SCORE, /* every visible token weighs the same: W_q held at zero */
    ABL_MASK,  /* every token sees the whole sequence */
    ABL_HEADS, /* one head of width d instead of two */
    ABL_WO,    /* W_o held at the identity: head j writes to its own dk coordinates */
    ABL_SKIPS, /* both skips left out */
    ABL_NORMS, /* both norms left out */
    ABL_MLP,   /* the MLP adds nothing: W2 and b2 held at zero */
    ABL_BARE,  /* the MLP and the norms both out: attention is the only nonlinearity */
    N_ABL
} t2_part;

/* One row of T2's map: the part, the step of the derivation that asked for it, why. */
static const struct {
    const char *part, *step, *why;
} MAP[N_ABL] = {
    [ABL_NONE] = {"(nothing: the whole block)", "", ""},
    [ABL_ATTN] = {"attention over the past", "ch01 R3", "a memory that grows"},
    [ABL_SCORE] = {"query-key score", "ch02 D2, ch04-06", "weights from x_L and x_i"},
    [ABL_MASK] = {"causal mask", "ch07 S4", "no peeking at the future"},
    [ABL_HEADS] = {"two heads (one of width d)", "ch03 F3, ch08 H1", "several weight patterns"},
    [ABL_WO] = {"W_o (the identity)", "ch08 H1-H3", "a head writes anywhere"},
    [ABL_SKIPS] = {"both skips", "ch02 (given); T3", "the stream keeps its input"},
    [ABL_NORMS] = {"both layer norms", "T3", "the stream kept in range"},
    [ABL_MLP] = {"MLP", "ch09 M1-M3", "a nonlinear memory"},
    [ABL_BARE] = {"MLP and norms", "", "attention's own nonlinearity"},
};

#define T2_HEADS 2
#define T2_HIDDEN 16
#define T2_TRAIN 256 /* training sequences */
#define T2_TEST 64   /* held-out sequences */
#define T2_BATCH 4
#define T2_STEPS 400
#define T2_RUNS 2
#define T2_FAILS 0.8 /* accuracy at most this: the task fails (chance 0.5) */

/* the tensors held fixed when part a is out, as block_tensors numbers them (W_q 0,
 * W_o 3, W2 8, b2 9) -> k[], and how many */
static size_t held(t2_part a, size_t k[2])
{
    int mlp = a == ABL_MLP || a == ABL_BARE;
    k[0] = a == ABL_SCORE ? 0 : mlp ? 8 : 3;
    k[1] = 9;
    return mlp ? 2 : a == ABL_ATTN || a == ABL_SCORE || a == ABL_WO ? 1 : 0;
}

/* a learner of T2's task with part a taken out, its held tensors set */
static learn_block *ablated_learner(scope *sc, t2_part a, gsl_rng *rng)
{
    learn_block *m = SCOPE_KEEP(sc, learn_block_new(TASK_D, a == ABL_HEADS ? 1 : T2_HEADS, T2_HIDDEN,
                                                    2, 0.02, rng),
                                learn_block_free);
    block_weights *w = learn_block_weights(m);
    w->see_future = a == ABL_MASK;
    w->no_skips = a == ABL_SKIPS;
    w->no_norms = a == ABL_NORMS || a == ABL_BARE;
    size_t k[2], n = held(a, k);
    gsl_matrix *first = k[0] == 0 ? w->attn->Wq : k[0] == 3 ? w->attn->Wo : w->mlp->W2;
    if (n && a == ABL_WO)
        gsl_matrix_set_identity(first);
    else if (n)
        gsl_matrix_set_zero(first);
    if (n == 2)
        gsl_vector_set_zero(w->mlp->b2);
    for (size_t i = 0; i < n; i++)
        chapter_must(learn_block_freeze(m, k[i]), "holding a tensor");
    return m;
}

/* -> the share of queries in set[0..n) whose class the learner puts on top; train: also
 * add the gradients */
static double task_pass(learn_block *m, const task_example *set, size_t n, int train)
{
    size_t right = 0;
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        chapter_must(learn_block_pass(m, set[i].X, set[i].at, set[i].y, KEYS, train, NULL, &r),
                     "T2's learner");
        right += r;
    }
    return (double)right / (double)(n * KEYS);
}

/* part a out, trained on kind k -> held-out accuracy; *early: the same read one token
 * before each query (a measurement's off-by-one), or NULL */
static double t2_run(const task_kind *k, t2_part a, unsigned long seed, double *early)
{
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(seed));
    task_example *train = scope_keep_object(sc, calloc(T2_TRAIN, sizeof *train), free);
    task_example *test = scope_keep_object(sc, calloc(T2_TEST, sizeof *test), free);
    for (size_t i = 0; i < T2_TRAIN; i++)
        task_example_new(sc, k, rng, &train[i]);
    for (size_t i = 0; i < T2_TEST; i++)
        task_example_new(sc, k, rng, &test[i]);
    learn_block *m = ablated_learner(sc, a, rng);
    for (size_t step = 0; step < T2_STEPS; step++) {
        size_t b = gsl_rng_uniform_int(rng, T2_TRAIN / T2_BATCH) * T2_BATCH;
        task_pass(m, &train[b], T2_BATCH, 1);
        chapter_must(learn_block_step(m), "an Adam step");
    }
    double accuracy = task_pass(m, test, T2_TEST, 0);
    for (size_t i = 0; i < T2_TEST && early; i++)
        for (size_t q = 0; q < KEYS; q++)
            test[i].at[q]--;
    if (early)
        *early = task_pass(m, test, T2_TEST, 0);
    scope_close(sc);
    return accuracy;
}

typedef struct {
    double lo[N_ABL], hi[N_ABL], mean[N_ABL]; /* held-out accuracy over the runs */
    double early;                              /* the whole block read one token early */
    double near[N_ABL];                        /* highest accuracy on the near-miss task */
} t2_result;

/* the task without the reason for part a, or NULL when T2 has no near miss for it */
static const task_kind *near_miss_task(t2_part a)
{
    static const task_kind in_query = {KEYS, 1, 0, 1}, one_key = {1, 1, 1, 1},
                           nothing_later = {KEYS, 0, 1, 1};
    return a == ABL_ATTN    ? &in_query
           : a == ABL_SCORE ? &one_key
           : a == ABL_MASK  ? &nothing_later
                            : NULL;
}

static void t2_experiment(const invent_opts *o, t2_result *res)
{
    for (int a = 0; a < N_ABL; a++) {
        double acc[T2_RUNS], early[T2_RUNS];
        res->near[a] = 0.0;
        for (int j = 0; j < T2_RUNS; j++) {
            unsigned long seed = o->seed * 1009UL + (unsigned long)j;
            acc[j] = t2_run(&FULL_TASK, (t2_part)a, seed, a == ABL_NONE ? &early[j] : NULL);
            if (near_miss_task((t2_part)a))
                res->near[a] = fmax(res->near[a],
                                    t2_run(near_miss_task((t2_part)a), (t2_part)a, seed, NULL));
        }
        res->lo[a] = gsl_stats_min(acc, 1, T2_RUNS);
        res->hi[a] = gsl_stats_max(acc, 1, T2_RUNS);
        res->mean[a] = gsl_stats_mean(acc, 1, T2_RUNS);
        if (a == ABL_NONE)
            res->early = gsl_stats_max(early, 1, T2_RUNS);
    }
}

/* what the runs say about part a: every run fails, every run solves, or between */
static const char *verdict(const t2_result *res, t2_part a)
{
    return res->hi[a] <= T2_FAILS ? "needed" : res->lo[a] >= 0.95 ? "not needed here" : "partly";
}

static void t2_table(const invent_opts *o, const t2_result *res)
{
    report_line(o, "  %-27s %-17s %-29s %-13s %s", "taken out", "step", "what it is for",
                "accuracy", "");
    for (int a = 0; a < N_ABL; a++)
        report_line(o, "  %-27s %-17s %-29s %.2f-%.2f     %s", MAP[a].part, MAP[a].step,
                    MAP[a].why, res->lo[a], res->hi[a],
                    a == ABL_NONE ? "" : verdict(res, (t2_part)a));
    report_line(o, "  (held-out accuracy of the read-out at the queries, lowest-highest over %d "
                   "trained runs; chance 0.5)", T2_RUNS);
    report_line(o, "%s", "");
}

static void t2_checks(const t2_result *res)
{
    check_at_least("T2", "trained, the whole block solves the task (lowest held-out accuracy)",
                   res->lo[ABL_NONE], 0.95);
    check_control("T2", "the same trained blocks read one token before each query");
    check_at_least("T2", NULL, res->early, 0.95);
    static const struct {
        t2_part a;
        const char *claim, *control;
    } needed[] = {
        {ABL_ATTN, "without attention, trained, the block fails: it cannot reach the stored "
                   "bit (highest accuracy)", "the same on a task whose query carries v itself"},
        {ABL_SCORE, "without the query-key score (every visible token weighs the same) it "
                    "fails: it cannot pick the key's memory (highest accuracy)",
         "the same on a task with one key"},
        {ABL_MASK, "without the causal mask it fails: the memory after the query answers the "
                   "opposite (highest accuracy)", "the same on a task without a later memory"},
    };
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++) {
        check_at_most("T2", needed[k].claim, res->hi[needed[k].a], T2_FAILS);
        check_control("T2", needed[k].control);
        check_at_most("T2", NULL, res->near[needed[k].a], T2_FAILS);
    }
}

/* T2: the map, and each part taken out of a block that is then trained */
static void map_section(const invent_opts *o)
{
    report_section(o, "T2: where each piece came from, and what needs it");
    report_text(o, "Each part of the block answers a need that an earlier step ran into. To "
                   "see the needs, a block (d = %d, %d heads, m = %d, post-norm as above) with "
                   "a linear read-out is trained with Adam on a task built for them: after a "
                   "start token, %d keys each bring a memory (the key and a bit v), later a "
                   "query (the key and its own bit s), and after the query a second memory "
                   "of the key with the opposite bit. At every query the read-out must say "
                   "v * s, for the v stored before the query. There are no positions: before "
                   "and after differ only through the mask. Each part is taken out in turn "
                   "and the rest trained the same way (%d steps, %d runs): held at zero or at "
                   "the identity where it is a matrix, left out where it is a skip, a norm or "
                   "the mask. A part is needed when every run fails (at most %.1f), not "
                   "needed when every run solves it (at least 0.95).",
                TASK_D, T2_HEADS, T2_HIDDEN, KEYS, T2_STEPS, T2_RUNS, T2_FAILS);
    t2_result res = {0};
    t2_experiment(o, &res);
    t2_table(o, &res);
    t2_checks(&res);
    report_text(o, "Attention, its score and the mask are needed, each for the reason the "
                   "task was built around, and each near miss shows it: on a task without "
                   "that reason the same reduced block learns (%.2f, %.2f, %.2f).",
                res.near[ABL_ATTN], res.near[ABL_SCORE], res.near[ABL_MASK]);
    int bare = res.lo[ABL_BARE] >= 0.95, one = res.lo[ABL_HEADS] >= 0.95;
    int wo = res.lo[ABL_WO] >= 0.95;
    report_text(o, "The rest is not asked for by this task, and the trained blocks say which. "
                   "With the MLP out the accuracy is %.2f-%.2f (%s); with the MLP and both "
                   "norms out, %.2f-%.2f (%s). %s One head of width d gives %.2f-%.2f (%s)%s "
                   "W_o held at the identity gives %.2f-%.2f (%s)%s The skips give %.2f-%.2f "
                   "(%s) and the norms %.2f-%.2f (%s) in one block; their reasons, a deep "
                   "stack that still trains and a stream kept in range, are T3's. The scale "
                   "1/sqrt(dk) is not taken out: its reason, a softmax that does not saturate "
                   "as dk grows, is not one that a block with dk = %d meets, and chapter 7's "
                   "S7 shows it where it applies.",
                res.lo[ABL_MLP], res.hi[ABL_MLP], verdict(&res, ABL_MLP), res.lo[ABL_BARE],
                res.hi[ABL_BARE], verdict(&res, ABL_BARE),
                bare ? "So the product v * s comes from attention itself: v sits in the "
                       "memory, s in the query, and the score x_L^T A x_i can hold their "
                       "product (chapter 4's I3, chapter 12's L3); a task that needs the MLP "
                       "must ask for a memory kept in the weights (chapter 9), which this one "
                       "does not."
                     : "Without them the product v * s is not always found.",
                res.lo[ABL_HEADS], res.hi[ABL_HEADS], verdict(&res, ABL_HEADS),
                one ? ": one weight pattern per query is all this task needs." : ".",
                res.lo[ABL_WO], res.hi[ABL_WO], verdict(&res, ABL_WO),
                wo ? ": each head's W_v writes where the read-out looks, as chapter 8 found "
                     "(H2: W_o folds into the values; keeping it apart buys work)."
                   : ".",
                res.lo[ABL_SKIPS], res.hi[ABL_SKIPS], verdict(&res, ABL_SKIPS),
                res.lo[ABL_NORMS], res.hi[ABL_NORMS], verdict(&res, ABL_NORMS),
                TASK_D / T2_HEADS);
}

/* ---------------------------------------------------------------------- T3 */

#define DEPTHS 6      /* T3: stacks of 1, 2, 4, ..., 32 blocks */
#define DEPTH_RUNS 4  /* T3: random stacks per depth (geometric means over them) */
#define TRAIN_LEVEL 4 /* T3: the stack trained is 2^4 = 16 blocks deep */
#define TRAIN_STEPS 100
#define TRAIN_BATCH 4

/* the stacks T3 compares: the claim's, its near miss, and the original placement */
typedef enum { PRE_SKIPS, PRE_NO_SKIPS, PRE_NO_NORMS, POST_SKIPS, STACK_KINDS } stack_kind;

static const char *const stack_names[STACK_KINDS] = {
    "pre-norm, skips", "pre-norm, no skips", "skips, no norms", "post-norm, skips"};

/* L blocks, each with its gradient, trace and scratch, and the input of every block */
typedef struct {
    size_t L;
    block_weights **w, **g;
    block_trace **tr;
    block_work **work;
    gsl_matrix **in; /* L + 1: in[l] enters block l, in[L] is the output */
    gsl_matrix *dX;  /* (T, d): the gradient entering a block */
} stack;

/* calloc(n, size), freed with sc */
static void *scope_calloc(scope *sc, size_t n, size_t size)
{
    return scope_keep_object(sc, calloc(n, size), free);
}

/* L random blocks of kind k for T tokens */
static stack *stack_new(scope *sc, size_t L, size_t T, const sizes *s, stack_kind k,
                        gsl_rng *rng)
{
    stack *st = scope_calloc(sc, 1, sizeof *st);
    st->L = L;
    st->w = scope_calloc(sc, L, sizeof *st->w);
    st->g = scope_calloc(sc, L, sizeof *st->g);
    st->tr = scope_calloc(sc, L, sizeof *st->tr);
    st->work = scope_calloc(sc, L, sizeof *st->work);
    st->in = scope_calloc(sc, L + 1, sizeof *st->in);
    for (size_t l = 0; l < L; l++) {
        st->w[l] = SCOPE_KEEP(sc, block_new(s->dim, s->heads, s->hidden, rng), block_free);
        st->g[l] = SCOPE_KEEP(sc, block_new(s->dim, s->heads, s->hidden, rng), block_free);
        st->w[l]->norm = k == POST_SKIPS ? BLOCK_POST_NORM : BLOCK_PRE_NORM;
        st->w[l]->no_skips = k == PRE_NO_SKIPS;
        st->w[l]->no_norms = k == PRE_NO_NORMS;
        st->tr[l] = SCOPE_KEEP(sc, block_trace_new(T, st->w[l]), block_trace_free);
        st->work[l] = SCOPE_KEEP(sc, block_work_new(T, st->w[l]), block_work_free);
    }
    for (size_t l = 0; l <= L; l++)
        st->in[l] = scope_matrix(sc, T, s->dim);
    st->dX = scope_matrix(sc, T, s->dim);
    return st;
}

/* X: (T, d) -> st->in[L]: the stack's output */
static void stack_forward(stack *st, const gsl_matrix *X)
{
    gsl_matrix_memcpy(st->in[0], X);
    for (size_t l = 0; l < st->L; l++)
        chapter_must(block_forward(st->w[l], st->in[l], st->tr[l], st->in[l + 1]), "a stack");
}

/* dY: (T, d) at the output, consumed -> every block's gradient added to st->g */
static void stack_backward(stack *st, gsl_matrix *dY)
{
    for (size_t l = st->L; l-- > 0;) {
        gsl_matrix_set_zero(st->dX);
        chapter_must(block_backward(st->w[l], st->in[l], st->tr[l], dY, st->g[l], st->dX,
                                    st->work[l]), "a stack's backward pass");
        gsl_matrix_memcpy(dY, st->dX);
    }
}

static void stack_zero_grad(stack *st)
{
    for (size_t l = 0; l < st->L; l++)
        block_set_zero(st->g[l]);
}

/* -> the norm of a block's gradient, all 12 tensors together */
static double block_grad_norm(block_weights *g)
{
    gsl_vector_view v[BLOCK_TENSORS];
    block_tensors(g, v);
    double sum = 0.0;
    for (int k = 0; k < BLOCK_TENSORS; k++)
        sum += pow(gsl_blas_dnrm2(&v[k].vector), 2);
    return sqrt(sum);
}

/* M: (T, d) <- M minus its mean row: what tells the tokens apart */
static void centre_rows(gsl_matrix *M)
{
    for (size_t i = 0; i < M->size2; i++) {
        gsl_vector_view c = gsl_matrix_column(M, i);
        double mean = 0.0;
        for (size_t t = 0; t < M->size1; t++)
            mean += gsl_vector_get(&c.vector, t) / (double)M->size1;
        gsl_vector_add_constant(&c.vector, -mean);
    }
}

/* Y: (T, d) -> ||Y - mean row|| / ||Y||: how different the tokens still are */
static double token_spread(const gsl_matrix *Y)
{
    gsl_matrix *C = mat_clone(Y);
    if (!C)
        scope_out_of_memory("a token spread");
    centre_rows(C);
    double spread = mat_frobenius(C) / mat_frobenius(Y);
    gsl_matrix_free(C);
    return spread;
}

/* every weight of the stack moves rate along minus its whole gradient, normalised (one
 * step of fixed length, which no depth can make diverge) */
static void stack_step(stack *st, double rate)
{
    double total = 0.0;
    for (size_t l = 0; l < st->L; l++)
        total += pow(block_grad_norm(st->g[l]), 2);
    for (size_t l = 0; l < st->L && total > 0.0; l++) {
        gsl_vector_view v[BLOCK_TENSORS], g[BLOCK_TENSORS];
        block_tensors(st->w[l], v);
        block_tensors(st->g[l], g);
        for (int k = 0; k < BLOCK_TENSORS; k++)
            gsl_blas_daxpy(-rate / sqrt(total), &g[k].vector, &v[k].vector);
    }
}

typedef struct {
    double grad[STACK_KINDS][DEPTHS];   /* block 1's gradient, over a single block's */
    double spread[STACK_KINDS][DEPTHS]; /* token spread of the output */
    double size[STACK_KINDS][DEPTHS];   /* the output's size over the input's */
    double explained[STACK_KINDS];      /* share of the target's token variation learned */
} depth_result;

/* the token-distinguishing share of a batch's targets that the stack has learned:
 * 1 - ||centred (Y - target)||^2 / ||centred target||^2, summed over the batch */
static double explained_share(stack *st, gsl_matrix *const *X, gsl_matrix *const *target,
                              gsl_matrix *dY, int train)
{
    double miss = 0.0, all = 0.0;
    for (int b = 0; b < TRAIN_BATCH; b++) {
        stack_forward(st, X[b]);
        gsl_matrix_memcpy(dY, st->in[st->L]);
        gsl_matrix_sub(dY, target[b]);
        centre_rows(dY);
        miss += pow(mat_frobenius(dY), 2);
        gsl_matrix *c = mat_clone(target[b]);
        centre_rows(c);
        all += pow(mat_frobenius(c), 2);
        gsl_matrix_free(c);
        if (train)
            stack_backward(st, dY);
    }
    return 1.0 - miss / all;
}

/* TRAIN_STEPS steps of the 16-block stack of kind k on one batch: each token's target
 * is a fixed linear map of it, X M -> the share explained at the end */
static double depth_training(const sizes *s, stack_kind k, gsl_rng *rng)
{
    scope *sc = scope_open();
    size_t T = s->seq, d = s->dim;
    stack *st = stack_new(sc, (size_t)1 << TRAIN_LEVEL, T, s, k, rng);
    gsl_matrix *M = scope_keep_matrix(sc, mat_gaussian(d, d, 1.0 / sqrt((double)d), rng));
    gsl_matrix *X[TRAIN_BATCH], *target[TRAIN_BATCH], *dY = scope_matrix(sc, T, d);
    for (int b = 0; b < TRAIN_BATCH; b++) {
        X[b] = scope_keep_matrix(sc, mat_gaussian(T, d, 1.0, rng));
        target[b] = scope_keep_matrix(sc, mat_product(X[b], CblasNoTrans, M, CblasNoTrans));
    }
    for (int step = 0; step < TRAIN_STEPS; step++) {
        stack_zero_grad(st);
        explained_share(st, X, target, dY, 1);
        stack_step(st, 0.05);
    }
    double share = explained_share(st, X, target, dY, 0);
    scope_close(sc);
    return share;
}

/* run j of stack kind k at every depth -> log of block 1's gradient norm and of the
 * output's token spread, for a token-centred random probe */
static void depth_measure(const sizes *s, stack_kind k, gsl_rng *rng, double *log_grad,
                          double *log_spread, double *log_size)
{
    scope *sc = scope_open();
    size_t T = s->seq;
    gsl_matrix *X = scope_keep_matrix(sc, mat_gaussian(T, s->dim, 1.0, rng));
    gsl_matrix *R = scope_keep_matrix(sc, mat_gaussian(T, s->dim, 1.0, rng));
    gsl_matrix *dY = scope_matrix(sc, T, s->dim);
    centre_rows(R);
    for (size_t level = 0; level < DEPTHS; level++) {
        stack *st = stack_new(sc, (size_t)1 << level, T, s, k, rng);
        stack_forward(st, X);
        gsl_matrix_memcpy(dY, R);
        stack_zero_grad(st);
        stack_backward(st, dY);
        log_grad[level] = log(block_grad_norm(st->g[0]));
        log_spread[level] = log(token_spread(st->in[st->L]));
        log_size[level] = log(mat_frobenius(st->in[st->L]) / mat_frobenius(X));
    }
    scope_close(sc);
}

/* every stack kind, DEPTH_RUNS random stacks per depth, then the training runs */
static void depth_experiment(const invent_opts *o, const sizes *s, depth_result *res)
{
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(o->seed * 7919UL + 17));
    for (int k = 0; k < STACK_KINDS; k++) {
        double lg[DEPTHS] = {0}, ls[DEPTHS] = {0}, lz[DEPTHS] = {0};
        for (int j = 0; j < DEPTH_RUNS; j++) {
            double g[DEPTHS], sp[DEPTHS], z[DEPTHS];
            depth_measure(s, (stack_kind)k, rng, g, sp, z);
            for (int l = 0; l < DEPTHS; l++) {
                lg[l] += (g[l] - g[0]) / DEPTH_RUNS;
                ls[l] += sp[l] / DEPTH_RUNS;
                lz[l] += z[l] / DEPTH_RUNS;
            }
        }
        for (int l = 0; l < DEPTHS; l++) {
            res->grad[k][l] = exp(lg[l]);
            res->spread[k][l] = exp(ls[l]);
            res->size[k][l] = exp(lz[l]);
        }
        res->explained[k] = depth_training(s, (stack_kind)k, rng);
    }
    scope_close(sc);
}

/* one measure of every stack kind over depth: (STACK_KINDS, DEPTHS) */
static void depth_rows(const invent_opts *o, const char *title, double v[][DEPTHS])
{
    report_line(o, "  %s", title);
    report_line(o, "    %6s  %9s %9s %9s %9s", "blocks", "pre-norm", "no skips", "no norms",
                "post-norm");
    for (int l = 0; l < DEPTHS; l++)
        report_line(o, "    %6d  %9.3g %9.3g %9.3g %9.3g", 1 << l, v[PRE_SKIPS][l],
                    v[PRE_NO_SKIPS][l], v[PRE_NO_NORMS][l], v[POST_SKIPS][l]);
}

static void depth_table(const invent_opts *o, depth_result *res)
{
    depth_rows(o, "block 1's gradient, over a single block's", res->grad);
    depth_rows(o, "token spread of the output", res->spread);
    depth_rows(o, "size of the output, over the input's", res->size);
    report_line(o, "  (geometric means over %d random stacks per depth)", DEPTH_RUNS);
    report_line(o, "%s", "");
    for (int k = 0; k < STACK_KINDS; k++)
        report_line(o, "  trained, %d blocks, %-20s share of the targets' token variation "
                       "learned: %.3g", 1 << TRAIN_LEVEL, stack_names[k], res->explained[k]);
    report_line(o, "%s", "");
}

static void depth_checks(const depth_result *res)
{
    const int deep = DEPTHS - 1;
    check_at_least("T3", "with skips, the gradient that reaches block 1 of 32 does not vanish: "
                   "at least 1/10 of a single block's (ratio, pre-norm)",
                   res->grad[PRE_SKIPS][deep], 0.1);
    check_control("T3", "the same 32 blocks with their skips left out");
    check_at_least("T3", NULL, res->grad[PRE_NO_SKIPS][deep], 0.1);
    check_at_least("T3", "with skips, the 32 blocks' output still tells the tokens apart "
                   "(token spread)", res->spread[PRE_SKIPS][deep], 0.1);
    check_control("T3", "the same 32 blocks with their skips left out");
    check_at_least("T3", NULL, res->spread[PRE_NO_SKIPS][deep], 0.1);
    check_at_least("T3", "with skips, 100 steps teach 16 blocks most of a per-token linear "
                   "map (share of the token variation learned)", res->explained[PRE_SKIPS],
                   0.5);
    check_control("T3", "the same 16 blocks with their skips left out");
    check_at_least("T3", NULL, res->explained[PRE_NO_SKIPS], 0.5);
    check_at_most("T3", "with the norms, the stream of 32 blocks stays in range: its size "
                  "within a factor 100 of the input's (ratio)", res->size[PRE_SKIPS][deep],
                  100.0);
    check_control("T3", "the same 32 blocks, skips kept, norms left out");
    check_at_most("T3", NULL, res->size[PRE_NO_NORMS][deep], 100.0);
}

/* T3: gradients and tokens through depth, with and without the skips */
static void depth_section(const invent_opts *o)
{
    const sizes small = {.dim = 16, .heads = 2, .hidden = 32, .seq = 8}, *s = &small;
    report_section(o, "T3: why the skips: a deep stack stays trainable");
    report_text(o, "Stacks of 1 to 32 random blocks (d = %zu, %zu heads, m = %zu, T = %zu "
                   "tokens, whatever the sizes above), each block with its "
                   "norm before each sublayer (pre-norm: Y = R + MLP(LN(R)), R = X + "
                   "MHA(LN(X)), as in GPT-2), with and without the two skips; Vaswani's "
                   "post-norm block is shown beside them. A random probe on the output, "
                   "centred over the tokens (the part of any loss that asks the tokens to "
                   "differ), is sent back, and the gradient that reaches block 1 is measured; "
                   "so is how different the output tokens still are (the norm of the output "
                   "minus its mean token, over the output's norm), and how large the output "
                   "is against the input. A third stack keeps the skips and leaves the norms "
                   "out. Then %d-block stacks get "
                   "%d steps of normalised gradient descent on %d sequences whose target is "
                   "a fixed linear map of each token.",
                s->dim, s->heads, s->hidden, s->seq, 1 << TRAIN_LEVEL, TRAIN_STEPS, TRAIN_BATCH);
    depth_result res;
    depth_experiment(o, s, &res);
    depth_table(o, &res);
    depth_checks(&res);
    const int deep = DEPTHS - 1;
    report_text(o, "Without skips, the stack forgets its input: every block averages the "
                   "tokens it attends to, and nothing carries the differences past it, so at "
                   "32 blocks the output tokens differ by %.1e of their size (the rank "
                   "collapse of Dong, Cordonnier and Loukas, 2021), the gradient that reaches "
                   "block 1 is %.1e of a single block's, and the share of the targets' "
                   "token variation that training learns is %.2g. The norms keep every signal in range, but they "
                   "cannot bring back what was averaged away. With the skips, each block adds "
                   "to a stream that still holds its input (the y_j = x_j + ... that chapter 2 "
                   "took as given, the MLP that adds instead of replacing of chapter 9): the "
                   "gradient reaches block 1 at %.2f of a single block's, and training learns "
                   "%.2f.",
                res.spread[PRE_NO_SKIPS][deep], res.grad[PRE_NO_SKIPS][deep],
                res.explained[PRE_NO_SKIPS], res.grad[PRE_SKIPS][deep],
                res.explained[PRE_SKIPS]);
    report_text(o, "The norms are the other half. Skips without norms add each block's output "
                   "to a stream that nothing rescales: at 32 blocks it is %.2g times the "
                   "input's size (%.2g with the norms), the gradient at block 1 %.2g times a "
                   "single block's, and the share training learns is %.3g. Vaswani's post-norm block puts "
                   "a norm on the skip path itself; at 32 blocks its tokens keep a spread of "
                   "%.2g and its share learned is %.2f, which is why deep models moved the norm inside "
                   "the branch (Xiong et al., 2020).",
                res.size[PRE_NO_NORMS][deep], res.size[PRE_SKIPS][deep],
                res.grad[PRE_NO_NORMS][deep], res.explained[PRE_NO_NORMS],
                res.spread[POST_SKIPS][deep], res.explained[POST_SKIPS]);
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
    map_section(&o);
    depth_section(&o);
    scope_close(sc);
    return chapter_close(&o, dump_failed ? CHAPTER_EXIT_RUNTIME : 0,
                         "The block is the real thing, derived one need at a time. Chapter 11 "
                         "asks what it costs, and what alternatives give up; chapter 12 lets it "
                         "learn.");
}
