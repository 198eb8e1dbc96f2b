#include "ablation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heads.h"
#include "mat.h"
#include "status.h"

const char *ablation_name(ablation a)
{
    static const char *names[ABL_COUNT] = {"full",   "no position", "no mask", "no scale",
                                           "no MLP", "one head",    "no W_o",     "free A",
                                           "additive"};
    return a < ABL_COUNT ? names[a] : "?";
}

/* the tensor's own name without its block ("l1.W1" -> "W1") */
static const char *field(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot ? dot + 1 : name;
}

/* is the tensor called name held fixed by a? */
static int is_fixed(ablation a, const char *name)
{
    const char *f = field(name);
    int in_block = f != name;
    if (a == ABL_NO_POSITION)
        return strcmp(name, "pos_emb") == 0;
    if (a == ABL_NO_MLP)
        return in_block && (f[0] == 'W' || f[0] == 'b') && (f[1] == '1' || f[1] == '2');
    if (a == ABL_NO_WO)
        return in_block && strcmp(f, "Wo") == 0;
    if (a == ABL_FREE_A)
        return in_block && strcmp(f, "Wk") == 0;
    return 0;
}

/* the fixed tensors' values: 0, or the identity for W_o (d x H dv = d x d);
 * free A's fixed W_k is set by widen_heads */
static void fix_values(ablated *m)
{
    for (size_t k = 0; m->kind != ABL_FREE_A && k < m->n_all; k++) {
        tensor_ref *t = &m->all[k];
        if (!is_fixed(m->kind, t->name))
            continue;
        memset(t->value, 0, t->size * sizeof(double));
        if (m->kind == ABL_NO_WO)
            for (size_t i = 0; i < t->shape[0]; i++)
                t->value[i * t->shape[1] + i] = 1.0;
    }
}

/* free A: block b's heads widened to size d: W_k^(j) = I, W_q^(j) = Theta^(j) =
 * (W_q^(j)T W_k^(j))^T of the drawn heads (make_theta then clones it) */
static int widen_heads(block_weights *b, size_t d)
{
    mha_weights *old = b->attn;
    size_t H = old->heads;
    mha_weights *a = calloc(1, sizeof *a);
    if (!a)
        return INVENT_ENOMEM;
    *a = (mha_weights){.heads = H, .Wq = gsl_matrix_alloc(H * d, d),
                       .Wk = gsl_matrix_calloc(H * d, d), .Wv = old->Wv, .Wo = old->Wo};
    old->Wv = old->Wo = NULL;
    b->attn = a;
    int status = a->Wq && a->Wk ? INVENT_OK : INVENT_ENOMEM;
    for (size_t j = 0; status == INVENT_OK && j < H; j++) {
        gsl_matrix_view Aj = heads_rows(a->Wq, H, j), Ij = heads_rows(a->Wk, H, j);
        gsl_matrix_const_view Qj = heads_const_rows(old->Wq, H, j);
        gsl_matrix_const_view Kj = heads_const_rows(old->Wk, H, j);
        gsl_matrix_set_identity(&Ij.matrix);
        status = mat_mul(&Kj.matrix, CblasTrans, &Qj.matrix, CblasNoTrans, &Aj.matrix);
    }
    mha_free(old);
    return status;
}

/* no scale, free A: Theta_l = W_q of block l; the trained list points at Theta */
static int make_theta(ablated *m)
{
    size_t L = m->w->shape.layers;
    m->theta = calloc(L, sizeof *m->theta);
    m->dtheta = calloc(L, sizeof *m->dtheta);
    if (!m->theta || !m->dtheta)
        return INVENT_ENOMEM;
    for (size_t l = 0; l < L; l++) {
        const gsl_matrix *Wq = m->w->blocks[l]->attn->Wq;
        m->theta[l] = mat_clone(Wq);
        m->dtheta[l] = gsl_matrix_calloc(Wq->size1, Wq->size2);
        if (!m->theta[l] || !m->dtheta[l])
            return INVENT_ENOMEM;
    }
    const gpt_shape *s = &m->w->shape;
    m->stretch = m->kind == ABL_FREE_A ? sqrt((double)s->heads) : sqrt((double)(s->dim / s->heads));
    return INVENT_OK;
}

/* block l's additive score drawn from r into w (zeros into g), listed at all[k], all[k + 1] */
static int add_block_score(ablated *m, size_t l, gsl_rng *r, size_t k)
{
    size_t H = m->w->shape.heads, rank = m->w->shape.dim / H;
    additive_score *a = additive_new(H, rank, r), *g = additive_zeros(H, rank);
    m->w->blocks[l]->attn->additive = a;
    m->g->blocks[l]->attn->additive = g;
    if (!a || !g)
        return INVENT_ENOMEM;
    gsl_matrix *value[] = {a->b, a->v}, *grad[] = {g->b, g->v};
    for (int j = 0; j < 2; j++) {
        tensor_ref *t = &m->all[k + j];
        *t = (tensor_ref){.value = value[j]->data, .grad = grad[j]->data, .ndim = 2,
                          .shape = {H, rank}, .size = H * rank, .decay = j == 1};
        snprintf(t->name, sizeof t->name, "l%zu.add_%c", l, j ? 'v' : 'b');
    }
    return INVENT_OK;
}

/* additive: every block's score, listed as l<l>.add_b, l<l>.add_v after gpt_tensors'
 * entries (b a bias, v a weight that decays); v is drawn from a stream of its own,
 * seeded from r without advancing r, so that the batches drawn from r afterwards
 * are the full model's */
static int add_additive(ablated *m, const gsl_rng *r)
{
    size_t k = gpt_tensor_count(&m->w->shape);
    gsl_rng *own = gsl_rng_clone(r);
    if (!own)
        return INVENT_ENOMEM;
    gsl_rng_set(own, gsl_rng_get(own));
    int status = INVENT_OK;
    for (size_t l = 0; status == INVENT_OK && l < m->w->shape.layers; l++)
        status = add_block_score(m, l, own, k + 2 * l);
    gsl_rng_free(own);
    return status;
}

/* the trained list: every tensor that a leaves free, W_q swapped for Theta */
static void list_trained(ablated *m)
{
    size_t l = 0;
    m->n_train = 0;
    for (size_t k = 0; k < m->n_all; k++) {
        tensor_ref t = m->all[k];
        if (is_fixed(m->kind, t.name))
            continue;
        if (m->theta && strcmp(field(t.name), "Wq") == 0) {
            t.value = m->theta[l]->data;
            t.grad = m->dtheta[l++]->data;
        }
        m->train[m->n_train++] = t;
    }
}

ablated *ablated_new(ablation a, const gpt_shape *shape, gsl_rng *r)
{
    if (a >= ABL_COUNT)
        return NULL;
    gpt_shape s = *shape;
    if (a == ABL_ONE_HEAD)
        s.heads = 1;
    ablated *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->kind = a;
    m->stretch = 1.0;
    m->w = gpt_new(&s, r);
    m->g = m->w ? gpt_zeros(&s) : NULL;
    m->n_all = gpt_tensor_count(&s) + (a == ABL_ADDITIVE ? 2 * s.layers : 0);
    m->all = calloc(m->n_all, sizeof *m->all);
    m->train = calloc(m->n_all, sizeof *m->train);
    int ok = m->w && m->g && m->all && m->train;
    if (ok) {
        gpt_tensors(m->w, m->g, m->all);
        fix_values(m);
        for (size_t l = 0; ok && a == ABL_FREE_A && l < s.layers; l++)
            ok = widen_heads(m->w->blocks[l], s.dim) == INVENT_OK &&
                 widen_heads(m->g->blocks[l], s.dim) == INVENT_OK;
        if (ok && a == ABL_FREE_A)
            gpt_tensors(m->w, m->g, m->all); /* the widened heads' tensors */
        ok = ok && (a != ABL_ADDITIVE || add_additive(m, r) == INVENT_OK);
        ok = ok && ((a != ABL_NO_SCALE && a != ABL_FREE_A) || make_theta(m) == INVENT_OK);
    }
    if (!ok) {
        ablated_free(m);
        return NULL;
    }
    list_trained(m);
    return m;
}

void ablated_free(ablated *m)
{
    if (!m)
        return;
    for (size_t l = 0; m->w && l < m->w->shape.layers; l++) {
        if (m->theta)
            gsl_matrix_free(m->theta[l]);
        if (m->dtheta)
            gsl_matrix_free(m->dtheta[l]);
    }
    free(m->theta);
    free(m->dtheta);
    free(m->all);
    free(m->train);
    gpt_free(m->w);
    gpt_free(m->g);
    free(m);
}

size_t ablated_param_count(const ablated *m)
{
    return tensors_numbers(m->train, m->n_train);
}

void ablated_prepare(ablated *m, int training)
{
    for (size_t l = 0; l < m->w->shape.layers; l++) {
        block_weights *b = m->w->blocks[l];
        b->see_future = m->kind == ABL_NO_MASK && training;
        if (m->theta) { /* W_q = stretch Theta: the score without 1/sqrt(r), or free A's */
            gsl_matrix_memcpy(b->attn->Wq, m->theta[l]);
            gsl_matrix_scale(b->attn->Wq, m->stretch);
        }
    }
}

int ablated_forward(ablated *m, const size_t *x, const size_t *y, gpt_trace *tr, int training,
                    double *loss)
{
    ablated_prepare(m, training);
    return gpt_forward(m->w, x, y, tr, loss);
}

int ablated_backward(ablated *m, const size_t *x, const size_t *y, const gpt_trace *tr,
                     gpt_work *work)
{
    for (size_t l = 0; m->theta && l < m->w->shape.layers; l++)
        gsl_matrix_set_zero(m->g->blocks[l]->attn->Wq); /* this pass's dL/dW_q alone */
    int status = gpt_backward(m->w, x, y, tr, m->g, work);
    for (size_t l = 0; m->theta && status == INVENT_OK && l < m->w->shape.layers; l++) {
        /* W_q = stretch Theta: dL/dTheta += stretch dL/dW_q */
        gsl_matrix_scale(m->g->blocks[l]->attn->Wq, m->stretch);
        gsl_matrix_add(m->dtheta[l], m->g->blocks[l]->attn->Wq);
    }
    return status;
}

int ablated_batch_forward(void *model, const size_t *x, const size_t *y, double *loss)
{
    ablated_batch *b = model;
    return ablated_forward(b->m, x, y, b->tr, 1, loss);
}

int ablated_batch_backward(void *model, const size_t *x, const size_t *y)
{
    ablated_batch *b = model;
    return ablated_backward(b->m, x, y, b->tr, b->work);
}
