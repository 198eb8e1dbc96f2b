#include "jacobi_svd.h"

#include <gsl/gsl_linalg.h>

#include "status.h"

int jacobi_singular_values(const gsl_matrix *A, gsl_vector *s)
{
    int wide = A->size1 < A->size2;
    size_t m = wide ? A->size2 : A->size1, n = wide ? A->size1 : A->size2;
    if (s->size != n)
        return INVENT_ESHAPE;
    /* the method wants a tall matrix: a wide A has the singular values of A^T */
    gsl_matrix *X = gsl_matrix_alloc(m, n), *V = gsl_matrix_alloc(n, n);
    int status = INVENT_ENOMEM;
    if (X && V) {
        if (wide)
            gsl_matrix_transpose_memcpy(X, A);
        else
            gsl_matrix_memcpy(X, A);
        status = gsl_linalg_SV_decomp_jacobi(X, V, s) ? INVENT_ENUMERIC : INVENT_OK;
    }
    gsl_matrix_free(X);
    gsl_matrix_free(V);
    return status;
}
