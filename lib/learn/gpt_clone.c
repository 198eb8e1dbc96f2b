#include "gpt_clone.h"

#include <stdlib.h>

#include "mat.h"

static gsl_vector *vector_clone(const gsl_vector *v)
{
    gsl_vector *c = gsl_vector_alloc(v->size);
    if (c)
        gsl_vector_memcpy(c, v);
    return c;
}

/* b -> a copy of every tensor of the block, eps and flags as in b; NULL when out of memory */
static block_weights *block_clone(const block_weights *b)
{
    block_weights *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *b; /* eps, the norm's place, the mask flag; every pointer replaced below */
    c->attn = calloc(1, sizeof *c->attn);
    c->mlp = calloc(1, sizeof *c->mlp);
    c->gamma1 = vector_clone(b->gamma1);
    c->beta1 = vector_clone(b->beta1);
    c->gamma2 = vector_clone(b->gamma2);
    c->beta2 = vector_clone(b->beta2);
    if (c->attn)
        *c->attn = (mha_weights){.heads = b->attn->heads, .Wq = mat_clone(b->attn->Wq),
                                 .Wk = mat_clone(b->attn->Wk), .Wv = mat_clone(b->attn->Wv),
                                 .Wo = mat_clone(b->attn->Wo)};
    if (c->mlp)
        *c->mlp = (mlp_weights){.W1 = mat_clone(b->mlp->W1), .b1 = vector_clone(b->mlp->b1),
                                .W2 = mat_clone(b->mlp->W2), .b2 = vector_clone(b->mlp->b2),
                                .f = b->mlp->f};
    int ok = c->attn && c->mlp && c->gamma1 && c->beta1 && c->gamma2 && c->beta2 &&
             c->attn->Wq && c->attn->Wk && c->attn->Wv && c->attn->Wo && c->mlp->W1 &&
             c->mlp->b1 && c->mlp->W2 && c->mlp->b2;
    if (!ok) {
        block_free(c);
        return NULL;
    }
    return c;
}

gpt_weights *gpt_clone(const gpt_weights *w)
{
    gpt_weights *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t L = w->shape.layers;
    *c = (gpt_weights){.shape = w->shape, .E = mat_clone(w->E), .P = mat_clone(w->P),
                       .blocks = calloc(L, sizeof *c->blocks), .gamma = vector_clone(w->gamma),
                       .beta = vector_clone(w->beta), .Wout = mat_clone(w->Wout),
                       .bout = vector_clone(w->bout), .eps = w->eps};
    int ok = c->E && c->P && c->blocks && c->gamma && c->beta && c->Wout && c->bout;
    for (size_t l = 0; ok && l < L; l++)
        ok = (c->blocks[l] = block_clone(w->blocks[l])) != NULL;
    if (!ok) {
        gpt_free(c);
        return NULL;
    }
    return c;
}
