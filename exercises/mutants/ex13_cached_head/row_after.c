/* Mutant: adds one to *len first, then stores k and v in row *len: one row too far. Expect: a row never written was read */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex13_cached_head(gsl_matrix *K, gsl_matrix *V, size_t *len, const gsl_vector *q,
                     const gsl_vector *k, const gsl_vector *v, gsl_vector *out)
{
    size_t dk = K->size2;
    if (V->size1 != K->size1 || V->size2 != dk || q->size != dk || k->size != dk ||
        v->size != dk || out->size != dk)
        return INVENT_ESHAPE;
    if (*len >= K->size1)
        return INVENT_ERANGE;
    size_t n = ++*len;
    gsl_vector_view k_row = gsl_matrix_row(K, n), v_row = gsl_matrix_row(V, n);
    gsl_vector_memcpy(&k_row.vector, k);
    gsl_vector_memcpy(&v_row.vector, v);
    double scale = 1.0 / sqrt((double)dk), top = -INFINITY, total = 0.0;
    for (size_t i = 0; i < n; i++) {
        gsl_vector_const_view ki = gsl_matrix_const_row(K, i);
        double s;
        gsl_blas_ddot(q, &ki.vector, &s);
        top = fmax(top, s * scale);
    }
    gsl_vector_set_zero(out);
    for (size_t i = 0; i < n; i++) {
        gsl_vector_const_view ki = gsl_matrix_const_row(K, i), vi = gsl_matrix_const_row(V, i);
        double s;
        gsl_blas_ddot(q, &ki.vector, &s);
        double e = exp(s * scale - top);
        total += e;
        gsl_blas_daxpy(e, &vi.vector, out);
    }
    gsl_vector_scale(out, 1.0 / total);
    return INVENT_OK;
}
