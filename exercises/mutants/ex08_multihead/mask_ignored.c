/* Mutant: always attends causally, whatever mask it is given. Expect: the mask argument is ignored */
#include <math.h>

#include "exercises.h"

int ex08_multihead(const mha_weights *w, const gsl_matrix *X, attn_mask mask, gsl_matrix *out)
{
    size_t T = X->size1, d = X->size2, H = w->heads;
    if (w->Wq->size2 != d || w->Wk->size2 != d || w->Wv->size2 != d || w->Wo->size1 != d ||
        out->size1 != T || out->size2 != d)
        return INVENT_ESHAPE;
    gsl_matrix *Q = mat_product(X, CblasNoTrans, w->Wq, CblasTrans);
    gsl_matrix *K = mat_product(X, CblasNoTrans, w->Wk, CblasTrans);
    gsl_matrix *V = mat_product(X, CblasNoTrans, w->Wv, CblasTrans);
    gsl_matrix *C = gsl_matrix_alloc(T, w->Wv->size1), *W = gsl_matrix_alloc(T, T);
    int status = Q && K && V && C && W ? INVENT_OK : INVENT_ENOMEM;
    double scale = 1.0 / sqrt((double)(w->Wq->size1 / H));
    (void)mask;
    for (size_t j = 0; j < H && status == INVENT_OK; j++) {
        gsl_matrix_const_view Qj = heads_const_columns(Q, H, j), Kj = heads_const_columns(K, H, j);
        gsl_matrix_const_view Vj = heads_const_columns(V, H, j);
        gsl_matrix_view Cj = heads_columns(C, H, j);
        status = attn_forward(&Qj.matrix, &Kj.matrix, &Vj.matrix, scale, ATTN_CAUSAL, W, &Cj.matrix);
    }
    if (status == INVENT_OK)
        status = mat_mul(C, CblasNoTrans, w->Wo, CblasTrans, out);
    gsl_matrix_free(Q);
    gsl_matrix_free(K);
    gsl_matrix_free(V);
    gsl_matrix_free(W);
    gsl_matrix_free(C);
    return status;
}
