#include "gpt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedding.h"
#include "layernorm.h"
#include "linear.h"
#include "mat.h"
#include "rng.h"
#include "status.h"
#include "xent.h"

#define GPT_BLOCK_TENSORS BLOCK_TENSORS
#define GPT2_SD 0.02 /* GPT-2's standard deviation of every weight matrix */

size_t gpt_tensor_count(const gpt_shape *s)
{
    return 2 + GPT_BLOCK_TENSORS * s->layers + 4;
}

/* GPT-2's draw (Radford et al., 2019, as nanoGPT writes it): every matrix of block b
 * N(0, 0.02^2), the two that write into the residual stream (W_o, W2) at 0.02 / sqrt(2L),
 * so that the stream's variance after L blocks does not grow with the depth */
static void draw_block_gpt2(block_weights *b, size_t layers, gsl_rng *r)
{
    double residual = GPT2_SD / sqrt(2.0 * (double)layers);
    rng_fill_gaussian(b->attn->Wq, r, GPT2_SD);
    rng_fill_gaussian(b->attn->Wk, r, GPT2_SD);
    rng_fill_gaussian(b->attn->Wv, r, GPT2_SD);
    rng_fill_gaussian(b->attn->Wo, r, residual);
    rng_fill_gaussian(b->mlp->W1, r, GPT2_SD);
    rng_fill_gaussian(b->mlp->W2, r, residual);
}

gpt_weights *gpt_new(const gpt_shape *s, gsl_rng *r)
{
    if (!r || s->heads == 0 || s->dim % s->heads != 0 || s->vocab == 0 || s->context == 0 ||
        s->layers == 0 || s->hidden == 0)
        return NULL;
    gpt_weights *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->shape = *s;
    w->E = mat_gaussian(s->vocab, s->dim, GPT2_SD, r);
    w->P = mat_gaussian(s->context, s->dim, s->unit_positions ? 1.0 : GPT2_SD, r);
    w->blocks = calloc(s->layers, sizeof *w->blocks);
    int ok = w->E && w->P && w->blocks;
    for (size_t l = 0; ok && l < s->layers; l++)
        if ((ok = (w->blocks[l] = block_new(s->dim, s->heads, s->hidden, r)) != NULL)) {
            w->blocks[l]->norm = s->norm;
            draw_block_gpt2(w->blocks[l], s->layers, r);
        }
    w->gamma = gsl_vector_alloc(s->dim);
    w->beta = gsl_vector_calloc(s->dim);
    w->Wout = mat_gaussian(s->vocab, s->dim, GPT2_SD, r);
    w->bout = gsl_vector_calloc(s->vocab);
    if (!ok || !w->gamma || !w->beta || !w->Wout || !w->bout) {
        gpt_free(w);
        return NULL;
    }
    gsl_vector_set_all(w->gamma, 1.0);
    w->eps = w->blocks[0]->eps; /* block_new's */
    return w;
}

gpt_weights *gpt_zeros(const gpt_shape *s)
{
    gsl_rng *r = rng_new(0); /* a draw, overwritten: the shapes and flags are gpt_new's */
    gpt_weights *w = r ? gpt_new(s, r) : NULL;
    gsl_rng_free(r);
    if (w) {
        tensor_ref t[gpt_tensor_count(s)];
        gpt_tensors(w, NULL, t);
        for (size_t k = 0; k < gpt_tensor_count(s); k++)
            memset(t[k].value, 0, t[k].size * sizeof(double));
    }
    return w;
}

void gpt_set_eps(gpt_weights *w, double eps)
{
    w->eps = eps;
    for (size_t l = 0; l < w->shape.layers; l++)
        w->blocks[l]->eps = eps;
}

int gpt_one_eps(const gpt_weights *w)
{
    for (size_t l = 0; l < w->shape.layers; l++)
        if (w->blocks[l]->eps != w->eps)
            return 0;
    return 1;
}

void gpt_free(gpt_weights *w)
{
    if (!w)
        return;
    for (size_t l = 0; w->blocks && l < w->shape.layers; l++)
        block_free(w->blocks[l]);
    free(w->blocks);
    gsl_matrix_free(w->E);
    gsl_matrix_free(w->P);
    gsl_vector_free(w->gamma);
    gsl_vector_free(w->beta);
    gsl_matrix_free(w->Wout);
    gsl_vector_free(w->bout);
    free(w);
}

/* one entry of the layout: a (rows, cols) matrix, or a vector of rows when cols is 0 */
static tensor_ref slot(const char *name, size_t rows, size_t cols)
{
    tensor_ref t = {.ndim = cols ? 2 : 1, .decay = cols != 0,
                    .shape = {rows, cols ? cols : 1}, .size = rows * (cols ? cols : 1)};
    snprintf(t.name, sizeof t.name, "%s", name);
    return t;
}

/* the 12 tensors of block l, in block_tensors' order */
static void layout_block(size_t l, size_t d, size_t m, tensor_ref *out)
{
    static const char *names[GPT_BLOCK_TENSORS] = {"Wq", "Wk", "Wv", "Wo", "ln1_g", "ln1_b",
                                                   "W1", "b1", "W2", "b2", "ln2_g", "ln2_b"};
    const size_t rows[GPT_BLOCK_TENSORS] = {d, d, d, d, d, d, m, m, d, d, d, d};
    const size_t cols[GPT_BLOCK_TENSORS] = {d, d, d, d, 0, 0, d, 0, m, 0, 0, 0};
    for (size_t k = 0; k < GPT_BLOCK_TENSORS; k++) {
        char buf[32];
        snprintf(buf, sizeof buf, "l%zu.%s", l, names[k]);
        out[k] = slot(buf, rows[k], cols[k]);
    }
}

void gpt_layout(const gpt_shape *s, tensor_ref *out)
{
    size_t d = s->dim, k = 0;
    out[k++] = slot("tok_emb", s->vocab, d);
    out[k++] = slot("pos_emb", s->context, d);
    for (size_t l = 0; l < s->layers; l++, k += GPT_BLOCK_TENSORS)
        layout_block(l, d, s->hidden, out + k);
    out[k++] = slot("lnf_g", d, 0);
    out[k++] = slot("lnf_b", d, 0);
    out[k++] = slot("Wout", s->vocab, d);
    out[k++] = slot("bout", s->vocab, 0);
}

/* a matrix's or a vector's numbers and shape, into entry t (vectors keep ndim 1) */
static void take_matrix(tensor_ref *t, gsl_matrix *m, double **data)
{
    *data = m->data;
    t->shape[0] = m->size1, t->shape[1] = m->size2, t->size = m->size1 * m->size2;
}

static void take_vector(tensor_ref *t, gsl_vector *v, double **data)
{
    *data = v->data;
    t->shape[0] = v->size, t->shape[1] = 1, t->size = v->size;
}

/* w -> p: (gpt_tensor_count) the first number of every tensor, in gpt_layout's order;
 * the entries of out take w's actual shapes (an ablation may widen the heads) */
static void numbers(gpt_weights *w, tensor_ref *out, double **p)
{
    size_t k = 0;
    take_matrix(&out[k], w->E, &p[k]), k++;
    take_matrix(&out[k], w->P, &p[k]), k++;
    for (size_t l = 0; l < w->shape.layers; l++) {
        block_weights *b = w->blocks[l];
        gsl_matrix *mats[] = {b->attn->Wq, b->attn->Wk, b->attn->Wv, b->attn->Wo};
        for (int i = 0; i < 4; i++, k++)
            take_matrix(&out[k], mats[i], &p[k]);
        gsl_vector *vecs[] = {b->gamma1, b->beta1};
        for (int i = 0; i < 2; i++, k++)
            take_vector(&out[k], vecs[i], &p[k]);
        take_matrix(&out[k], b->mlp->W1, &p[k]), k++;
        take_vector(&out[k], b->mlp->b1, &p[k]), k++;
        take_matrix(&out[k], b->mlp->W2, &p[k]), k++;
        gsl_vector *rest[] = {b->mlp->b2, b->gamma2, b->beta2};
        for (int i = 0; i < 3; i++, k++)
            take_vector(&out[k], rest[i], &p[k]);
    }
    take_vector(&out[k], w->gamma, &p[k]), k++;
    take_vector(&out[k], w->beta, &p[k]), k++;
    take_matrix(&out[k], w->Wout, &p[k]), k++;
    take_vector(&out[k], w->bout, &p[k]), k++;
}

void gpt_tensors(gpt_weights *w, gpt_weights *g, tensor_ref *out)
{
    size_t count = gpt_tensor_count(&w->shape);
    double *value[count], *grad[count];
    tensor_ref scratch[count];
    gpt_layout(&w->shape, out);
    numbers(w, out, value);
    if (g)
        numbers(g, scratch, grad);
    for (size_t k = 0; k < count; k++) {
        out[k].value = value[k];
        out[k].grad = g ? grad[k] : NULL;
    }
}

size_t gpt_param_count(const gpt_shape *s)
{
    size_t d = s->dim, m = s->hidden, V = s->vocab;
    return V * d + s->context * d + s->layers * (4 * d * d + 2 * d * m + m + 5 * d) + 2 * d +
           V * d + V;
}

struct gpt_trace {
    size_t B, T, L;
    gsl_matrix **X;            /* L + 1 of (B*T, d): the stream before each block, and after */
    block_trace **blk;         /* L * B: block l over sequence b at [l * B + b] */
    gsl_matrix *Hf;            /* (B*T, d): the final norm's output */
    gsl_vector *meanf, *rstdf; /* (B*T) its statistics */
    gsl_matrix *Z;             /* (B*T, V) logits */
};

struct gpt_work {
    size_t B, T;
    block_work *blk;           /* shared by every block's backward pass */
    gsl_matrix *dZ, *dX, *dX2; /* (B*T, V), (B*T, d) twice: gradients on the way back */
};

gpt_trace *gpt_trace_new(const gpt_weights *w, size_t B, size_t T)
{
    const gpt_shape *s = &w->shape;
    if (B == 0 || T == 0 || T > s->context)
        return NULL;
    gpt_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    size_t n = B * T, L = s->layers;
    *tr = (gpt_trace){.B = B, .T = T, .L = L, .X = calloc(L + 1, sizeof(gsl_matrix *)),
                      .blk = calloc(L * B, sizeof(block_trace *))};
    int ok = tr->X && tr->blk;
    for (size_t l = 0; ok && l <= L; l++)
        ok = (tr->X[l] = gsl_matrix_alloc(n, s->dim)) != NULL;
    for (size_t k = 0; ok && k < L * B; k++)
        ok = (tr->blk[k] = block_trace_new(T, w->blocks[k / B])) != NULL;
    tr->Hf = gsl_matrix_alloc(n, s->dim);
    tr->meanf = gsl_vector_alloc(n);
    tr->rstdf = gsl_vector_alloc(n);
    tr->Z = gsl_matrix_alloc(n, s->vocab);
    if (!ok || !tr->Hf || !tr->meanf || !tr->rstdf || !tr->Z) {
        gpt_trace_free(tr);
        return NULL;
    }
    return tr;
}

void gpt_trace_free(gpt_trace *tr)
{
    if (!tr)
        return;
    for (size_t l = 0; tr->X && l <= tr->L; l++)
        gsl_matrix_free(tr->X[l]);
    for (size_t k = 0; tr->blk && k < tr->L * tr->B; k++)
        block_trace_free(tr->blk[k]);
    free(tr->X);
    free(tr->blk);
    gsl_matrix_free(tr->Hf);
    gsl_vector_free(tr->meanf);
    gsl_vector_free(tr->rstdf);
    gsl_matrix_free(tr->Z);
    free(tr);
}

gpt_work *gpt_work_new(const gpt_weights *w, size_t B, size_t T)
{
    const gpt_shape *s = &w->shape;
    if (B == 0 || T == 0 || T > s->context)
        return NULL;
    gpt_work *work = calloc(1, sizeof *work);
    if (!work)
        return NULL;
    size_t n = B * T;
    *work = (gpt_work){B, T, block_work_new(T, w->blocks[0]), gsl_matrix_alloc(n, s->vocab),
                       gsl_matrix_alloc(n, s->dim), gsl_matrix_alloc(n, s->dim)};
    if (!work->blk || !work->dZ || !work->dX || !work->dX2) {
        gpt_work_free(work);
        return NULL;
    }
    return work;
}

void gpt_work_free(gpt_work *work)
{
    if (!work)
        return;
    block_work_free(work->blk);
    gsl_matrix_free(work->dZ);
    gsl_matrix_free(work->dX);
    gsl_matrix_free(work->dX2);
    free(work);
}

const gsl_matrix *gpt_logits(const gpt_trace *tr)
{
    return tr->Z;
}

/* X_l -> X_{l+1}, one sequence at a time (the mask keeps sequences apart) */
static int blocks_forward(const gpt_weights *w, gpt_trace *tr)
{
    size_t B = tr->B, T = tr->T, d = w->shape.dim;
    for (size_t l = 0; l < w->shape.layers; l++)
        for (size_t b = 0; b < B; b++) {
            gsl_matrix_view in = gsl_matrix_submatrix(tr->X[l], b * T, 0, T, d);
            gsl_matrix_view out = gsl_matrix_submatrix(tr->X[l + 1], b * T, 0, T, d);
            int status = block_forward(w->blocks[l], &in.matrix, tr->blk[l * B + b],
                                       &out.matrix);
            if (status != INVENT_OK)
                return status;
        }
    return INVENT_OK;
}

int gpt_forward(const gpt_weights *w, const size_t *x, const size_t *y, gpt_trace *tr,
                double *loss)
{
    size_t L = w->shape.layers;
    int status = embedding_forward(w->E, w->P, x, tr->B, tr->T, tr->X[0]);
    if (status == INVENT_OK)
        status = blocks_forward(w, tr);
    if (status == INVENT_OK)
        status = layernorm_forward(tr->X[L], w->gamma, w->beta, w->eps, tr->Hf,
                                   tr->meanf, tr->rstdf);
    if (status == INVENT_OK)
        status = linear_forward(tr->Hf, w->Wout, w->bout, tr->Z);
    if (status == INVENT_OK && y)
        status = xent_forward(tr->Z, y, loss, NULL);
    return status;
}

/* work->dX = dL/dX_L -> work->dX = dL/dX_0, block by block, sequence by sequence */
static int blocks_backward(const gpt_weights *w, const gpt_trace *tr, gpt_weights *g,
                           gpt_work *work)
{
    size_t B = tr->B, T = tr->T, d = w->shape.dim;
    for (size_t l = w->shape.layers; l-- > 0;) {
        gsl_matrix_set_zero(work->dX2); /* block_backward adds to dX */
        for (size_t b = 0; b < B; b++) {
            gsl_matrix_const_view in = gsl_matrix_const_submatrix(tr->X[l], b * T, 0, T, d);
            gsl_matrix_const_view dY = gsl_matrix_const_submatrix(work->dX, b * T, 0, T, d);
            gsl_matrix_view dX = gsl_matrix_submatrix(work->dX2, b * T, 0, T, d);
            int status = block_backward(w->blocks[l], &in.matrix, tr->blk[l * B + b],
                                        &dY.matrix, g->blocks[l], &dX.matrix, work->blk);
            if (status != INVENT_OK)
                return status;
        }
        gsl_matrix *swap = work->dX;
        work->dX = work->dX2;
        work->dX2 = swap;
    }
    return INVENT_OK;
}

int gpt_backward(const gpt_weights *w, const size_t *x, const size_t *y, const gpt_trace *tr,
                 gpt_weights *g, gpt_work *work)
{
    if (work->B != tr->B || work->T != tr->T)
        return INVENT_ESHAPE;
    size_t L = w->shape.layers;
    gsl_matrix_set_zero(work->dZ); /* every backward below adds to its gradients */
    gsl_matrix_set_zero(work->dX2);
    gsl_matrix_set_zero(work->dX);
    int status = xent_backward(tr->Z, y, work->dZ);
    if (status == INVENT_OK)
        status = linear_backward(tr->Hf, w->Wout, work->dZ, work->dX2, g->Wout, g->bout);
    if (status == INVENT_OK)
        status = layernorm_backward(tr->X[L], w->gamma, tr->meanf, tr->rstdf, work->dX2,
                                    work->dX, g->gamma, g->beta);
    if (status == INVENT_OK)
        status = blocks_backward(w, tr, g, work);
    if (status == INVENT_OK)
        status = embedding_backward(x, tr->B, tr->T, work->dX, g->E, g->P);
    return status;
}
