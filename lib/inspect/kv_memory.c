#include "kv_memory.h"

#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_sort_vector.h>
#include <gsl/gsl_statistics.h>

#include "status.h"

int kv_top_positions(const gsl_matrix *F, size_t unit, size_t k, size_t *top)
{
    if (unit >= F->size2 || k > F->size1)
        return INVENT_ESHAPE;
    gsl_vector_const_view col = gsl_matrix_const_column(F, unit);
    return gsl_sort_vector_largest_index(top, k, &col.vector) ? INVENT_ENUMERIC : INVENT_OK;
}

int kv_most_active(const gsl_matrix *F, size_t k, size_t *units)
{
    size_t m = F->size2;
    if (k > m)
        return INVENT_ESHAPE;
    gsl_vector *mean = gsl_vector_alloc(m);
    if (!mean)
        return INVENT_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        gsl_vector_const_view col = gsl_matrix_const_column(F, i);
        gsl_vector_set(mean, i, gsl_stats_mean(col.vector.data, col.vector.stride, F->size1));
    }
    int status = gsl_sort_vector_largest_index(units, k, mean) ? INVENT_ENUMERIC : INVENT_OK;
    gsl_vector_free(mean);
    return status;
}

int kv_value_logits(const gpt_weights *w, size_t l, size_t i, gsl_vector *logits)
{
    size_t d = w->shape.dim;
    if (l >= w->shape.layers || i >= w->blocks[l]->mlp->W2->size2 ||
        logits->size != w->shape.vocab)
        return INVENT_ESHAPE;
    const gsl_matrix *W2 = w->blocks[l]->mlp->W2;
    gsl_vector *u = gsl_vector_alloc(d);
    if (!u)
        return INVENT_ENOMEM;
    gsl_vector_const_view v = gsl_matrix_const_column(W2, i);
    double mean = gsl_stats_mean(v.vector.data, v.vector.stride, d);
    for (size_t c = 0; c < d; c++) /* gamma * (v - mean v) */
        gsl_vector_set(u, c, gsl_vector_get(w->gamma, c) * (gsl_vector_get(&v.vector, c) - mean));
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->Wout, u, 0.0, logits);
    gsl_vector_free(u);
    return INVENT_OK;
}

double kv_agreement(const size_t *tokens, size_t k)
{
    size_t best = 0;
    for (size_t a = 0; a < k; a++) {
        size_t same = 0;
        for (size_t b = 0; b < k; b++)
            same += tokens[b] == tokens[a];
        best = same > best ? same : best;
    }
    return k ? (double)best / (double)k : 0.0;
}
