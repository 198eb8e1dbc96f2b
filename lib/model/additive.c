#include "additive.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "mask.h"
#include "rng.h"
#include "softmax.h"
#include "status.h"

additive_score *additive_zeros(size_t heads, size_t r)
{
    if (heads == 0 || r == 0)
        return NULL;
    additive_score *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->b = gsl_matrix_calloc(heads, r);
    a->v = gsl_matrix_calloc(heads, r);
    if (!a->b || !a->v) {
        additive_free(a);
        return NULL;
    }
    return a;
}

additive_score *additive_new(size_t heads, size_t r, gsl_rng *rng)
{
    additive_score *a = rng ? additive_zeros(heads, r) : NULL;
    if (a)
        rng_fill_gaussian(a->v, rng, 1.0 / sqrt((double)r));
    return a;
}

void additive_free(additive_score *a)
{
    if (!a)
        return;
    gsl_matrix_free(a->b);
    gsl_matrix_free(a->v);
    free(a);
}

/* q_t, k_s, b, v: (r) as arrays (stride 1 within a row) -> v . tanh(q + k + b) */
static double pair_score(const double *q, const double *k, const gsl_vector *b,
                         const gsl_vector *v)
{
    double s = 0.0;
    for (size_t i = 0; i < b->size; i++)
        s += gsl_vector_get(v, i) * tanh(q[i] + k[i] + gsl_vector_get(b, i));
    return s;
}

static int fits(const gsl_matrix *Q, const gsl_matrix *K, const gsl_vector *b,
                const gsl_vector *v, const gsl_matrix *W)
{
    size_t r = Q->size2;
    return K->size2 == r && b->size == r && v->size == r && W->size1 == Q->size1 &&
           W->size2 == K->size1;
}

int additive_weights(const gsl_matrix *Q, const gsl_matrix *K, const gsl_vector *b,
                     const gsl_vector *v, attn_mask mask, gsl_matrix *W)
{
    if (!fits(Q, K, b, v, W) || (mask == ATTN_CAUSAL && Q->size1 != K->size1))
        return INVENT_ESHAPE;
    gsl_matrix_set_all(W, -INFINITY);
    for (size_t t = 0; t < Q->size1; t++) {
        size_t visible = mask == ATTN_CAUSAL ? t + 1 : K->size1;
        for (size_t s = 0; s < visible; s++)
            gsl_matrix_set(W, t, s, pair_score(gsl_matrix_const_ptr(Q, t, 0),
                                               gsl_matrix_const_ptr(K, s, 0), b, v));
    }
    return softmax_rows(W, 1.0);
}

/* dS_ts, q_t, k_s -> dq_t, dk_s, db += dS v (1 - u^2) and dv += dS u, u = tanh(q + k + b) */
static void pair_backward(double dS, const double *q, const double *k, const gsl_vector *b,
                          const gsl_vector *v, double *dq, double *dk, gsl_vector *db,
                          gsl_vector *dv)
{
    for (size_t i = 0; i < b->size; i++) {
        double u = tanh(q[i] + k[i] + gsl_vector_get(b, i));
        double g = dS * gsl_vector_get(v, i) * (1.0 - u * u);
        dq[i] += g;
        dk[i] += g;
        *gsl_vector_ptr(db, i) += g;
        *gsl_vector_ptr(dv, i) += dS * u;
    }
}

int additive_backward(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                      const gsl_vector *b, const gsl_vector *v, const gsl_matrix *W,
                      const gsl_matrix *dOut, gsl_matrix *dQ, gsl_matrix *dK, gsl_matrix *dV,
                      gsl_vector *db, gsl_vector *dv_, gsl_matrix *work)
{
    size_t T = W->size1, Tk = W->size2;
    if (!fits(Q, K, b, v, W) || V->size1 != Tk || dOut->size1 != T ||
        dOut->size2 != V->size2 || dV->size1 != Tk || dV->size2 != V->size2 ||
        dQ->size1 != T || dQ->size2 != Q->size2 || dK->size1 != Tk ||
        dK->size2 != K->size2 || db->size != b->size || dv_->size != v->size ||
        work->size1 != 2 * T || work->size2 != Tk)
        return INVENT_ESHAPE;
    gsl_matrix_view dW = gsl_matrix_submatrix(work, 0, 0, T, Tk),
                    dS = gsl_matrix_submatrix(work, T, 0, T, Tk);
    /* out = W V: dV += W^T dOut and dW = dOut V^T */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, W, dOut, 1.0, dV);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, dOut, V, 0.0, &dW.matrix);
    /* W = softmax(S) row by row */
    gsl_matrix_set_zero(&dS.matrix);
    int status = softmax_rows_backward(W, &dW.matrix, &dS.matrix);
    /* S_ts = v . tanh(q_t + k_s + b), pair by pair */
    for (size_t t = 0; status == INVENT_OK && t < T; t++)
        for (size_t s = 0; s < Tk; s++) {
            double g = gsl_matrix_get(&dS.matrix, t, s);
            if (g != 0.0)
                pair_backward(g, gsl_matrix_const_ptr(Q, t, 0), gsl_matrix_const_ptr(K, s, 0), b,
                              v, gsl_matrix_ptr(dQ, t, 0), gsl_matrix_ptr(dK, s, 0), db, dv_);
        }
    return status;
}
