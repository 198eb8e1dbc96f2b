#include "induction.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_statistics.h>

#include "heads.h"
#include "status.h"

int induction_prefix_score(const gsl_matrix *A, const size_t *x, size_t from, double *score)
{
    if (A->size1 != A->size2)
        return INVENT_ESHAPE;
    double sum = 0.0;
    size_t queries = 0;
    for (size_t t = from; t < A->size1; t++) {
        double w = 0.0;
        int any = 0;
        for (size_t s = 1; s < t; s++)
            if (x[s - 1] == x[t])
                w += gsl_matrix_get(A, t, s), any = 1;
        sum += w;
        queries += (size_t)any;
    }
    *score = queries ? sum / (double)queries : 0.0;
    return INVENT_OK;
}

int induction_head_logits(const gpt_weights *w, const gpt_probe *p, size_t l, size_t j,
                          gsl_matrix *Z)
{
    size_t T = p->T, d = w->shape.dim, H = w->shape.heads;
    if (l >= w->shape.layers || j >= H || Z->size1 != T || Z->size2 != w->shape.vocab)
        return INVENT_ESHAPE;
    gsl_matrix *U = gsl_matrix_alloc(T, d);
    if (!U)
        return INVENT_ENOMEM;
    _gsl_matrix_const_view C = heads_const_columns(p->blk[l]->attn->C, H, j);
    _gsl_matrix_const_view O = heads_const_columns(w->blocks[l]->attn->Wo, H, j);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, &C.matrix, &O.matrix, 0.0, U); /* C_j W_o^(j)T */
    for (size_t t = 0; t < T; t++) { /* gamma * (u - mean u), row by row */
        gsl_vector_view u = gsl_matrix_row(U, t);
        double mean = gsl_stats_mean(u.vector.data, 1, d);
        gsl_vector_add_constant(&u.vector, -mean);
        gsl_vector_mul(&u.vector, w->gamma);
    }
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, U, w->Wout, 0.0, Z);
    gsl_matrix_free(U);
    return INVENT_OK;
}

double induction_copy_score(const gsl_matrix *Z, const size_t *x, size_t from)
{
    size_t V = Z->size2, n = 0;
    double sum = 0.0;
    for (size_t t = from; t + 1 < Z->size1; t++, n++) {
        double want = gsl_matrix_get(Z, t, x[t + 1]);
        size_t below = 0;
        for (size_t v = 0; v < V; v++)
            below += gsl_matrix_get(Z, t, v) < want;
        sum += (double)below / (double)(V - 1);
    }
    return n ? sum / (double)n : 0.0;
}
