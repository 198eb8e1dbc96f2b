#include "attention.h"

#include <gsl/gsl_blas.h>

#include "mask.h"
#include "softmax.h"
#include "status.h"

static int shapes_fit(const gsl_matrix *Q, const gsl_matrix *K, attn_mask mask)
{
    return Q->size2 == K->size2 && (mask != ATTN_CAUSAL || Q->size1 == K->size1);
}

int attn_weights(const gsl_matrix *Q, const gsl_matrix *K, double scale, attn_mask mask,
                 gsl_matrix *W)
{
    if (!shapes_fit(Q, K, mask) || W->size1 != Q->size1 || W->size2 != K->size1)
        return INVENT_ESHAPE;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, scale, Q, K, 0.0, W);
    if (mask == ATTN_CAUSAL)
        mask_causal(W);
    return softmax_rows(W, 1.0);
}

int attn_forward(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, double scale,
                 attn_mask mask, gsl_matrix *W, gsl_matrix *out)
{
    if (V->size1 != K->size1 || out->size1 != Q->size1 || out->size2 != V->size2)
        return INVENT_ESHAPE;
    int status = attn_weights(Q, K, scale, mask, W);
    if (status == INVENT_OK)
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, W, V, 0.0, out);
    return status;
}

static int same_shape(const gsl_matrix *A, const gsl_matrix *B)
{
    return A->size1 == B->size1 && A->size2 == B->size2;
}

static int backward_shapes_fit(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                               const gsl_matrix *W, const gsl_matrix *dOut,
                               const gsl_matrix *work)
{
    return Q->size2 == K->size2 && V->size1 == K->size1 && W->size1 == Q->size1 &&
           W->size2 == K->size1 && dOut->size1 == Q->size1 && dOut->size2 == V->size2 &&
           work->size1 == 2 * W->size1 && work->size2 == W->size2;
}

int attn_backward(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, double scale,
                  const gsl_matrix *W, const gsl_matrix *dOut, gsl_matrix *dQ, gsl_matrix *dK,
                  gsl_matrix *dV, gsl_matrix *work)
{
    if (!backward_shapes_fit(Q, K, V, W, dOut, work) || !same_shape(Q, dQ) ||
        !same_shape(K, dK) || !same_shape(V, dV))
        return INVENT_ESHAPE;
    size_t T = W->size1;
    gsl_matrix_view dW = gsl_matrix_submatrix(work, 0, 0, T, W->size2),
                    dS = gsl_matrix_submatrix(work, T, 0, T, W->size2);
    /* out = W V: dV += W^T dOut and dW = dOut V^T */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, W, dOut, 1.0, dV);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, dOut, V, 0.0, &dW.matrix);
    /* W = softmax(S) row by row */
    gsl_matrix_set_zero(&dS.matrix);
    int status = softmax_rows_backward(W, &dW.matrix, &dS.matrix);
    /* S = scale Q K^T: dQ += scale dS K and dK += scale dS^T Q */
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, scale, &dS.matrix, K, 1.0, dQ);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, scale, &dS.matrix, Q, 1.0, dK);
    return status;
}

/* out_t <- sum over visible i of softmax(scale q_t . k_i) v_i, for one t */
static int attend_one(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                      double scale, size_t t, size_t visible, gsl_vector *s, gsl_matrix *out)
{
    gsl_vector_const_view q = gsl_matrix_const_row(Q, t);
    gsl_vector_view w = gsl_vector_subvector(s, 0, visible);
    for (size_t i = 0; i < visible; i++) {
        gsl_vector_const_view k = gsl_matrix_const_row(K, i);
        double dot;
        gsl_blas_ddot(&q.vector, &k.vector, &dot);
        gsl_vector_set(&w.vector, i, scale * dot);
    }
    int status = softmax_vector(&w.vector, 1.0);
    gsl_vector_view o = gsl_matrix_row(out, t);
    gsl_vector_set_zero(&o.vector);
    for (size_t i = 0; i < visible && status == INVENT_OK; i++) {
        gsl_vector_const_view v = gsl_matrix_const_row(V, i);
        gsl_blas_daxpy(gsl_vector_get(&w.vector, i), &v.vector, &o.vector);
    }
    return status;
}

int attn_sum_form(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V, double scale,
                  attn_mask mask, gsl_vector *scores, gsl_matrix *out)
{
    if (!shapes_fit(Q, K, mask) || V->size1 != K->size1 || out->size1 != Q->size1 ||
        out->size2 != V->size2 || scores->size != K->size1)
        return INVENT_ESHAPE;
    int status = INVENT_OK;
    for (size_t t = 0; t < Q->size1 && status == INVENT_OK; t++) {
        size_t visible = mask == ATTN_CAUSAL ? t + 1 : K->size1;
        status = attend_one(Q, K, V, scale, t, visible, scores, out);
    }
    return status;
}
