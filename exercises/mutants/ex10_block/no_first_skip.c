/* Mutant: normalises the attention's output alone, without adding X. Expect: the first skip connection is missing */
#include "exercises.h"

int ex10_block(const block_weights *w, const gsl_matrix *X, gsl_matrix *Y)
{
    size_t T = X->size1, d = X->size2;
    if (Y->size1 != T || Y->size2 != d)
        return INVENT_ESHAPE;
    gsl_matrix *A = gsl_matrix_alloc(T, d), *H = gsl_matrix_alloc(T, d);
    int status = A && H ? mha_forward(w->attn, X, ATTN_CAUSAL, NULL, A) : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        /* no skip */
        status = layernorm_forward(A, w->gamma1, w->beta1, w->eps, H, NULL, NULL);
    }
    if (status == INVENT_OK)
        status = mlp_forward(w->mlp, H, NULL, A);
    if (status == INVENT_OK) {
        gsl_matrix_add(A, H);
        status = layernorm_forward(A, w->gamma2, w->beta2, w->eps, Y, NULL, NULL);
    }
    gsl_matrix_free(A);
    gsl_matrix_free(H);
    return status;
}
