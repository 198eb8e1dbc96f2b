#include "ablation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mat.h"
#include "status.h"

const char *ablation_name(ablation a)
{
    static const char *names[ABL_COUNT] = {"full",   "no position", "no mask", "no scale",
                                           "no MLP", "one head",    "no W_o"};
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
    return 0;
}

/* the fixed tensors' values: 0, or the identity for W_o (d x H dv = d x d) */
static void fix_values(ablated *m)
{
    for (size_t k = 0; k < m->n_all; k++) {
        tensor_ref *t = &m->all[k];
        if (!is_fixed(m->kind, t->name))
            continue;
        memset(t->value, 0, t->size * sizeof(double));
        if (m->kind == ABL_NO_WO)
            for (size_t i = 0; i < t->shape[0]; i++)
                t->value[i * t->shape[1] + i] = 1.0;
    }
}

/* no scale: Theta_l = W_q of block l as drawn; the trained list points at Theta */
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
    m->stretch = sqrt((double)(m->w->shape.dim / m->w->shape.heads));
    return INVENT_OK;
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
    m->g = m->w ? gpt_new(&s, NULL) : NULL;
    m->n_all = gpt_tensor_count(&s);
    m->all = calloc(m->n_all, sizeof *m->all);
    m->train = calloc(m->n_all, sizeof *m->train);
    int ok = m->w && m->g && m->all && m->train;
    if (ok) {
        gpt_tensors(m->w, m->g, m->all);
        fix_values(m);
        ok = a != ABL_NO_SCALE || make_theta(m) == INVENT_OK;
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
    size_t n = 0;
    for (size_t k = 0; k < m->n_train; k++)
        n += m->train[k].size;
    return n;
}

int ablated_forward(ablated *m, const size_t *x, const size_t *y, gpt_trace *tr, int training,
                    double *loss)
{
    for (size_t l = 0; l < m->w->shape.layers; l++) {
        block_weights *b = m->w->blocks[l];
        b->see_future = m->kind == ABL_NO_MASK && training;
        if (m->theta) { /* W_q = sqrt(r) Theta: the score without 1/sqrt(r) */
            gsl_matrix_memcpy(b->attn->Wq, m->theta[l]);
            gsl_matrix_scale(b->attn->Wq, m->stretch);
        }
    }
    return gpt_forward(m->w, x, y, tr, loss);
}

int ablated_backward(ablated *m, const size_t *x, const size_t *y, gpt_trace *tr)
{
    for (size_t k = 0; k < m->n_all; k++)
        memset(m->all[k].grad, 0, m->all[k].size * sizeof(double));
    int status = gpt_backward(m->w, x, y, tr, m->g);
    for (size_t l = 0; m->theta && status == INVENT_OK && l < m->w->shape.layers; l++) {
        /* dL/dTheta = sqrt(r) dL/dW_q */
        gsl_matrix_memcpy(m->dtheta[l], m->g->blocks[l]->attn->Wq);
        gsl_matrix_scale(m->dtheta[l], m->stretch);
    }
    return status;
}
