#include "gpt_block.h"

#include <stdlib.h>

#include "grad_activation.h"
#include "grad_heads.h"
#include "grad_layernorm.h"
#include "grad_linear.h"
#include "layernorm.h"
#include "status.h"

gblock_trace *gblock_trace_new(size_t T, const block_weights *w)
{
    size_t d = w->attn->Wo->size1, m = w->mlp->W1->size1;
    gblock_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->attn = mha_trace_new(T, w->attn);
    gsl_matrix **td[] = {&tr->N1, &tr->A, &tr->R1, &tr->N2, &tr->M, &tr->R2};
    for (size_t k = 0; k < sizeof td / sizeof td[0]; k++)
        *td[k] = gsl_matrix_alloc(T, d);
    tr->Z = gsl_matrix_alloc(T, m);
    tr->F = gsl_matrix_alloc(T, m);
    gsl_vector **tv[] = {&tr->mean1, &tr->rstd1, &tr->mean2, &tr->rstd2};
    for (size_t k = 0; k < sizeof tv / sizeof tv[0]; k++)
        *tv[k] = gsl_vector_alloc(T);
    if (!tr->attn || !tr->N1 || !tr->A || !tr->R1 || !tr->N2 || !tr->M || !tr->R2 || !tr->Z ||
        !tr->F || !tr->mean1 || !tr->rstd1 || !tr->mean2 || !tr->rstd2) {
        gblock_trace_free(tr);
        return NULL;
    }
    return tr;
}

void gblock_trace_free(gblock_trace *tr)
{
    if (!tr)
        return;
    mha_trace_free(tr->attn);
    gsl_matrix *ms[] = {tr->N1, tr->A, tr->R1, tr->N2, tr->Z, tr->F, tr->M, tr->R2};
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++)
        gsl_matrix_free(ms[k]);
    gsl_vector *vs[] = {tr->mean1, tr->rstd1, tr->mean2, tr->rstd2};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++)
        gsl_vector_free(vs[k]);
    free(tr);
}

gblock_scratch *gblock_scratch_new(size_t T, const block_weights *w)
{
    size_t d = w->attn->Wo->size1, m = w->mlp->W1->size1;
    gblock_scratch *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->dA = gsl_matrix_alloc(T, d);
    s->dN = gsl_matrix_alloc(T, d);
    s->dR = gsl_matrix_alloc(T, d);
    s->dZ = gsl_matrix_alloc(T, m);
    if (!s->dA || !s->dN || !s->dR || !s->dZ) {
        gblock_scratch_free(s);
        return NULL;
    }
    return s;
}

void gblock_scratch_free(gblock_scratch *s)
{
    if (!s)
        return;
    gsl_matrix_free(s->dA);
    gsl_matrix_free(s->dN);
    gsl_matrix_free(s->dR);
    gsl_matrix_free(s->dZ);
    free(s);
}

/* out <- a + b, all (T, d) */
static void add(const gsl_matrix *a, const gsl_matrix *b, gsl_matrix *out)
{
    gsl_matrix_memcpy(out, a);
    gsl_matrix_add(out, b);
}

/* In: (T, d) -> tr->M = ReLU(In W1^T + b1) W2^T + b2, with Z and F = ReLU(Z) kept */
static int mlp_into(const mlp_weights *f, const gsl_matrix *In, gblock_trace *tr)
{
    int status = mlp_forward(f, In, tr->Z, tr->M);
    if (status != INVENT_OK)
        return status;
    for (size_t i = 0; i < tr->Z->size1 * tr->Z->size2; i++)
        tr->F->data[i] = tr->Z->data[i] > 0.0 ? tr->Z->data[i] : 0.0;
    return INVENT_OK;
}

int gblock_forward(const block_weights *w, norm_place place, const gsl_matrix *X,
                   gblock_trace *tr, gsl_matrix *Y)
{
    int post = place == NORM_POST;
    int status = post ? INVENT_OK
                      : layernorm_forward(X, w->gamma1, w->beta1, w->eps, tr->N1, tr->mean1,
                                          tr->rstd1);
    if (status == INVENT_OK)
        status = mha_forward(w->attn, post ? X : tr->N1, ATTN_CAUSAL, tr->attn, tr->A);
    if (status != INVENT_OK)
        return status;
    add(X, tr->A, tr->R1);
    status = layernorm_forward(tr->R1, post ? w->gamma1 : w->gamma2, post ? w->beta1 : w->beta2,
                               w->eps, tr->N2, post ? tr->mean1 : tr->mean2,
                               post ? tr->rstd1 : tr->rstd2);
    if (status == INVENT_OK)
        status = mlp_into(w->mlp, tr->N2, tr);
    if (status != INVENT_OK)
        return status;
    if (!post) {
        add(tr->R1, tr->M, Y);
        return INVENT_OK;
    }
    add(tr->N2, tr->M, tr->R2);
    return layernorm_forward(tr->R2, w->gamma2, w->beta2, w->eps, Y, tr->mean2, tr->rstd2);
}

/* dM: (T, d), the MLP's input In -> g's MLP gradients +=, dIn: (T, d) (overwritten) */
static int mlp_back(const mlp_weights *f, const gsl_matrix *In, const gblock_trace *tr,
                    const gsl_matrix *dM, gblock_scratch *s, mlp_weights *g, gsl_matrix *dIn)
{
    int status = grad_linear(tr->F, f->W2, dM, g->W2, g->b2, s->dZ);
    if (status == INVENT_OK)
        status = grad_relu(tr->Z, s->dZ, s->dZ);
    if (status == INVENT_OK)
        status = grad_linear(In, f->W1, s->dZ, g->W1, g->b1, dIn);
    return status;
}

/* pre-norm: dY -> dX, through Y = R1 + MLP(LN2(R1)), R1 = X + MHA(LN1(X)) */
static int back_pre(const block_weights *w, const gsl_matrix *X, const gblock_trace *tr,
                    const gsl_matrix *dY, gblock_scratch *s, block_weights *g, gsl_matrix *dX)
{
    int status = mlp_back(w->mlp, tr->N2, tr, dY, s, g->mlp, s->dN);
    if (status == INVENT_OK)
        status = grad_layernorm(tr->R1, w->gamma2, tr->mean2, tr->rstd2, s->dN, g->gamma2,
                                g->beta2, s->dR);
    if (status != INVENT_OK)
        return status;
    gsl_matrix_add(s->dR, dY); /* dR1: through LN2 and the skip */
    status = grad_mha(w->attn, tr->N1, tr->attn, s->dR, g->attn, s->dN);
    if (status == INVENT_OK)
        status = grad_layernorm(X, w->gamma1, tr->mean1, tr->rstd1, s->dN, g->gamma1, g->beta1,
                                dX);
    if (status == INVENT_OK)
        gsl_matrix_add(dX, s->dR); /* the skip around attention */
    return status;
}

/* post-norm: dY -> dX, through Y = LN2(H + MLP(H)), H = LN1(X + MHA(X)) */
static int back_post(const block_weights *w, const gsl_matrix *X, const gblock_trace *tr,
                     const gsl_matrix *dY, gblock_scratch *s, block_weights *g, gsl_matrix *dX)
{
    int status = grad_layernorm(tr->R2, w->gamma2, tr->mean2, tr->rstd2, dY, g->gamma2,
                                g->beta2, s->dR);
    if (status == INVENT_OK)
        status = mlp_back(w->mlp, tr->N2, tr, s->dR, s, g->mlp, s->dN);
    if (status != INVENT_OK)
        return status;
    gsl_matrix_add(s->dN, s->dR); /* dH: through the MLP and the skip */
    status = grad_layernorm(tr->R1, w->gamma1, tr->mean1, tr->rstd1, s->dN, g->gamma1, g->beta1,
                            s->dA);
    if (status == INVENT_OK)
        status = grad_mha(w->attn, X, tr->attn, s->dA, g->attn, dX);
    if (status == INVENT_OK)
        gsl_matrix_add(dX, s->dA); /* the skip around attention */
    return status;
}

int gblock_backward(const block_weights *w, norm_place place, const gsl_matrix *X,
                    const gblock_trace *tr, const gsl_matrix *dY, gblock_scratch *s,
                    block_weights *g, gsl_matrix *dX)
{
    return place == NORM_POST ? back_post(w, X, tr, dY, s, g, dX)
                              : back_pre(w, X, tr, dY, s, g, dX);
}
