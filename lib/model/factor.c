#include "factor.h"

#include <math.h>

#include <gsl/gsl_blas.h>

#include "linalg.h"
#include "mat.h"
#include "status.h"

/* W: (r, n) <- sqrt(s_j) times column j of B: (n, k >= r), row by row */
static void scaled_rows(const gsl_matrix *B, const gsl_vector *s, gsl_matrix *W)
{
    for (size_t j = 0; j < W->size1; j++) {
        gsl_vector_view row = gsl_matrix_row(W, j);
        gsl_matrix_get_col(&row.vector, B, j);
        gsl_vector_scale(&row.vector, sqrt(gsl_vector_get(s, j)));
    }
}

int factor_svd(const gsl_matrix *A, gsl_matrix *Wq, gsl_matrix *Wk)
{
    size_t m = A->size1, n = A->size2, k = m < n ? m : n, r = Wq->size1;
    if (r == 0 || r > k || Wk->size1 != r || Wq->size2 != m || Wk->size2 != n)
        return INVENT_ESHAPE;
    gsl_matrix *U = gsl_matrix_alloc(m, k), *V = gsl_matrix_alloc(n, k);
    gsl_vector *s = gsl_vector_alloc(k);
    int status = U && V && s ? linalg_svd(A, U, s, V) : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        scaled_rows(U, s, Wq);
        scaled_rows(V, s, Wk);
    }
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    return status;
}

int factor_scores(const gsl_matrix *X, const gsl_matrix *Wq, const gsl_matrix *Wk,
                  gsl_matrix *Q, gsl_matrix *K, gsl_matrix *S)
{
    return factor_cross_scores(X, X, Wq, Wk, Q, K, S);
}

int factor_cross_scores(const gsl_matrix *Y, const gsl_matrix *X, const gsl_matrix *Wq,
                        const gsl_matrix *Wk, gsl_matrix *Q, gsl_matrix *K, gsl_matrix *S)
{
    size_t Tq = Y->size1, Tk = X->size1, r = Wq->size1;
    if (Wq->size2 != Y->size2 || Wk->size1 != r || Wk->size2 != X->size2 || S->size1 != Tq ||
        S->size2 != Tk || Q->size1 != Tq || Q->size2 != r || K->size1 != Tk || K->size2 != r)
        return INVENT_ESHAPE;
    /* row t of Y W_q^T is W_q y_t, row i of X W_k^T is W_k x_i */
    mat_mul(Y, CblasNoTrans, Wq, CblasTrans, Q);
    mat_mul(X, CblasNoTrans, Wk, CblasTrans, K);
    return mat_mul(Q, CblasNoTrans, K, CblasTrans, S);
}
