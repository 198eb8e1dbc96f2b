#include "layernorm.h"

#include <math.h>

#include "status.h"

static int shapes_fit(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *beta,
                      const gsl_matrix *Y, const gsl_vector *mean, const gsl_vector *rstd)
{
    size_t T = X->size1, d = X->size2;
    return d > 0 && gamma->size == d && beta->size == d && Y->size1 == T && Y->size2 == d &&
           (!mean || mean->size == T) && (!rstd || rstd->size == T);
}

/* x: (d) -> (mean, 1/sqrt(var + eps)) */
static void row_stats(const gsl_vector *x, double eps, double *mu, double *inv)
{
    double sum = 0.0, sq = 0.0;
    for (size_t i = 0; i < x->size; i++)
        sum += gsl_vector_get(x, i);
    *mu = sum / (double)x->size;
    for (size_t i = 0; i < x->size; i++) {
        double c = gsl_vector_get(x, i) - *mu;
        sq += c * c;
    }
    *inv = 1.0 / sqrt(sq / (double)x->size + eps);
}

int layernorm_forward(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *beta,
                      double eps, gsl_matrix *Y, gsl_vector *mean, gsl_vector *rstd)
{
    if (!shapes_fit(X, gamma, beta, Y, mean, rstd))
        return INVENT_ESHAPE;
    if (!(eps > 0.0))
        return INVENT_ERANGE;
    for (size_t t = 0; t < X->size1; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        double mu, inv;
        row_stats(&x.vector, eps, &mu, &inv);
        for (size_t i = 0; i < X->size2; i++) {
            double xhat = (gsl_vector_get(&x.vector, i) - mu) * inv;
            gsl_matrix_set(Y, t, i, gsl_vector_get(gamma, i) * xhat + gsl_vector_get(beta, i));
        }
        if (mean)
            gsl_vector_set(mean, t, mu);
        if (rstd)
            gsl_vector_set(rstd, t, inv);
    }
    return INVENT_OK;
}
