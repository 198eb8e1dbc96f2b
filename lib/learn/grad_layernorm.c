#include "grad_layernorm.h"

#include "status.h"

static int shapes_fit(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *mean,
                      const gsl_vector *rstd, const gsl_matrix *dY, const gsl_vector *dgamma,
                      const gsl_vector *dbeta, const gsl_matrix *dX)
{
    size_t T = X->size1, d = X->size2;
    return gamma->size == d && mean->size == T && rstd->size == T && dY->size1 == T &&
           dY->size2 == d && dgamma->size == d && dbeta->size == d && dX->size1 == T &&
           dX->size2 == d;
}

/* one token t: adds to dgamma, dbeta; writes row t of dX */
static void token_back(const gsl_matrix *X, const gsl_vector *gamma, double mean, double rstd,
                       const gsl_matrix *dY, size_t t, gsl_vector *dgamma, gsl_vector *dbeta,
                       gsl_matrix *dX)
{
    size_t d = X->size2;
    double g_mean = 0.0, gx_mean = 0.0;
    for (size_t j = 0; j < d; j++) {
        double xhat = (gsl_matrix_get(X, t, j) - mean) * rstd;
        double dy = gsl_matrix_get(dY, t, j), g = dy * gsl_vector_get(gamma, j);
        gsl_vector_set(dgamma, j, gsl_vector_get(dgamma, j) + dy * xhat);
        gsl_vector_set(dbeta, j, gsl_vector_get(dbeta, j) + dy);
        g_mean += g / (double)d;
        gx_mean += g * xhat / (double)d;
    }
    for (size_t j = 0; j < d; j++) {
        double xhat = (gsl_matrix_get(X, t, j) - mean) * rstd;
        double g = gsl_matrix_get(dY, t, j) * gsl_vector_get(gamma, j);
        gsl_matrix_set(dX, t, j, rstd * (g - g_mean - xhat * gx_mean));
    }
}

int grad_layernorm(const gsl_matrix *X, const gsl_vector *gamma, const gsl_vector *mean,
                   const gsl_vector *rstd, const gsl_matrix *dY, gsl_vector *dgamma,
                   gsl_vector *dbeta, gsl_matrix *dX)
{
    if (!shapes_fit(X, gamma, mean, rstd, dY, dgamma, dbeta, dX))
        return INVENT_ESHAPE;
    for (size_t t = 0; t < X->size1; t++)
        token_back(X, gamma, gsl_vector_get(mean, t), gsl_vector_get(rstd, t), dY, t, dgamma,
                   dbeta, dX);
    return INVENT_OK;
}
