#include "block.h"

#include <stdlib.h>

#include "layernorm.h"
#include "status.h"

/* (d) -> a vector with every entry set to value, or NULL */
static gsl_vector *constant(size_t d, double value)
{
    gsl_vector *v = gsl_vector_alloc(d);
    if (v)
        gsl_vector_set_all(v, value);
    return v;
}

block_weights *block_new(size_t d, size_t heads, size_t hidden, gsl_rng *r)
{
    if (heads == 0 || d % heads != 0)
        return NULL;
    block_weights *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->eps = 1e-5;
    w->attn = mha_new(d, heads, d / heads, d / heads, r);
    w->mlp = mlp_new(d, hidden, MLP_RELU, r);
    w->gamma1 = constant(d, 1.0);
    w->beta1 = constant(d, 0.0);
    w->gamma2 = constant(d, 1.0);
    w->beta2 = constant(d, 0.0);
    if (!w->attn || !w->mlp || !w->gamma1 || !w->beta1 || !w->gamma2 || !w->beta2) {
        block_free(w);
        return NULL;
    }
    return w;
}

void block_free(block_weights *w)
{
    if (!w)
        return;
    mha_free(w->attn);
    mlp_free(w->mlp);
    gsl_vector_free(w->gamma1);
    gsl_vector_free(w->beta1);
    gsl_vector_free(w->gamma2);
    gsl_vector_free(w->beta2);
    free(w);
}

block_trace *block_trace_new(size_t T, const block_weights *w)
{
    if (T == 0)
        return NULL;
    block_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    size_t d = w->attn->Wo->size1, m = w->mlp->W1->size1;
    tr->attn = mha_trace_new(T, w->attn);
    tr->A = gsl_matrix_alloc(T, d);
    tr->R1 = gsl_matrix_alloc(T, d);
    tr->H = gsl_matrix_alloc(T, d);
    tr->Z = gsl_matrix_alloc(T, m);
    tr->M = gsl_matrix_alloc(T, d);
    tr->R2 = gsl_matrix_alloc(T, d);
    if (!tr->attn || !tr->A || !tr->R1 || !tr->H || !tr->Z || !tr->M || !tr->R2) {
        block_trace_free(tr);
        return NULL;
    }
    return tr;
}

void block_trace_free(block_trace *tr)
{
    if (!tr)
        return;
    mha_trace_free(tr->attn);
    gsl_matrix_free(tr->A);
    gsl_matrix_free(tr->R1);
    gsl_matrix_free(tr->H);
    gsl_matrix_free(tr->Z);
    gsl_matrix_free(tr->M);
    gsl_matrix_free(tr->R2);
    free(tr);
}

/* out <- a + b, all (T, d) */
static void skip(const gsl_matrix *a, const gsl_matrix *b, gsl_matrix *out)
{
    gsl_matrix_memcpy(out, a);
    gsl_matrix_add(out, b);
}

static int forward_into(const block_weights *w, const gsl_matrix *X, block_trace *tr,
                        gsl_matrix *Y)
{
    if (tr->A->size1 != X->size1 || tr->A->size2 != X->size2 || Y->size1 != X->size1 ||
        Y->size2 != X->size2)
        return INVENT_ESHAPE;
    int status = mha_forward(w->attn, X, ATTN_CAUSAL, tr->attn, tr->A);
    if (status != INVENT_OK)
        return status;
    skip(X, tr->A, tr->R1);
    status = layernorm_forward(tr->R1, w->gamma1, w->beta1, w->eps, tr->H, NULL, NULL);
    if (status == INVENT_OK)
        status = mlp_forward(w->mlp, tr->H, tr->Z, tr->M);
    if (status != INVENT_OK)
        return status;
    skip(tr->H, tr->M, tr->R2);
    return layernorm_forward(tr->R2, w->gamma2, w->beta2, w->eps, Y, NULL, NULL);
}

int block_forward(const block_weights *w, const gsl_matrix *X, block_trace *tr, gsl_matrix *Y)
{
    if (tr)
        return forward_into(w, X, tr, Y);
    block_trace *tmp = block_trace_new(X->size1, w);
    if (!tmp)
        return INVENT_ENOMEM;
    int status = forward_into(w, X, tmp, Y);
    block_trace_free(tmp);
    return status;
}
