/* Exercise 6 (chapter 6): factoring A into queries and keys.
 *
 * A score matrix A: (d, d') of rank r is a product W_q^T W_k of two (r, d)
 * and (r, d') projections, and then x^T A y = (W_q x) . (W_k y): a query
 * and a key of size r instead of d. For any A, the SVD A = U S V^T gives the
 * best rank-r approximation (Eckart & Young, 1936) from the r largest
 * singular values, split evenly between the two factors:
 *
 *     W_q = sqrt(S_r) U_r^T,     W_k = sqrt(S_r) V_r^T
 *
 * Contract of ex06_factor(A, Wq, Wk):
 *   - A: (d, d'); r = Wq->size1 with 1 <= r <= min(d, d'); Wq: (r, d), Wk: (r, d');
 *   - writes Wq and Wk so that W_q^T W_k is the best rank-r approximation of
 *     A (A itself when rank A <= r), and returns INVENT_OK;
 *   - returns INVENT_ESHAPE for shapes that do not fit (r = 0, r > min(d, d'),
 *     Wk not (r, d'), Wq not (r, d)); frees all it allocates, on every path;
 *   - each singular value is split evenly: W_q W_q^T = W_k W_k^T = diag(s_1..s_r);
 *   - A, Wq and Wk may be views whose rows lie further apart than their
 *     width (a tda).
 * Use linalg_svd (lib/core/linalg.h), which returns singular values in descending order.
 * Write it yourself: the grade refuses calls to factor_svd.
 * Grade: make exercise6   Hints: make hint 6 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include "exercises.h"

int ex06_factor(const gsl_matrix *A, gsl_matrix *Wq, gsl_matrix *Wk)
{
    /* BEGIN SOLUTION */
    /* stub: (void)A; (void)Wq; (void)Wk; */
    /* stub: return INVENT_OK; */
    size_t m = A->size1, n = A->size2, k = m < n ? m : n, r = Wq->size1;
    if (r == 0 || r > k || Wk->size1 != r || Wq->size2 != m || Wk->size2 != n)
        return INVENT_ESHAPE;
    gsl_matrix *U = gsl_matrix_alloc(m, k), *V = gsl_matrix_alloc(n, k);
    gsl_vector *s = gsl_vector_alloc(k);
    int status = U && V && s ? linalg_svd(A, U, s, V) : INVENT_ENOMEM;
    for (size_t j = 0; j < r && status == INVENT_OK; j++) {
        double root = sqrt(gsl_vector_get(s, j));
        for (size_t i = 0; i < m; i++)
            gsl_matrix_set(Wq, j, i, root * gsl_matrix_get(U, i, j));
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(Wk, j, i, root * gsl_matrix_get(V, i, j));
    }
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    return status;
    /* END SOLUTION */
}
