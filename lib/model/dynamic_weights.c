#include "dynamic_weights.h"

#include <math.h>
#include <stdlib.h>

#include "mat.h"
#include "status.h"

/* Whether the kind keeps the weight from source i into unit j, of T units. */
static int kept(dw_kind kind, size_t j, size_t i, size_t T)
{
    if (kind == DW_SELF_ONLY)
        return i == j;
    if (kind == DW_SELF_AND_PREVIOUS)
        return i == j || i == (j + T - 1) % T;
    return 1;
}

/* The generator's arguments for the weight from source i into unit j. */
static int one_weight(const attn_additive *a, dw_kind kind, const gsl_matrix *S,
                      const gsl_matrix *R, const gsl_vector *zero, size_t j, size_t i, double *w)
{
    if (!kept(kind, j, i, S->size1)) {
        *w = 0.0;
        return INVENT_OK;
    }
    gsl_vector_const_view s = gsl_matrix_const_row(S, i);
    gsl_vector_const_view r = gsl_matrix_const_row(R, j);
    const gsl_vector *receiver = kind == DW_SOURCE_ONLY ? zero : &r.vector;
    return attn_additive_score(a->W1, a->W2, a->v, &s.vector, receiver, w);
}

dw_work *dw_work_new(size_t T, size_t d, size_t h)
{
    dw_work *w = calloc(1, sizeof *w);
    if (!w || T == 0 || d == 0 || h == 0) {
        free(w);
        return NULL;
    }
    w->zero = gsl_vector_calloc(d);
    w->P1 = gsl_matrix_alloc(T, h);
    w->P2 = gsl_matrix_alloc(T, h);
    w->Phi = gsl_matrix_alloc(T, h);
    if (!w->zero || !w->P1 || !w->P2 || !w->Phi) {
        dw_work_free(w);
        return NULL;
    }
    return w;
}

void dw_work_free(dw_work *w)
{
    if (!w)
        return;
    gsl_vector_free(w->zero);
    gsl_matrix_free(w->P1);
    gsl_matrix_free(w->P2);
    gsl_matrix_free(w->Phi);
    free(w);
}

int dw_weights(const attn_additive *a, dw_kind kind, const gsl_matrix *S, const gsl_matrix *R,
               const dw_work *w, gsl_matrix *W)
{
    size_t T = S->size1;
    if (R->size1 != T || R->size2 != S->size2 || W->size1 != T || W->size2 != T ||
        w->zero->size != S->size2)
        return INVENT_ESHAPE;
    gsl_vector_set_zero(w->zero);
    int status = INVENT_OK;
    for (size_t j = 0; j < T && status == INVENT_OK; j++)
        for (size_t i = 0; i < T && status == INVENT_OK; i++) {
            double weight = 0.0;
            status = one_weight(a, kind, S, R, w->zero, j, i, &weight);
            gsl_matrix_set(W, j, i, weight);
        }
    return status;
}

/* P1: (T, h) = S W1^T, P2: (T, h) = R W2^T -> Phi: (T, h), row i = the hidden
 * units of the weight from source i into unit j (zero where the kind cuts it) */
static void hidden_units(dw_kind kind, const gsl_matrix *P1, const gsl_matrix *P2, size_t j,
                         gsl_matrix *Phi)
{
    size_t T = P1->size1, h = P1->size2;
    for (size_t i = 0; i < T; i++)
        for (size_t k = 0; k < h; k++) {
            double r = kind == DW_SOURCE_ONLY ? 0.0 : P2->data[j * P2->tda + k];
            int cut = !kept(kind, j, i, T);
            Phi->data[i * Phi->tda + k] = cut ? 0.0 : tanh(P1->data[i * P1->tda + k] + r);
        }
}

/* w: a workspace, T tokens, h hidden units -> whether its matrices are (T, h) */
static int work_fits(const dw_work *w, size_t T, size_t h)
{
    const gsl_matrix *m[] = {w->P1, w->P2, w->Phi};
    for (int k = 0; k < 3; k++)
        if (m[k]->size1 != T || m[k]->size2 != h)
            return 0;
    return 1;
}

int dw_features(const attn_additive *a, dw_kind kind, const gsl_matrix *S, const gsl_matrix *R,
                const gsl_matrix *X, dw_work *w, gsl_matrix *F)
{
    size_t T = S->size1, d = S->size2, h = a->W1->size1;
    if (R->size1 != T || R->size2 != d || X->size1 != T || a->W1->size2 != d ||
        F->size1 != T * X->size2 || F->size2 != h || !work_fits(w, T, h))
        return INVENT_ESHAPE;
    int status = mat_mul(S, CblasNoTrans, a->W1, CblasTrans, w->P1);
    if (status == INVENT_OK)
        status = mat_mul(R, CblasNoTrans, a->W2, CblasTrans, w->P2);
    for (size_t j = 0; j < T && status == INVENT_OK; j++) {
        /* rows j d .. j d + d - 1 of F: X^T Phi_j, (d, T) (T, h) -> (d, h) */
        gsl_matrix_view Fj = gsl_matrix_submatrix(F, j * X->size2, 0, X->size2, h);
        hidden_units(kind, w->P1, w->P2, j, w->Phi);
        status = mat_mul(X, CblasTrans, w->Phi, CblasNoTrans, &Fj.matrix);
    }
    return status;
}

int dw_pattern(dw_kind kind, gsl_matrix *K)
{
    size_t T = K->size1;
    if (K->size2 != T)
        return INVENT_ESHAPE;
    for (size_t j = 0; j < T; j++)
        for (size_t i = 0; i < T; i++)
            gsl_matrix_set(K, j, i, kept(kind, j, i, T));
    return INVENT_OK;
}

int dw_layer(const gsl_matrix *W, const gsl_matrix *X, gsl_matrix *Y)
{
    if (Y->size1 != X->size1 || Y->size2 != X->size2)
        return INVENT_ESHAPE;
    int status = mat_mul(W, CblasNoTrans, X, CblasNoTrans, Y);
    if (status == INVENT_OK)
        gsl_matrix_add(Y, X);
    return status;
}

double dw_row_spread(const gsl_matrix *W)
{
    double worst = 0.0;
    for (size_t j = 1; j < W->size1; j++)
        for (size_t i = 0; i < W->size2; i++)
            worst = fmax(worst, fabs(gsl_matrix_get(W, j, i) - gsl_matrix_get(W, 0, i)));
    return worst;
}

int dw_coefficients(attn_additive *const *bank, const gsl_vector *x_i, const gsl_vector *x_L,
                    gsl_vector *c)
{
    int status = INVENT_OK;
    for (size_t k = 0; k < c->size && status == INVENT_OK; k++)
        status = score_additive(bank[k], x_i, x_L, gsl_vector_ptr(c, k));
    return status;
}

int dw_diagonal(const gsl_vector *c, gsl_matrix *D)
{
    if (D->size1 != c->size || D->size2 != c->size)
        return INVENT_ESHAPE;
    gsl_matrix_set_zero(D);
    gsl_vector_view diag = gsl_matrix_diagonal(D);
    gsl_vector_memcpy(&diag.vector, c);
    return INVENT_OK;
}

int dw_mixture(const gsl_vector *c, gsl_matrix *const *V, gsl_matrix *M)
{
    for (size_t j = 0; j < c->size; j++)
        if (V[j]->size1 != M->size1 || V[j]->size2 != M->size2)
            return INVENT_ESHAPE;
    gsl_matrix_set_zero(M);
    for (size_t j = 0; j < c->size; j++)
        for (size_t row = 0; row < M->size1; row++) {
            gsl_vector_const_view from = gsl_matrix_const_row(V[j], row);
            gsl_vector_view to = gsl_matrix_row(M, row);
            gsl_blas_daxpy(gsl_vector_get(c, j), &from.vector, &to.vector);
        }
    return INVENT_OK;
}

int dw_onehot_sum(const gsl_vector *c, gsl_matrix *const *E, gsl_matrix *D)
{
    size_t d = c->size;
    if (D->size1 != d || D->size2 != d)
        return INVENT_ESHAPE;
    for (size_t k = 0; k < d; k++)
        if (E[k]->size1 != d || E[k]->size2 != d)
            return INVENT_ESHAPE;
    for (size_t k = 0; k < d; k++) {
        gsl_matrix_set_zero(E[k]);
        gsl_matrix_set(E[k], k, k, 1.0);
    }
    return dw_mixture(c, E, D);
}
