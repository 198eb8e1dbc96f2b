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

static int backward_shapes_fit(const gsl_matrix *X, const gsl_vector *gamma,
                               const gsl_vector *mean, const gsl_vector *rstd,
                               const gsl_matrix *dY, const gsl_matrix *dX,
                               const gsl_vector *dgamma, const gsl_vector *dbeta)
{
    size_t T = X->size1, d = X->size2;
    return gamma->size == d && mean->size == T && rstd->size == T && dY->size1 == T &&
           dY->size2 == d && (!dX || (dX->size1 == T && dX->size2 == d && dX != dY)) &&
           (!dgamma || dgamma->size == d) && (!dbeta || dbeta->size == d);
}

/* token t: adds to dgamma, dbeta and row t of dX */
static void token_backward(const gsl_matrix *X, const gsl_vector *gamma, double mean,
                           double rstd, const gsl_matrix *dY, size_t t, gsl_matrix *dX,
                           gsl_vector *dgamma, gsl_vector *dbeta)
{
    size_t d = X->size2;
    double g_mean = 0.0, gx_mean = 0.0;
    for (size_t j = 0; j < d; j++) {
        double xhat = (gsl_matrix_get(X, t, j) - mean) * rstd;
        double dy = gsl_matrix_get(dY, t, j), g = dy * gsl_vector_get(gamma, j);
        if (dgamma) /* y = gamma xhat + beta */
            *gsl_vector_ptr(dgamma, j) += dy * xhat;
        if (dbeta)
            *gsl_vector_ptr(dbeta, j) += dy;
        g_mean += g / (double)d;
        gx_mean += g * xhat / (double)d;
    }
    for (size_t j = 0; dX && j < d; j++) {
        double xhat = (gsl_matrix_get(X, t, j) - mean) * rstd;
        double g = gsl_matrix_get(dY, t, j) * gsl_vector_get(gamma, j);
        *gsl_matrix_ptr(dX, t, j) += rstd * (g - g_mean - xhat * gx_mean);
    }
}

int layernorm_backward(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *mean,
                       const gsl_vector *rstd, const gsl_matrix *dY, gsl_matrix *dX,
                       gsl_vector *dgamma, gsl_vector *dbeta)
{
    if (!backward_shapes_fit(X, gamma, mean, rstd, dY, dX, dgamma, dbeta))
        return INVENT_ESHAPE;
    for (size_t t = 0; t < X->size1; t++)
        token_backward(X, gamma, gsl_vector_get(mean, t), gsl_vector_get(rstd, t), dY, t, dX,
                       dgamma, dbeta);
    return INVENT_OK;
}
