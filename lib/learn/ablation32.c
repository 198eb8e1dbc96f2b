#include "ablation32.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

/* src -> the float32 blocks' variant that computes src's function */
static gpt32_variant variant_of(const ablated *src)
{
    const gpt_shape *s = &src->w->shape;
    gpt32_variant v = {.score = GPT32_DOT};
    if (src->kind == ABL_NO_SCALE)
        v.scale = 1.0f;
    if (src->kind == ABL_NO_MLP)
        v.no_mlp = 1;
    if (src->kind == ABL_ADDITIVE)
        v.score = GPT32_ADDITIVE;
    if (src->kind == ABL_FREE_A) {
        v.dk = s->dim;
        v.scale = (float)(1.0 / sqrt((double)(s->dim / s->heads)));
    }
    return v;
}

/* t: (count) -> the entry called name, or NULL */
static tensor_ref *named(tensor_ref *t, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++)
        if (strcmp(t[k].name, name) == 0)
            return &t[k];
    return NULL;
}

/* from: float64 numbers -> to: the same numbers rounded to float32 */
static int round_into(const tensor_ref *from, tensor_ref *to)
{
    if (!to || to->size != from->size)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < from->size; i++)
        to->value32[i] = (float)from->value[i];
    return INVENT_OK;
}

/* src's numbers into m->m (every tensor, then the trained ones over them, so that
 * W_q's slot takes Theta where src trains one); m->train: src's list on m->m */
static int take_numbers(ablated32 *m, const ablated *src)
{
    gpt32 *g = m->m;
    int status = g->count == src->n_all ? INVENT_OK : INVENT_ESHAPE;
    for (size_t k = 0; status == INVENT_OK && k < g->count; k++)
        status = round_into(&src->all[k], named(g->t, g->count, src->all[k].name));
    for (size_t k = 0; status == INVENT_OK && k < src->n_train; k++) {
        tensor_ref *t = named(g->t, g->count, src->train[k].name);
        status = round_into(&src->train[k], t);
        if (status == INVENT_OK)
            m->train[m->n_train++] = *t;
    }
    return status;
}

int ablated32_new(const ablated *src, size_t B, size_t T, ablated32 **out)
{
    *out = NULL;
    if (src->kind >= ABL_COUNT || B == 0 || T == 0 || T > src->w->shape.context)
        return INVENT_ERANGE;
    ablated32 *m = calloc(1, sizeof *m);
    if (!m)
        return INVENT_ENOMEM;
    *m = (ablated32){.kind = src->kind, .training = 1};
    gpt32_variant v = variant_of(src);
    m->m = gpt32_new_variant(&src->w->shape, &v, B, T);
    m->train = calloc(src->n_train, sizeof *m->train);
    int status = m->m && m->train ? take_numbers(m, src) : INVENT_ENOMEM;
    if (status != INVENT_OK) {
        ablated32_free(m);
        return status;
    }
    *out = m;
    return INVENT_OK;
}

/* from: float32 numbers -> to: the same numbers in float64 */
static int widen_into(const tensor_ref *from, tensor_ref *to)
{
    if (!from || to->size != from->size)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < from->size; i++)
        to->value[i] = (double)from->value32[i];
    return INVENT_OK;
}

int ablated32_to64(const ablated32 *m, ablated *dst)
{
    gpt32 *g = m->m;
    if (dst->kind != m->kind || dst->n_all != g->count)
        return INVENT_ESHAPE;
    int status = INVENT_OK;
    for (size_t k = 0; status == INVENT_OK && k < g->count; k++)
        status = widen_into(named(g->t, g->count, dst->all[k].name), &dst->all[k]);
    for (size_t k = 0; status == INVENT_OK && k < dst->n_train; k++)
        status = widen_into(named(g->t, g->count, dst->train[k].name), &dst->train[k]);
    for (size_t l = 0; status == INVENT_OK && dst->theta && l < dst->w->shape.layers; l++)
        gsl_matrix_scale(dst->w->blocks[l]->attn->Wq, dst->stretch); /* W_q = stretch Theta */
    return status;
}

void ablated32_free(ablated32 *m)
{
    if (!m)
        return;
    gpt32_free(m->m);
    free(m->train);
    free(m);
}

size_t ablated32_param_count(const ablated32 *m)
{
    return tensors_numbers(m->train, m->n_train);
}

int ablated32_forward(ablated32 *m, const size_t *x, const size_t *y, int training,
                      double *loss)
{
    m->m->see_future = m->kind == ABL_NO_MASK && training;
    return gpt32_forward(m->m, x, y, loss);
}

/* is entry t of the model in m's trained list? */
static int is_trained(const ablated32 *m, const tensor_ref *t)
{
    for (size_t k = 0; k < m->n_train; k++)
        if (m->train[k].value32 == t->value32)
            return 1;
    return 0;
}

int ablated32_backward(ablated32 *m, const size_t *x, const size_t *y)
{
    int status = gpt32_backward(m->m, x, y);
    for (size_t k = 0; k < m->m->count; k++)
        if (!is_trained(m, &m->m->t[k]))
            memset(m->m->t[k].grad32, 0, m->m->t[k].size * sizeof(float));
    return status;
}

int ablated32_train_forward(void *model, const size_t *x, const size_t *y, double *loss)
{
    ablated32 *m = model;
    return ablated32_forward(m, x, y, m->training, loss);
}

int ablated32_train_backward(void *model, const size_t *x, const size_t *y)
{
    return ablated32_backward(model, x, y);
}
