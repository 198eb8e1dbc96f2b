#include "probe.h"

#include <stdlib.h>

#include "embedding.h"
#include "status.h"

gpt_probe *gpt_probe_new(const gpt_weights *w, size_t T)
{
    size_t L = w->shape.layers;
    if (T == 0 || T > w->shape.context)
        return NULL;
    gpt_probe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    *p = (gpt_probe){.T = T, .L = L, .X = calloc(L + 1, sizeof(gsl_matrix *)),
                     .blk = calloc(L, sizeof(block_trace *))};
    int ok = p->X && p->blk;
    for (size_t l = 0; ok && l <= L; l++)
        ok = (p->X[l] = gsl_matrix_alloc(T, w->shape.dim)) != NULL;
    for (size_t l = 0; ok && l < L; l++)
        ok = (p->blk[l] = block_trace_new(T, w->blocks[l])) != NULL;
    if (!ok) {
        gpt_probe_free(p);
        return NULL;
    }
    return p;
}

void gpt_probe_free(gpt_probe *p)
{
    if (!p)
        return;
    for (size_t l = 0; p->X && l <= p->L; l++)
        gsl_matrix_free(p->X[l]);
    for (size_t l = 0; p->blk && l < p->L; l++)
        block_trace_free(p->blk[l]);
    free(p->X);
    free(p->blk);
    free(p);
}

int gpt_probe_run(const gpt_weights *w, const size_t *ids, gpt_probe *p)
{
    int status = embedding_forward(w->E, w->P, ids, 1, p->T, p->X[0]);
    for (size_t l = 0; status == INVENT_OK && l < p->L; l++)
        status = block_forward(w->blocks[l], p->X[l], p->blk[l], p->X[l + 1]);
    return status;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
gsl_matrix_const_view gpt_probe_attention(const gpt_probe *p, size_t l, size_t j)
{
    /* head j's weights are rows j*T .. j*T + T - 1 of the trace */
    return gsl_matrix_const_submatrix(p->blk[l]->attn->A, j * p->T, 0, p->T, p->T);
}
#pragma GCC diagnostic pop
