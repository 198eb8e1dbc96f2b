#include "heads.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "linear.h"
#include "mat.h"
#include "status.h"

mha_weights *mha_new(size_t d, size_t heads, size_t dk, size_t dv, gsl_rng *r)
{
    if (d == 0 || heads == 0 || dk == 0 || dv == 0)
        return NULL;
    mha_weights *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->heads = heads;
    w->Wq = mat_gaussian(heads * dk, d, 1.0 / sqrt((double)d), r);
    w->Wk = mat_gaussian(heads * dk, d, 1.0 / sqrt((double)d), r);
    w->Wv = mat_gaussian(heads * dv, d, 1.0 / sqrt((double)d), r);
    w->Wo = mat_gaussian(d, heads * dv, 1.0 / sqrt((double)(heads * dv)), r);
    if (!w->Wq || !w->Wk || !w->Wv || !w->Wo) {
        mha_free(w);
        return NULL;
    }
    return w;
}

void mha_free(mha_weights *w)
{
    if (!w)
        return;
    gsl_matrix_free(w->Wq);
    gsl_matrix_free(w->Wk);
    gsl_matrix_free(w->Wv);
    gsl_matrix_free(w->Wo);
    additive_free(w->additive);
    free(w);
}

gsl_matrix_view heads_columns(gsl_matrix *M, size_t heads, size_t j)
{
    size_t n = M->size2 / heads;
    return gsl_matrix_submatrix(M, 0, j * n, M->size1, n);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
gsl_matrix_const_view heads_const_columns(const gsl_matrix *M, size_t heads, size_t j)
{
    size_t n = M->size2 / heads;
    return gsl_matrix_const_submatrix(M, 0, j * n, M->size1, n);
}
#pragma GCC diagnostic pop

gsl_matrix_view heads_rows(gsl_matrix *M, size_t heads, size_t j)
{
    size_t n = M->size1 / heads;
    return gsl_matrix_submatrix(M, j * n, 0, n, M->size2);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
gsl_matrix_const_view heads_const_rows(const gsl_matrix *M, size_t heads, size_t j)
{
    size_t n = M->size1 / heads;
    return gsl_matrix_const_submatrix(M, j * n, 0, n, M->size2);
}
#pragma GCC diagnostic pop

int heads_concat(const gsl_matrix *const *O, size_t heads, gsl_matrix *C)
{
    if (heads == 0 || C->size2 % heads != 0)
        return INVENT_ESHAPE;
    for (size_t j = 0; j < heads; j++)
        if (O[j]->size1 != C->size1 || O[j]->size2 != C->size2 / heads)
            return INVENT_ESHAPE;
    for (size_t j = 0; j < heads; j++) {
        gsl_matrix_view block = heads_columns(C, heads, j);
        gsl_matrix_memcpy(&block.matrix, O[j]);
    }
    return INVENT_OK;
}

mha_trace *mha_trace_new(size_t T, const mha_weights *w)
{
    if (T == 0)
        return NULL;
    mha_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->Q = gsl_matrix_alloc(T, w->Wq->size1);
    tr->K = gsl_matrix_alloc(T, w->Wk->size1);
    tr->V = gsl_matrix_alloc(T, w->Wv->size1);
    tr->A = gsl_matrix_alloc(w->heads * T, T);
    tr->C = gsl_matrix_alloc(T, w->Wv->size1);
    if (!tr->Q || !tr->K || !tr->V || !tr->A || !tr->C) {
        mha_trace_free(tr);
        return NULL;
    }
    return tr;
}

void mha_trace_free(mha_trace *tr)
{
    if (!tr)
        return;
    gsl_matrix_free(tr->Q);
    gsl_matrix_free(tr->K);
    gsl_matrix_free(tr->V);
    gsl_matrix_free(tr->A);
    gsl_matrix_free(tr->C);
    free(tr);
}

mha_work *mha_work_new(size_t T, const mha_weights *w)
{
    if (T == 0)
        return NULL;
    mha_work *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->dC = gsl_matrix_alloc(T, w->Wv->size1);
    s->dQ = gsl_matrix_alloc(T, w->Wq->size1);
    s->dK = gsl_matrix_alloc(T, w->Wk->size1);
    s->dV = gsl_matrix_alloc(T, w->Wv->size1);
    s->attn = gsl_matrix_alloc(2 * T, T);
    if (!s->dC || !s->dQ || !s->dK || !s->dV || !s->attn) {
        mha_work_free(s);
        return NULL;
    }
    return s;
}

void mha_work_free(mha_work *s)
{
    if (!s)
        return;
    gsl_matrix_free(s->dC);
    gsl_matrix_free(s->dQ);
    gsl_matrix_free(s->dK);
    gsl_matrix_free(s->dV);
    gsl_matrix_free(s->attn);
    free(s);
}

static int shapes_fit(const mha_weights *w, const gsl_matrix *X, const mha_trace *tr,
                      const gsl_matrix *out)
{
    size_t d = X->size2, T = X->size1, H = w->heads;
    return H > 0 && w->Wq->size2 == d && w->Wk->size2 == d && w->Wv->size2 == d &&
           w->Wq->size1 == w->Wk->size1 && w->Wq->size1 % H == 0 && w->Wv->size1 % H == 0 &&
           w->Wo->size1 == d && w->Wo->size2 == w->Wv->size1 && out->size1 == T &&
           out->size2 == d && tr->Q->size1 == T && tr->Q->size2 == w->Wq->size1 &&
           tr->K->size1 == T && tr->K->size2 == w->Wk->size1 && tr->V->size1 == T &&
           tr->C->size1 == T && tr->C->size2 == w->Wv->size1 &&
           tr->V->size2 == w->Wv->size1 && tr->A->size1 == H * T && tr->A->size2 == T;
}

int mha_head_weights(const mha_weights *w, size_t j, const gsl_matrix *Qj,
                     const gsl_matrix *Kj, attn_mask mask, gsl_matrix *Aj)
{
    if (j >= w->heads)
        return INVENT_ERANGE;
    if (!w->additive)
        return attn_weights(Qj, Kj, 1.0 / sqrt((double)Qj->size2), mask, Aj);
    gsl_vector_const_view b = gsl_matrix_const_row(w->additive->b, j),
                          v = gsl_matrix_const_row(w->additive->v, j);
    return additive_weights(Qj, Kj, &b.vector, &v.vector, mask, Aj);
}

/* head j: A_j = its weights (mha_head_weights), C_j = A_j V_j, all in views of tr */
static int one_head(const mha_weights *w, mha_trace *tr, size_t j, attn_mask mask)
{
    size_t heads = w->heads, T = tr->Q->size1;
    gsl_matrix_view Qj = heads_columns(tr->Q, heads, j), Kj = heads_columns(tr->K, heads, j);
    gsl_matrix_view Vj = heads_columns(tr->V, heads, j), Cj = heads_columns(tr->C, heads, j);
    gsl_matrix_view Aj = gsl_matrix_submatrix(tr->A, j * T, 0, T, T);
    int status = mha_head_weights(w, j, &Qj.matrix, &Kj.matrix, mask, &Aj.matrix);
    if (status == INVENT_OK)
        status = mat_mul(&Aj.matrix, CblasNoTrans, &Vj.matrix, CblasNoTrans, &Cj.matrix);
    return status;
}

int mha_forward(const mha_weights *w, const gsl_matrix *X, attn_mask mask, mha_trace *tr,
                gsl_matrix *out)
{
    if (!tr)
        return INVENT_ERANGE;
    if (!shapes_fit(w, X, tr, out))
        return INVENT_ESHAPE;
    int status = mat_mul(X, CblasNoTrans, w->Wq, CblasTrans, tr->Q);
    if (status == INVENT_OK)
        status = mat_mul(X, CblasNoTrans, w->Wk, CblasTrans, tr->K);
    if (status == INVENT_OK)
        status = mat_mul(X, CblasNoTrans, w->Wv, CblasTrans, tr->V);
    for (size_t j = 0; j < w->heads && status == INVENT_OK; j++)
        status = one_head(w, tr, j, mask);
    if (status == INVENT_OK)
        status = mat_mul(tr->C, CblasNoTrans, w->Wo, CblasTrans, out);
    return status;
}

static int same_shape(const gsl_matrix *A, const gsl_matrix *B)
{
    return A->size1 == B->size1 && A->size2 == B->size2;
}

static int backward_shapes_fit(const mha_weights *w, const gsl_matrix *X, const mha_trace *tr,
                               const mha_weights *g, const gsl_matrix *dX, const mha_work *s)
{
    size_t T = X->size1;
    return g->heads == w->heads && same_shape(g->Wq, w->Wq) && same_shape(g->Wk, w->Wk) &&
           same_shape(g->Wv, w->Wv) && same_shape(g->Wo, w->Wo) && tr->Q->size1 == T &&
           (!dX || same_shape(dX, X)) && same_shape(s->dC, tr->C) && same_shape(s->dQ, tr->Q) &&
           same_shape(s->dK, tr->K) && same_shape(s->dV, tr->V) && s->attn->size1 == 2 * T &&
           s->attn->size2 == T;
}

/* head j: dC_j -> dQ_j, dK_j, dV_j += (and g's b_j, v_j += with the additive score) */
static int head_backward(const mha_weights *w, const mha_trace *tr, size_t j, mha_weights *g,
                         mha_work *s)
{
    size_t H = w->heads, T = tr->Q->size1;
    gsl_matrix_const_view Q = heads_const_columns(tr->Q, H, j),
                          K = heads_const_columns(tr->K, H, j),
                          V = heads_const_columns(tr->V, H, j),
                          A = gsl_matrix_const_submatrix(tr->A, j * T, 0, T, T),
                          dO = heads_const_columns(s->dC, H, j);
    gsl_matrix_view dQ = heads_columns(s->dQ, H, j), dK = heads_columns(s->dK, H, j),
                    dV = heads_columns(s->dV, H, j);
    if (!w->additive)
        return attn_backward(&Q.matrix, &K.matrix, &V.matrix, 1.0 / sqrt((double)Q.matrix.size2),
                             &A.matrix, &dO.matrix, &dQ.matrix, &dK.matrix, &dV.matrix, s->attn);
    gsl_vector_const_view b = gsl_matrix_const_row(w->additive->b, j),
                          v = gsl_matrix_const_row(w->additive->v, j);
    gsl_vector_view db = gsl_matrix_row(g->additive->b, j), dv = gsl_matrix_row(g->additive->v, j);
    return additive_backward(&Q.matrix, &K.matrix, &V.matrix, &b.vector, &v.vector, &A.matrix,
                             &dO.matrix, &dQ.matrix, &dK.matrix, &dV.matrix, &db.vector,
                             &dv.vector, s->attn);
}

/* dC (all heads) -> dQ, dK, dV (all heads), one head at a time */
static int heads_backward(const mha_weights *w, const mha_trace *tr, mha_weights *g,
                          mha_work *s)
{
    int status = !w->additive || g->additive ? INVENT_OK : INVENT_ESHAPE;
    for (size_t j = 0; j < w->heads && status == INVENT_OK; j++)
        status = head_backward(w, tr, j, g, s);
    return status;
}

int mha_backward(const mha_weights *w, const gsl_matrix *X, const mha_trace *tr,
                 const gsl_matrix *dOut, mha_weights *g, gsl_matrix *dX, mha_work *s)
{
    if (!shapes_fit(w, X, tr, dOut) || !backward_shapes_fit(w, X, tr, g, dX, s))
        return INVENT_ESHAPE;
    gsl_matrix *scratch[] = {s->dC, s->dQ, s->dK, s->dV};
    for (int k = 0; k < 4; k++)
        gsl_matrix_set_zero(scratch[k]);
    /* out = C W_o^T */
    int status = linear_backward(tr->C, w->Wo, dOut, s->dC, g->Wo, NULL);
    /* C_j = attn(Q_j, K_j, V_j), head by head */
    if (status == INVENT_OK)
        status = heads_backward(w, tr, g, s);
    /* Q = X W_q^T, K = X W_k^T, V = X W_v^T: their gradients at X add up */
    if (status == INVENT_OK)
        status = linear_backward(X, w->Wq, s->dQ, dX, g->Wq, NULL);
    if (status == INVENT_OK)
        status = linear_backward(X, w->Wk, s->dK, dX, g->Wk, NULL);
    if (status == INVENT_OK)
        status = linear_backward(X, w->Wv, s->dV, dX, g->Wv, NULL);
    return status;
}
