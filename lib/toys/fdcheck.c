#include "fdcheck.h"

#include <math.h>

/* (L(p + h) - L(p - h)) / 2h for entry (i, j), restoring it afterwards */
static double central_difference(fd_loss loss, void *ctx, gsl_matrix *P, size_t i, size_t j,
                                 double h)
{
    double keep = gsl_matrix_get(P, i, j);
    gsl_matrix_set(P, i, j, keep + h);
    double up = loss(ctx);
    gsl_matrix_set(P, i, j, keep - h);
    double down = loss(ctx);
    gsl_matrix_set(P, i, j, keep);
    return (up - down) / (2.0 * h);
}

double fdcheck_matrix(fd_loss loss, void *ctx, gsl_matrix *P, const gsl_matrix *G, double h)
{
    if (P->size1 != G->size1 || P->size2 != G->size2)
        return INFINITY;
    double diff = 0.0, norm_g = 0.0, norm_fd = 0.0;
    for (size_t i = 0; i < P->size1; i++)
        for (size_t j = 0; j < P->size2; j++) {
            double fd = central_difference(loss, ctx, P, i, j, h);
            double g = gsl_matrix_get(G, i, j);
            if (isnan(fd))
                return NAN;
            diff += (g - fd) * (g - fd);
            norm_g += g * g;
            norm_fd += fd * fd;
        }
    double scale = sqrt(fmax(norm_g, norm_fd));
    return scale > 0.0 ? sqrt(diff) / scale : 0.0;
}

double fdcheck_probe(const gsl_matrix *Y, const gsl_matrix *R)
{
    if (Y->size1 != R->size1 || Y->size2 != R->size2)
        return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < Y->size1; i++)
        for (size_t j = 0; j < Y->size2; j++)
            sum += gsl_matrix_get(R, i, j) * gsl_matrix_get(Y, i, j);
    return sum;
}
