/* Your file: write the part marked TODO. Grade it: make exercise6
 * To start over: make reset 6 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
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
    /* TODO: replace this placeholder with your code (contract above). */
    (void)A; (void)Wq; (void)Wk;
    return INVENT_OK;
}
