#include "embedding.h"

#include <gsl/gsl_blas.h>

#include "status.h"

/* the shapes of E, P and X (B*T rows) fit, and every id names a row of E */
static int fits(const gsl_matrix *E, const gsl_matrix *P, const size_t *ids, size_t B,
                size_t T, const gsl_matrix *X)
{
    if (X->size1 != B * T || X->size2 != E->size2 || P->size2 != E->size2 || P->size1 < T)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < B * T; i++)
        if (ids[i] >= E->size1)
            return INVENT_ERANGE;
    return INVENT_OK;
}

int embedding_forward(const gsl_matrix *E, const gsl_matrix *P, const size_t *ids, size_t B,
                      size_t T, gsl_matrix *X)
{
    int status = fits(E, P, ids, B, T, X);
    if (status != INVENT_OK)
        return status;
    for (size_t i = 0; i < B * T; i++) {
        gsl_vector_view x = gsl_matrix_row(X, i);
        gsl_vector_const_view e = gsl_matrix_const_row(E, ids[i]);
        gsl_vector_const_view p = gsl_matrix_const_row(P, i % T);
        gsl_vector_memcpy(&x.vector, &e.vector);
        gsl_vector_add(&x.vector, &p.vector);
    }
    return INVENT_OK;
}

int embedding_backward(const size_t *ids, size_t B, size_t T, const gsl_matrix *dX,
                       gsl_matrix *dE, gsl_matrix *dP)
{
    int status = fits(dE, dP, ids, B, T, dX);
    if (status != INVENT_OK)
        return status;
    for (size_t i = 0; i < B * T; i++) {
        gsl_vector_const_view g = gsl_matrix_const_row(dX, i);
        gsl_vector_view e = gsl_matrix_row(dE, ids[i]);
        gsl_vector_view p = gsl_matrix_row(dP, i % T);
        gsl_vector_add(&e.vector, &g.vector);
        gsl_vector_add(&p.vector, &g.vector);
    }
    return INVENT_OK;
}
