#include "xent.h"

#include <math.h>

#include "status.h"

/* log sum_j exp(z_j), computed stably, and whether z[y] is the strict maximum */
static double log_sum_exp(gsl_vector_const_view z, size_t y, int *wins)
{
    double top = gsl_vector_max(&z.vector), total = 0.0;
    size_t at_top = 0;
    for (size_t j = 0; j < z.vector.size; j++) {
        double v = gsl_vector_get(&z.vector, j);
        total += exp(v - top);
        at_top += v == top;
    }
    *wins = gsl_vector_get(&z.vector, y) == top && at_top == 1;
    return top + log(total);
}

int xent_forward(const gsl_matrix *Z, const size_t *y, double *loss, size_t *correct)
{
    double sum = 0.0;
    size_t right = 0;
    for (size_t i = 0; i < Z->size1; i++) {
        if (y[i] >= Z->size2)
            return INVENT_ERANGE;
        int wins;
        double lse = log_sum_exp(gsl_matrix_const_row(Z, i), y[i], &wins);
        sum += lse - gsl_matrix_get(Z, i, y[i]);
        right += (size_t)wins;
    }
    if (!isfinite(sum))
        return INVENT_ENUMERIC;
    *loss = Z->size1 ? sum / (double)Z->size1 : 0.0;
    if (correct)
        *correct = right;
    return INVENT_OK;
}

int xent_backward(const gsl_matrix *Z, const size_t *y, gsl_matrix *dZ)
{
    if (dZ->size1 != Z->size1 || dZ->size2 != Z->size2 || dZ == Z)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < Z->size1; i++)
        if (y[i] >= Z->size2)
            return INVENT_ERANGE;
    double n = (double)Z->size1;
    for (size_t i = 0; i < Z->size1; i++) {
        int wins;
        double lse = log_sum_exp(gsl_matrix_const_row(Z, i), y[i], &wins);
        if (!isfinite(lse))
            return INVENT_ERANGE;
        /* d(lse - z_y)/dz_j = softmax(z)_j - [j = y] */
        for (size_t j = 0; j < Z->size2; j++)
            *gsl_matrix_ptr(dZ, i, j) += (exp(gsl_matrix_get(Z, i, j) - lse) - (j == y[i])) / n;
    }
    return INVENT_OK;
}
