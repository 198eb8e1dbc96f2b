#include "score.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "rng.h"
#include "status.h"

int attn_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    size_t h = v->size;
    if (W1->size1 != h || W2->size1 != h || W1->size2 != x_i->size || W2->size2 != x_L->size ||
        x_i->size != x_L->size)
        return INVENT_ESHAPE;
    double sum = 0.0;
    for (size_t k = 0; k < h; k++) {
        gsl_vector_const_view a = gsl_matrix_const_row(W1, k);
        gsl_vector_const_view b = gsl_matrix_const_row(W2, k);
        double pre_i, pre_L;
        gsl_blas_ddot(&a.vector, x_i, &pre_i);
        gsl_blas_ddot(&b.vector, x_L, &pre_L);
        sum += gsl_vector_get(v, k) * tanh(pre_i + pre_L);
    }
    *score = sum;
    return INVENT_OK;
}

double attn_additive_score_1d(double w1, double w2, double v, double x_i, double x_L)
{
    return v * tanh(w1 * x_i + w2 * x_L);
}

int attn_product_score(const gsl_vector *x_i, const gsl_vector *x_L, double *score)
{
    if (x_i->size != x_L->size)
        return INVENT_ESHAPE;
    return gsl_blas_ddot(x_i, x_L, score) ? INVENT_ENUMERIC : INVENT_OK;
}

attn_additive *attn_additive_new(size_t d, size_t h, double sigma, gsl_rng *r)
{
    attn_additive *a = malloc(sizeof *a);
    if (!a)
        return NULL;
    a->W1 = gsl_matrix_alloc(h, d);
    a->W2 = gsl_matrix_alloc(h, d);
    a->v = gsl_vector_alloc(h);
    if (!a->W1 || !a->W2 || !a->v) {
        attn_additive_free(a);
        return NULL;
    }
    rng_fill_gaussian(a->W1, r, sigma);
    rng_fill_gaussian(a->W2, r, sigma);
    gsl_matrix_view v = gsl_matrix_view_vector(a->v, h, 1);
    rng_fill_gaussian(&v.matrix, r, sigma);
    return a;
}

void attn_additive_free(attn_additive *a)
{
    if (!a)
        return;
    gsl_matrix_free(a->W1);
    gsl_matrix_free(a->W2);
    gsl_vector_free(a->v);
    free(a);
}

int score_additive(const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                   double *score)
{
    const attn_additive *a = params;
    return attn_additive_score(a->W1, a->W2, a->v, x_i, x_L, score);
}

int score_product(const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                  double *score)
{
    (void)params;
    return attn_product_score(x_i, x_L, score);
}

int score_split(score_fn s, const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                const gsl_vector *origin, score_parts *parts)
{
    if (x_i->size != x_L->size || origin->size != x_i->size)
        return INVENT_ESHAPE;
    double both, token, receiver, none;
    int status = s(params, x_i, x_L, &both);
    if (status == INVENT_OK)
        status = s(params, x_i, origin, &token);
    if (status == INVENT_OK)
        status = s(params, origin, x_L, &receiver);
    if (status == INVENT_OK)
        status = s(params, origin, origin, &none);
    if (status != INVENT_OK)
        return status;
    parts->f = token;
    parts->g = receiver - none;
    parts->v = both - token - receiver + none;
    return INVENT_OK;
}
