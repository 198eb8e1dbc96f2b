#include "activation.h"

#include <math.h>

void activation_tanh(gsl_matrix *M)
{
    for (size_t i = 0; i < M->size1; i++)
        for (size_t j = 0; j < M->size2; j++)
            gsl_matrix_set(M, i, j, tanh(gsl_matrix_get(M, i, j)));
}

void activation_relu(gsl_matrix *M)
{
    for (size_t i = 0; i < M->size1; i++)
        for (size_t j = 0; j < M->size2; j++)
            gsl_matrix_set(M, i, j, fmax(0.0, gsl_matrix_get(M, i, j)));
}
