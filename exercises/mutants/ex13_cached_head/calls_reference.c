/* Mutant: appends, then calls cache_attend, the function graded against. Expect: calls cache_attend */
#include "exercises.h"

int ex13_cached_head(gsl_matrix *K, gsl_matrix *V, size_t *len, const gsl_vector *q,
                     const gsl_vector *k, const gsl_vector *v, gsl_vector *out)
{
    if (*len >= K->size1)
        return INVENT_ERANGE;
    gsl_matrix_set_row(K, *len, k);
    gsl_matrix_set_row(V, *len, v);
    size_t n = ++*len;
    gsl_matrix_view Kn = gsl_matrix_submatrix(K, 0, 0, n, K->size2);
    gsl_matrix_view Vn = gsl_matrix_submatrix(V, 0, 0, n, V->size2);
    gsl_vector *s = gsl_vector_alloc(n);
    int status = cache_attend(&Kn.matrix, &Vn.matrix, q, s, out);
    gsl_vector_free(s);
    return status;
}
