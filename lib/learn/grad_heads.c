#include "grad_heads.h"

#include <math.h>

#include <gsl/gsl_blas.h>

#include "grad_attention.h"
#include "grad_linear.h"
#include "status.h"

typedef struct {
    gsl_matrix *dC, *dQ, *dK, *dV, *dXpart; /* (T, H*dv), (T, H*dk) x2, (T, H*dv), (T, d) */
} scratch;

static void scratch_free(scratch *s)
{
    gsl_matrix_free(s->dC);
    gsl_matrix_free(s->dQ);
    gsl_matrix_free(s->dK);
    gsl_matrix_free(s->dV);
    gsl_matrix_free(s->dXpart);
}

static int scratch_alloc(scratch *s, const mha_trace *tr, size_t d)
{
    size_t T = tr->Q->size1;
    s->dC = gsl_matrix_alloc(T, tr->C->size2);
    s->dQ = gsl_matrix_alloc(T, tr->Q->size2);
    s->dK = gsl_matrix_alloc(T, tr->K->size2);
    s->dV = gsl_matrix_alloc(T, tr->V->size2);
    s->dXpart = gsl_matrix_alloc(T, d);
    return s->dC && s->dQ && s->dK && s->dV && s->dXpart ? INVENT_OK : INVENT_ENOMEM;
}

/* dC (all heads) -> dQ, dK, dV (all heads), one head at a time */
static int heads_back(const mha_weights *w, const mha_trace *tr, scratch *s)
{
    size_t H = w->heads, T = tr->Q->size1;
    double scale = 1.0 / sqrt((double)(tr->Q->size2 / H));
    int status = INVENT_OK;
    for (size_t j = 0; j < H && status == INVENT_OK; j++) {
        _gsl_matrix_const_view Q = heads_const_columns(tr->Q, H, j),
                               K = heads_const_columns(tr->K, H, j),
                               V = heads_const_columns(tr->V, H, j),
                               A = gsl_matrix_const_submatrix(tr->A, j * T, 0, T, T),
                               dO = heads_const_columns(s->dC, H, j);
        gsl_matrix_view dQ = heads_columns(s->dQ, H, j), dK = heads_columns(s->dK, H, j),
                        dV = heads_columns(s->dV, H, j);
        status = grad_attention(&Q.matrix, &K.matrix, &V.matrix, &A.matrix, scale, &dO.matrix,
                                &dQ.matrix, &dK.matrix, &dV.matrix);
    }
    return status;
}

/* the projections P = X W^T: adds to gW, and each one's share of dX */
static int projections_back(const mha_weights *w, const gsl_matrix *X, scratch *s,
                            mha_weights *g, gsl_matrix *dX)
{
    const gsl_matrix *W[3] = {w->Wq, w->Wk, w->Wv};
    const gsl_matrix *dP[3] = {s->dQ, s->dK, s->dV};
    gsl_matrix *gW[3] = {g->Wq, g->Wk, g->Wv};
    if (dX)
        gsl_matrix_set_zero(dX);
    for (int k = 0; k < 3; k++) {
        int status = grad_linear(X, W[k], dP[k], gW[k], NULL, dX ? s->dXpart : NULL);
        if (status != INVENT_OK)
            return status;
        if (dX)
            gsl_matrix_add(dX, s->dXpart);
    }
    return INVENT_OK;
}

int grad_mha(const mha_weights *w, const gsl_matrix *X, const mha_trace *tr,
             const gsl_matrix *dOut, mha_weights *g, gsl_matrix *dX)
{
    if (g->heads != w->heads || X->size2 != w->Wo->size1 || tr->Q->size1 != X->size1)
        return INVENT_ESHAPE;
    scratch s = {0};
    int status = scratch_alloc(&s, tr, X->size2);
    if (status == INVENT_OK) /* out = C W_o^T */
        status = grad_linear(tr->C, w->Wo, dOut, g->Wo, NULL, s.dC);
    if (status == INVENT_OK)
        status = heads_back(w, tr, &s);
    if (status == INVENT_OK)
        status = projections_back(w, X, &s, g, dX);
    scratch_free(&s);
    return status;
}
