#include "grad_activation.h"

#include "status.h"

static int same_shape(const gsl_matrix *A, const gsl_matrix *B, const gsl_matrix *C)
{
    return A->size1 == B->size1 && A->size2 == B->size2 && A->size1 == C->size1 &&
           A->size2 == C->size2;
}

int grad_tanh(const gsl_matrix *Y, const gsl_matrix *dY, gsl_matrix *dX)
{
    if (!same_shape(Y, dY, dX))
        return INVENT_ESHAPE;
    for (size_t i = 0; i < Y->size1; i++)
        for (size_t j = 0; j < Y->size2; j++) {
            double y = gsl_matrix_get(Y, i, j);
            gsl_matrix_set(dX, i, j, gsl_matrix_get(dY, i, j) * (1.0 - y * y));
        }
    return INVENT_OK;
}

int grad_relu(const gsl_matrix *X, const gsl_matrix *dY, gsl_matrix *dX)
{
    if (!same_shape(X, dY, dX))
        return INVENT_ESHAPE;
    for (size_t i = 0; i < X->size1; i++)
        for (size_t j = 0; j < X->size2; j++)
            gsl_matrix_set(dX, i, j, gsl_matrix_get(X, i, j) > 0.0 ? gsl_matrix_get(dY, i, j) : 0.0);
    return INVENT_OK;
}
