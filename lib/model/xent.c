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

int xent_loss(const gsl_matrix *Z, const size_t *y, double *loss, size_t *correct)
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
