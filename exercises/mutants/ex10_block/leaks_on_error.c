/* Mutant: returns a failing library call's status without freeing its scratch matrices. Expect: also when a library call fails */
#include "exercises.h"

int ex10_block(const block_weights *w, const gsl_matrix *X, gsl_matrix *Y)
{
    size_t T = X->size1, d = X->size2;
    if (Y->size1 != T || Y->size2 != d)
        return INVENT_ESHAPE;
    gsl_matrix *A = gsl_matrix_alloc(T, d), *H = gsl_matrix_alloc(T, d);
    mha_trace *at = mha_trace_new(T, w->attn);
    mlp_trace *mt = mlp_trace_new(T, w->mlp);
    int status = mha_forward(w->attn, X, ATTN_CAUSAL, at, A);
    if (status != INVENT_OK)
        return status;
    gsl_matrix_add(A, X);
    layernorm_forward(A, w->gamma1, w->beta1, w->eps, H, NULL, NULL);
    mlp_forward(w->mlp, H, mt, A);
    gsl_matrix_add(A, H);
    status = layernorm_forward(A, w->gamma2, w->beta2, w->eps, Y, NULL, NULL);
    gsl_matrix_free(A);
    gsl_matrix_free(H);
    mha_trace_free(at);
    mlp_trace_free(mt);
    return status;
}
