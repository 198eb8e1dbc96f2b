#include "activation.h"

#include <math.h>

#include "status.h"

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

static int same_shape(const gsl_matrix *A, const gsl_matrix *B, const gsl_matrix *C)
{
    return A->size1 == B->size1 && A->size2 == B->size2 && A->size1 == C->size1 &&
           A->size2 == C->size2 && B != C;
}

int activation_tanh_backward(const gsl_matrix *Y, const gsl_matrix *dY, gsl_matrix *dX)
{
    if (!same_shape(Y, dY, dX))
        return INVENT_ESHAPE;
    for (size_t i = 0; i < Y->size1; i++)
        for (size_t j = 0; j < Y->size2; j++) {
            double y = gsl_matrix_get(Y, i, j); /* tanh' = 1 - tanh^2 */
            *gsl_matrix_ptr(dX, i, j) += gsl_matrix_get(dY, i, j) * (1.0 - y * y);
        }
    return INVENT_OK;
}

int activation_relu_backward(const gsl_matrix *Y, const gsl_matrix *dY, gsl_matrix *dX)
{
    if (!same_shape(Y, dY, dX))
        return INVENT_ESHAPE;
    for (size_t i = 0; i < Y->size1; i++)
        for (size_t j = 0; j < Y->size2; j++)
            if (gsl_matrix_get(Y, i, j) > 0.0)
                *gsl_matrix_ptr(dX, i, j) += gsl_matrix_get(dY, i, j);
    return INVENT_OK;
}
