#include "circuits.h"

#include <math.h>

#include "mat.h"
#include "status.h"

int circuit_qk(const mha_weights *w, size_t j, gsl_matrix *QK)
{
    size_t H = w->heads, d = w->Wq->size2;
    if (j >= H || QK->size1 != d || QK->size2 != d)
        return INVENT_ESHAPE;
    gsl_matrix_const_view Q = heads_const_rows(w->Wq, H, j), K = heads_const_rows(w->Wk, H, j);
    return mat_mul(&Q.matrix, CblasTrans, &K.matrix, CblasNoTrans, QK);
}

int circuit_ov(const mha_weights *w, size_t j, gsl_matrix *OV)
{
    size_t H = w->heads, d = w->Wv->size2;
    if (j >= H || OV->size1 != d || OV->size2 != d)
        return INVENT_ESHAPE;
    gsl_matrix_const_view O = heads_const_columns(w->Wo, H, j), V = heads_const_rows(w->Wv, H, j);
    return mat_mul(&O.matrix, CblasNoTrans, &V.matrix, CblasNoTrans, OV);
}

double effective_rank(const gsl_vector *s)
{
    double total = 0.0, entropy = 0.0;
    for (size_t k = 0; k < s->size; k++)
        total += gsl_vector_get(s, k);
    for (size_t k = 0; k < s->size; k++) {
        double p = gsl_vector_get(s, k) / total;
        entropy -= p > 0.0 ? p * log(p) : 0.0;
    }
    return exp(entropy);
}

size_t energy_rank(const gsl_vector *s, double share)
{
    double total = 0.0, held = 0.0;
    for (size_t k = 0; k < s->size; k++)
        total += gsl_vector_get(s, k) * gsl_vector_get(s, k);
    size_t k = 0;
    while (k < s->size && held < share * total) {
        held += gsl_vector_get(s, k) * gsl_vector_get(s, k);
        k++;
    }
    return k;
}
