#include "softmax.h"

#include <math.h>

#include "status.h"

int softmax_vector(gsl_vector *s, double tau)
{
    if (!(tau > 0.0))
        return INVENT_ERANGE;
    double top = -INFINITY;
    for (size_t i = 0; i < s->size; i++) {
        double v = gsl_vector_get(s, i);
        if (isnan(v) || v == INFINITY)
            return INVENT_ERANGE;
        top = fmax(top, v);
    }
    if (top == -INFINITY) { /* every position masked: attend to nothing */
        gsl_vector_set_zero(s);
        return INVENT_OK;
    }
    double total = 0.0;
    for (size_t i = 0; i < s->size; i++) {
        /* a masked entry is 0 even when tau = +INFINITY (-inf / inf is NaN) */
        double v = gsl_vector_get(s, i);
        double w = v == -INFINITY ? 0.0 : exp((v - top) / tau);
        gsl_vector_set(s, i, w);
        total += w;
    }
    gsl_vector_scale(s, 1.0 / total);
    return INVENT_OK;
}

int softmax_rows(gsl_matrix *S, double tau)
{
    for (size_t i = 0; i < S->size1; i++) {
        gsl_vector_view row = gsl_matrix_row(S, i);
        int status = softmax_vector(&row.vector, tau);
        if (status != INVENT_OK)
            return status;
    }
    return INVENT_OK;
}

int softmax_rows_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2 || dS == dW)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < W->size1; i++) {
        double mean = 0.0; /* the weighted mean of the row's incoming gradient */
        for (size_t k = 0; k < W->size2; k++)
            mean += gsl_matrix_get(dW, i, k) * gsl_matrix_get(W, i, k);
        for (size_t k = 0; k < W->size2; k++) {
            double w = gsl_matrix_get(W, i, k);
            *gsl_matrix_ptr(dS, i, k) += w * (gsl_matrix_get(dW, i, k) - mean);
        }
    }
    return INVENT_OK;
}

double softmax_entropy(const gsl_vector *w)
{
    double h = 0.0;
    for (size_t i = 0; i < w->size; i++) {
        double p = gsl_vector_get(w, i);
        if (p > 0.0)
            h -= p * log(p);
    }
    return h;
}
