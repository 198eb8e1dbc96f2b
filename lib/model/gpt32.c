#include "gpt32.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "additive32.h"
#include "attn_train.h"
#include "gemm32.h"
#include "layers32.h"
#include "status.h"
#include "workers.h"

/* One layer's activations, (B*T) rows each, and the final ones. */
typedef struct {
    float *out1, *mean1, *rstd1; /* norm 1: (n, C), (n), (n) */
    float *qkv;                  /* (n, W): queries, keys, values (attn_train_width) */
    float *atty;                 /* (n, C) the heads' outputs, concatenated */
    float *lse;                  /* (B, H, T) each query's log-sum-exp (base 2; additive: e) */
    float *A;                    /* (n, C) after W_o */
    float *R1;                   /* (n, C) the first skip */
    float *out2, *mean2, *rstd2; /* norm 2 (pre-norm only) */
    float *F;                    /* (n, m) the MLP's activations, ReLU(h W_1^T + b_1) */
    float *M;                    /* (n, C) the MLP's output */
    float *R2;                   /* (n, C) post-norm: the second skip, norm 2's input */
    float *packed[4];            /* W_qkv, W_o, W_1, W_2 packed for the forward products */
} layer_acts;

struct gpt32_acts {
    float *X;                     /* (L + 1, n, C): the stream into each block, and out */
    layer_acts *layer;            /* (L) */
    float *Hf, *meanf, *rstdf;    /* the final norm */
    float *logits, *probs;        /* (n, V) */
    double *row_loss;             /* (n) each position's loss */
    float *dX, *dX2, *dR1, *dH, *dN, *datty; /* (n, C) each: gradients on the way back */
    float *dqkv, *dZ;             /* (n, W), (n, m): at the ReLU's input */
    float *dlogits;               /* (n, V) */
    float *attn;                  /* the attention's scratch */
    float *packed_out;            /* the read-out's W packed for its forward product */
    linear32_ctx mm;              /* the products' scratch and threads */
    float *block;                 /* every array above, one allocation */
};

/* *at: floats carved so far -> base + *at, then *at += count (base NULL: only counts) */
static float *carve(float *base, size_t *at, size_t count)
{
    float *p = base ? base + *at : NULL;
    *at += (count + 15) / 16 * 16;
    return p;
}

/* m -> the attention's shape: m's batch, heads, mask and variant */
static attn_train_shape attn_shape_of(const gpt32 *m)
{
    return (attn_train_shape){m->B, m->T, m->shape.heads, m->shape.dim / m->shape.heads,
                              m->see_future, m->v.dk, m->v.scale};
}

/* which: 0..3, W_qkv, W_o, W_1, W_2 -> *k: its inputs, *rows: its outputs */
static void weight_shape(const gpt32 *m, int which, size_t *k, size_t *rows)
{
    attn_train_shape as = attn_shape_of(m);
    size_t C = m->shape.dim, hid = m->shape.hidden;
    const size_t ks[4] = {C, C, C, hid}, out[4] = {attn_train_width(&as), C, hid, C};
    *k = ks[which], *rows = out[which];
}

/* every activation array of m carved from base (NULL: only counted) -> floats used */
static size_t carve_acts(gpt32 *m, gpt32_acts *a, float *base)
{
    const gpt_shape *s = &m->shape;
    size_t n = m->B * m->T, C = s->dim, L = s->layers, at = 0, hid = s->hidden;
    attn_train_shape as = attn_shape_of(m);
    size_t W = attn_train_width(&as);
    a->X = carve(base, &at, (L + 1) * n * C);
    for (size_t l = 0; l < L; l++) {
        layer_acts *la = &a->layer[l];
        la->out1 = carve(base, &at, n * C), la->mean1 = carve(base, &at, n);
        la->rstd1 = carve(base, &at, n), la->qkv = carve(base, &at, n * W);
        la->atty = carve(base, &at, n * C), la->lse = carve(base, &at, n * s->heads);
        la->A = carve(base, &at, n * C), la->R1 = carve(base, &at, n * C);
        la->out2 = carve(base, &at, n * C), la->mean2 = carve(base, &at, n);
        la->rstd2 = carve(base, &at, n);
        la->F = carve(base, &at, n * hid), la->M = carve(base, &at, n * C);
        la->R2 = carve(base, &at, n * C);
        for (int w = 0; w < 4; w++) {
            size_t k, rows;
            weight_shape(m, w, &k, &rows);
            la->packed[w] = carve(base, &at, gemm32_scratch(rows, k));
        }
    }
    a->packed_out = carve(base, &at, gemm32_scratch(s->vocab, C));
    a->Hf = carve(base, &at, n * C), a->meanf = carve(base, &at, n);
    a->rstdf = carve(base, &at, n), a->logits = carve(base, &at, n * s->vocab);
    a->probs = carve(base, &at, n * s->vocab), a->dlogits = carve(base, &at, n * s->vocab);
    a->row_loss = (double *)carve(base, &at, 2 * n); /* 64-byte aligned, room for n doubles */
    float **d[] = {&a->dX, &a->dX2, &a->dR1, &a->dH, &a->dN, &a->datty};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
        *d[k] = carve(base, &at, n * C);
    a->dqkv = carve(base, &at, n * W);
    a->dZ = carve(base, &at, n * hid);
    size_t attn = m->v.score == GPT32_ADDITIVE ? additive32_scratch(&as, m->workers)
                                               : attn_train_scratch(&as, m->workers);
    a->attn = carve(base, &at, attn);
    size_t widest = W > hid ? W : hid; /* every product's N, and K but n */
    widest = widest > s->vocab ? widest : s->vocab;
    a->mm.scratch = carve(base, &at, gemm32_scratch(widest, n > widest ? n : widest));
    a->mm.workers = m->workers;
    return at;
}

static gpt32_acts *acts_new(gpt32 *m)
{
    gpt32_acts *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->layer = calloc(m->shape.layers, sizeof *a->layer);
    size_t floats = a->layer ? carve_acts(m, a, NULL) : 0;
    a->block = floats ? aligned_alloc(64, floats * sizeof(float)) : NULL;
    if (!a->block) {
        free(a->layer);
        free(a);
        return NULL;
    }
    memset(a->block, 0, floats * sizeof(float));
    carve_acts(m, a, a->block);
    return a;
}

static void acts_free(gpt32_acts *a)
{
    if (!a)
        return;
    free(a->block);
    free(a->layer);
    free(a);
}

gpt32 *gpt32_new(const gpt_shape *s, size_t B, size_t T)
{
    return gpt32_new_variant(s, &(gpt32_variant){0}, B, T);
}

/* t: gpt_layout(s)'s list -> every block's W_q and W_k given H dk rows; -> numbers in all */
static size_t widen_layout(const gpt_shape *s, size_t dk, tensor_ref *t)
{
    for (size_t l = 0; dk && l < s->layers; l++)
        for (size_t k = 2 + BLOCK_TENSORS * l; k < 4 + BLOCK_TENSORS * l; k++)
            t[k].shape[0] = s->heads * dk, t[k].size = s->heads * dk * s->dim;
    return tensors_numbers(t, gpt_tensor_count(s));
}

/* t: (2 L) -> every block's additive b and v, (H, dh) each, named as ablation.c
 * names them (v a weight that decays, b a bias); -> numbers in all */
static size_t additive_layout(const gpt_shape *s, tensor_ref *t)
{
    size_t H = s->heads, dh = s->dim / H;
    for (size_t k = 0; k < 2 * s->layers; k++) {
        t[k] = (tensor_ref){.ndim = 2, .shape = {H, dh}, .size = H * dh, .decay = k % 2};
        snprintf(t[k].name, sizeof t[k].name, "l%zu.add_%c", k / 2, k % 2 ? 'v' : 'b');
    }
    return 2 * s->layers * H * dh;
}

/* v -> is it a variant this path has? */
static int variant_ok(const gpt_shape *s, const gpt32_variant *v)
{
    int additive = v->score == GPT32_ADDITIVE;
    return (v->score == GPT32_DOT || additive) && v->scale >= 0.0f && isfinite(v->scale) &&
           (!additive || (v->scale == 0.0f && (v->dk == 0 || v->dk == s->dim / s->heads)));
}

gpt32 *gpt32_new_variant(const gpt_shape *s, const gpt32_variant *v, size_t B, size_t T)
{
    int workers;
    if (s->heads == 0 || s->dim % s->heads != 0 || s->vocab == 0 || s->layers == 0 ||
        s->hidden == 0 || B == 0 || T == 0 || T > s->context || !variant_ok(s, v) ||
        workers_get(&workers) != 0)
        return NULL;
    gpt32 *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    size_t plain = gpt_tensor_count(s), additive = v->score == GPT32_ADDITIVE;
    *m = (gpt32){.shape = *s, .B = B, .T = T, .count = plain + 2 * s->layers * additive,
                 .eps = 1e-5f, .v = *v, .workers = workers};
    m->t = calloc(m->count, sizeof *m->t);
    if (m->t) {
        gpt_layout(s, m->t);
        m->n = widen_layout(s, v->dk, m->t) + (additive ? additive_layout(s, m->t + plain) : 0);
    }
    m->params = m->t ? calloc(m->n, sizeof(float)) : NULL;
    m->grads = m->t ? calloc(m->n, sizeof(float)) : NULL;
    if (!m->t || !m->params || !m->grads || !(m->a = acts_new(m))) {
        gpt32_free(m);
        return NULL;
    }
    for (size_t k = 0, at = 0; k < m->count; at += m->t[k].size, k++)
        m->t[k].value32 = m->params + at, m->t[k].grad32 = m->grads + at;
    return m;
}

void gpt32_free(gpt32 *m)
{
    if (!m)
        return;
    acts_free(m->a);
    free(m->t);
    free(m->params);
    free(m->grads);
    free(m);
}

static int same_shape(const gpt_shape *a, const gpt_shape *b)
{
    return a->vocab == b->vocab && a->context == b->context && a->dim == b->dim &&
           a->heads == b->heads && a->layers == b->layers && a->hidden == b->hidden &&
           a->norm == b->norm;
}

/* w of m's shape -> t: (m->count) w's tensors in m's order (gpt_tensors', then
 * each block's additive b and v); INVENT_ESHAPE when a size differs or w has
 * an additive score where m has none, or none where m has one */
static int tensors_of(const gpt32 *m, const gpt_weights *w, tensor_ref *t)
{
    size_t k = gpt_tensor_count(&m->shape);
    if (!same_shape(&w->shape, &m->shape))
        return INVENT_ESHAPE;
    gpt_tensors((gpt_weights *)w, NULL, t);
    for (size_t l = 0; l < m->shape.layers; l++) {
        const additive_score *a = w->blocks[l]->attn->additive;
        if (!a != (m->v.score != GPT32_ADDITIVE))
            return INVENT_ESHAPE;
        for (int j = 0; a && j < 2; j++, k++) {
            const gsl_matrix *x = j ? a->v : a->b;
            t[k] = (tensor_ref){.value = x->data, .size = x->size1 * x->size2};
        }
    }
    for (k = 0; k < m->count; k++)
        if (t[k].size != m->t[k].size)
            return INVENT_ESHAPE;
    return INVENT_OK;
}

int gpt32_from64(gpt32 *m, const gpt_weights *w)
{
    tensor_ref t[m->count];
    int status = gpt_one_eps(w) ? tensors_of(m, w, t) : INVENT_ERANGE;
    if (status == INVENT_OK)
        m->eps = (float)w->eps;
    for (size_t k = 0; status == INVENT_OK && k < m->count; k++)
        for (size_t i = 0; i < t[k].size; i++)
            m->t[k].value32[i] = (float)t[k].value[i];
    return status;
}

int gpt32_to64(const gpt32 *m, gpt_weights *w)
{
    tensor_ref t[m->count];
    int status = tensors_of(m, w, t);
    if (status != INVENT_OK)
        return status;
    for (size_t k = 0; k < m->count; k++)
        for (size_t i = 0; i < t[k].size; i++)
            t[k].value[i] = (double)m->t[k].value32[i];
    return INVENT_OK;
}

const float *gpt32_logits(const gpt32 *m)
{
    return m->a->logits;
}

const double *gpt32_token_losses(const gpt32 *m)
{
    return m->a->row_loss;
}

/* *status <- next, unless it already holds an error */
static void keep(int *status, int next)
{
    if (*status == INVENT_OK)
        *status = next;
}

/* block l's tensors, values (grad 0) or gradients (grad 1), in layout order;
 * add_b, add_v: its additive score's (NULL without one) */
typedef struct {
    float *Wqkv, *Wo, *g1, *b1n, *W1, *b1, *W2, *b2, *g2, *b2n, *add_b, *add_v;
} block32;

static block32 block_of(const gpt32 *m, size_t l, int grad)
{
    float *p[14] = {0};
    size_t plain = gpt_tensor_count(&m->shape);
    for (size_t k = 0; k < 12; k++)
        p[k] = grad ? m->t[2 + 12 * l + k].grad32 : m->t[2 + 12 * l + k].value32;
    for (size_t k = 0; m->count > plain && k < 2; k++)
        p[12 + k] = grad ? m->t[plain + 2 * l + k].grad32 : m->t[plain + 2 * l + k].value32;
    return (block32){p[0], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13]};
}

/* item 4 l + w: block l's weight w (W_qkv, W_o, W_1, W_2) packed for its forward product;
 * item 4 L: the read-out's (the weights change only between passes: packed once a pass,
 * all on the workers at once) */
static int pack_item(void *ctx, size_t item, int worker)
{
    const gpt32 *m = ctx;
    size_t C = m->shape.dim, L = m->shape.layers, k, rows;
    (void)worker;
    if (item == 4 * L)
        return linear32_pack(C, m->shape.vocab, m->t[2 + 12 * L + 2].value32, m->a->packed_out);
    if (m->v.no_mlp && item % 4 >= 2)
        return INVENT_OK;
    block32 w = block_of(m, item / 4, 0);
    const float *W[4] = {w.Wqkv, w.Wo, w.W1, w.W2};
    weight_shape(m, (int)(item % 4), &k, &rows);
    return linear32_pack(k, rows, W[item % 4], m->a->layer[item / 4].packed[item % 4]);
}

/* in: (n, C) -> la->A: the attention sublayer of block l on in */
static int attention_forward(gpt32 *m, const block32 *w, layer_acts *la, const float *in)
{
    size_t n = m->B * m->T, C = m->shape.dim;
    attn_train_shape as = attn_shape_of(m);
    int status = linear32_forward(&m->a->mm, n, C, attn_train_width(&as), in, w->Wqkv,
                                  la->packed[0], NULL, 0, la->qkv);
    if (m->v.score == GPT32_ADDITIVE)
        keep(&status, additive32_forward(&as, la->qkv, w->add_b, w->add_v, la->atty, la->lse,
                                         m->a->attn, m->workers));
    else
        keep(&status,
             attn_train_forward(&as, la->qkv, la->atty, la->lse, m->a->attn, m->workers));
    keep(&status,
         linear32_forward(&m->a->mm, n, C, C, la->atty, w->Wo, la->packed[1], NULL, 0, la->A));
    return status;
}

/* h: (n, C) -> la->M: the MLP of block l on h (0, never written, without MLPs) */
static int mlp_forward32(const gpt32 *m, const block32 *w, layer_acts *la, const float *h)
{
    size_t n = m->B * m->T, C = m->shape.dim, hid = m->shape.hidden;
    if (m->v.no_mlp)
        return INVENT_OK;
    int status =
        linear32_forward(&m->a->mm, n, C, hid, h, w->W1, la->packed[2], w->b1, 1, la->F);
    keep(&status,
         linear32_forward(&m->a->mm, n, hid, C, la->F, w->W2, la->packed[3], w->b2, 0, la->M));
    return status;
}

/* X: (n, C) -> Y: (n, C), block l with the model's norm placement (block.h) */
static int block_forward32(gpt32 *m, size_t l, const float *X, float *Y)
{
    size_t n = m->B * m->T, C = m->shape.dim;
    block32 w = block_of(m, l, 0);
    layer_acts *la = &m->a->layer[l];
    if (m->shape.norm == BLOCK_PRE_NORM) {
        layernorm32_forward(&m->a->mm, n, C, X, w.g1, w.b1n, m->eps, la->out1, la->mean1,
                            la->rstd1);
        int status = attention_forward(m, &w, la, la->out1);
        residual32_forward(n * C, X, la->A, la->R1);
        layernorm32_forward(&m->a->mm, n, C, la->R1, w.g2, w.b2n, m->eps, la->out2, la->mean2,
                            la->rstd2);
        keep(&status, mlp_forward32(m, &w, la, la->out2));
        residual32_forward(n * C, la->R1, la->M, Y);
        return status;
    }
    int status = attention_forward(m, &w, la, X);
    residual32_forward(n * C, X, la->A, la->R1);
    layernorm32_forward(&m->a->mm, n, C, la->R1, w.g1, w.b1n, m->eps, la->out1, la->mean1,
                        la->rstd1);
    keep(&status, mlp_forward32(m, &w, la, la->out1));
    residual32_forward(n * C, la->out1, la->M, la->R2);
    layernorm32_forward(&m->a->mm, n, C, la->R2, w.g2, w.b2n, m->eps, Y, la->mean2, la->rstd2);
    return status;
}

int gpt32_forward(gpt32 *m, const size_t *x, const size_t *y, double *loss)
{
    const gpt_shape *s = &m->shape;
    size_t n = m->B * m->T, C = s->dim, L = s->layers, k = 2 + 12 * L;
    gpt32_acts *a = m->a;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= s->vocab || (y && y[i] >= s->vocab))
            return INVENT_ERANGE;
    a->mm.workers = m->workers; /* the caller may have changed it since gpt32_new */
    int status = workers_run(4 * L + 1, m->workers, pack_item, m);
    embedding32_forward(m->B, m->T, C, x, m->t[0].value32, m->t[1].value32, a->X);
    for (size_t l = 0; l < L && status == INVENT_OK; l++)
        status = block_forward32(m, l, a->X + l * n * C, a->X + (l + 1) * n * C);
    layernorm32_forward(&a->mm, n, C, a->X + L * n * C, m->t[k].value32, m->t[k + 1].value32,
                        m->eps, a->Hf, a->meanf, a->rstdf);
    keep(&status, linear32_forward(&m->a->mm, n, C, s->vocab, a->Hf, m->t[k + 2].value32,
                                   a->packed_out, m->t[k + 3].value32, 0, a->logits));
    double l = xent32_forward(&a->mm, n, s->vocab, a->logits, y, a->probs, a->row_loss);
    if (loss && y)
        *loss = l;
    return status;
}

/* dA: (n, C) at the attention's output, in: its input -> dIn: (n, C) += (set: =) */
static int attention_backward(gpt32 *m, size_t l, const float *in, const float *dA, float *dIn,
                              int set)
{
    size_t n = m->B * m->T, C = m->shape.dim;
    block32 w = block_of(m, l, 0), g = block_of(m, l, 1);
    layer_acts *la = &m->a->layer[l];
    gpt32_acts *a = m->a;
    attn_train_shape as = attn_shape_of(m);
    size_t W = attn_train_width(&as);
    if (m->v.score == GPT32_ADDITIVE) /* it adds; attn_train_backward writes dqkv */
        memset(a->dqkv, 0, n * W * sizeof(float));
    int status = linear32_backward(&a->mm, n, C, C, la->atty, w.Wo, dA, a->datty, 1, 0, g.Wo, NULL);
    if (m->v.score == GPT32_ADDITIVE)
        keep(&status, additive32_backward(&as, la->qkv, w.add_b, w.add_v, la->atty, la->lse,
                                          a->datty, a->dqkv, g.add_b, g.add_v, a->attn,
                                          m->workers));
    else
        keep(&status, attn_train_backward(&as, la->qkv, la->atty, la->lse, a->datty, a->dqkv,
                                          a->attn, m->workers));
    keep(&status,
         linear32_backward(&a->mm, n, C, W, in, w.Wqkv, a->dqkv, dIn, set, 0, g.Wqkv, NULL));
    return status;
}

/* dM: (n, C) at the MLP's output, h: its input -> dH: (n, C) += (set: =; without MLPs
 * nothing is added) */
static int mlp_backward32(gpt32 *m, size_t l, const float *h, const float *dM, float *dH,
                          int set)
{
    size_t n = m->B * m->T, C = m->shape.dim, hid = m->shape.hidden;
    if (m->v.no_mlp) {
        if (set)
            memset(dH, 0, n * C * sizeof(float));
        return INVENT_OK;
    }
    block32 w = block_of(m, l, 0), g = block_of(m, l, 1);
    layer_acts *la = &m->a->layer[l];
    int status =
        linear32_backward(&m->a->mm, n, hid, C, la->F, w.W2, dM, m->a->dZ, 1, 1, g.W2, g.b2);
    keep(&status,
         linear32_backward(&m->a->mm, n, C, hid, h, w.W1, m->a->dZ, dH, set, 0, g.W1, g.b1));
    return status;
}

/* block_forward32 read in reverse: dY: (n, C) -> dX: (n, C) = (dY is used up: pre-norm,
 * it becomes the gradient at the first skip) */
static int block_backward32(gpt32 *m, size_t l, const float *X, float *dY, float *dX)
{
    size_t n = m->B * m->T, C = m->shape.dim, bytes = n * C * sizeof(float);
    block32 w = block_of(m, l, 0), g = block_of(m, l, 1);
    layer_acts *la = &m->a->layer[l];
    gpt32_acts *a = m->a;
    if (m->shape.norm == BLOCK_PRE_NORM) {
        float *dR1 = dY; /* Y = R1 + M: dR1 = dY + what comes back through the MLP */
        int status = mlp_backward32(m, l, la->out2, dY, a->dH, 1);
        layernorm32_backward(&a->mm, n, C, la->R1, w.g2, la->mean2, la->rstd2, a->dH, dR1, g.g2,
                             g.b2n);
        memcpy(dX, dR1, bytes); /* R1 = X + A */
        keep(&status, attention_backward(m, l, la->out1, dR1, a->dN, 1));
        layernorm32_backward(&a->mm, n, C, X, w.g1, la->mean1, la->rstd1, a->dN, dX, g.g1, g.b1n);
        return status;
    }
    float *dR2 = a->dN;
    memset(dR2, 0, bytes);
    layernorm32_backward(&m->a->mm, n, C, la->R2, w.g2, la->mean2, la->rstd2, dY, dR2, g.g2, g.b2n);
    memcpy(a->dH, dR2, bytes); /* R2 = H + M */
    int status = mlp_backward32(m, l, la->out1, dR2, a->dH, 0);
    memset(a->dR1, 0, bytes);
    layernorm32_backward(&a->mm, n, C, la->R1, w.g1, la->mean1, la->rstd1, a->dH, a->dR1, g.g1,
                         g.b1n);
    memcpy(dX, a->dR1, bytes); /* R1 = X + A */
    keep(&status, attention_backward(m, l, X, a->dR1, dX, 0));
    return status;
}

int gpt32_backward(gpt32 *m, const size_t *x, const size_t *y)
{
    const gpt_shape *s = &m->shape;
    size_t n = m->B * m->T, C = s->dim, L = s->layers, k = 2 + 12 * L;
    gpt32_acts *a = m->a;
    xent32_backward(n, s->vocab, a->probs, y, a->dlogits);
    int status = linear32_backward(&a->mm, n, C, s->vocab, a->Hf, m->t[k + 2].value32,
                                   a->dlogits, a->dX2, 1, 0, m->t[k + 2].grad32,
                                   m->t[k + 3].grad32);
    memset(a->dX, 0, n * C * sizeof(float));
    layernorm32_backward(&a->mm, n, C, a->X + L * n * C, m->t[k].value32, a->meanf, a->rstdf,
                         a->dX2, a->dX, m->t[k].grad32, m->t[k + 1].grad32);
    for (size_t l = L; l-- > 0 && status == INVENT_OK;) {
        keep(&status, block_backward32(m, l, a->X + l * n * C, a->dX, a->dX2));
        float *swap = a->dX;
        a->dX = a->dX2, a->dX2 = swap;
    }
    embedding32_backward(m->B, m->T, C, x, a->dX, m->t[0].grad32, m->t[1].grad32);
    return status;
}

int gpt32_train_forward(void *model, const size_t *x, const size_t *y, double *loss)
{
    return gpt32_forward(model, x, y, loss);
}

int gpt32_train_backward(void *model, const size_t *x, const size_t *y)
{
    return gpt32_backward(model, x, y);
}
