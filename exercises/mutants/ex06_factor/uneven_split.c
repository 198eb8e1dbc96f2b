/* Mutant: gives W_q all of each singular value and W_k none. Expect: split each singular value evenly */
#include <math.h>

#include "exercises.h"

int ex06_factor(const gsl_matrix *A, gsl_matrix *Wq, gsl_matrix *Wk)
{
    size_t m = A->size1, n = A->size2, k = m < n ? m : n, r = Wq->size1;
    if (r == 0 || r > k || Wk->size1 != r || Wq->size2 != m || Wk->size2 != n)
        return INVENT_ESHAPE;
    gsl_matrix *U = gsl_matrix_alloc(m, k), *V = gsl_matrix_alloc(n, k);
    gsl_vector *s = gsl_vector_alloc(k);
    int status = U && V && s ? linalg_svd(A, U, s, V) : INVENT_ENOMEM;
    for (size_t j = 0; j < r && status == INVENT_OK; j++) {
        for (size_t i = 0; i < m; i++)
            gsl_matrix_set(Wq, j, i, gsl_vector_get(s, j) * gsl_matrix_get(U, i, j));
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(Wk, j, i, gsl_matrix_get(V, i, j));
    }
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    return status;
}
