#include "grad_xent.h"

#include "softmax.h"
#include "status.h"

int grad_xent(const gsl_matrix *Z, const size_t *y, gsl_matrix *dZ)
{
    if (dZ->size1 != Z->size1 || dZ->size2 != Z->size2)
        return INVENT_ESHAPE;
    double n = (double)Z->size1;
    for (size_t i = 0; i < Z->size1; i++) {
        if (y[i] >= Z->size2)
            return INVENT_ERANGE;
        gsl_vector_view row = gsl_matrix_row(dZ, i);
        gsl_vector_const_view z = gsl_matrix_const_row(Z, i);
        gsl_vector_memcpy(&row.vector, &z.vector);
        int status = softmax_vector(&row.vector, 1.0);
        if (status != INVENT_OK)
            return status;
        gsl_vector_set(&row.vector, y[i], gsl_vector_get(&row.vector, y[i]) - 1.0);
        gsl_vector_scale(&row.vector, 1.0 / n);
    }
    return INVENT_OK;
}
