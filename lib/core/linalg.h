/* Linear algebra on GSL: the thin singular value decomposition of any
 * shape, numerical rank, and least squares by the normal equations. */
#ifndef INVENT_LINALG_H
#define INVENT_LINALG_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* A: (m, n), r = min(m, n) -> U: (m, r), s: (r) descending, V: (n, r),
 * with A = U diag(s) V^T */
int linalg_svd(const gsl_matrix *A, gsl_matrix *U, gsl_vector *s, gsl_matrix *V);

/* A: (m, n), U: (m, r), s: (r), V: (n, r) -> 1 when they are a singular
 * value decomposition of A: s finite, non-negative, descending, and
 * A V = U diag(s) to 1e-9 of |A| (Frobenius); 0 otherwise. linalg_svd
 * returns INVENT_ENUMERIC for a result that fails it. */
int linalg_svd_holds(const gsl_matrix *A, const gsl_matrix *U, const gsl_vector *s,
                     const gsl_matrix *V);

/* A: (m, n) -> s: (min(m, n)) singular values, descending: Golub-Reinsch
 * (linalg_svd), or one-sided Jacobi (jacobi_svd.h) where that does not
 * hold, as on some matrices of many zero columns (issue 28); Jacobi's
 * failure is returned */
int linalg_singular_values(const gsl_matrix *A, gsl_vector *s);

/* s: (r) descending -> how many exceed rcond * s[0] */
size_t linalg_rank(const gsl_vector *s, double rcond);

/* A: (m, n), B: (m, c) -> X: (n, c), least squares by the normal equations
 * (BLAS-3 and a Cholesky factorisation: fast for wide problems). A ridge
 * lambda = ridge * trace(A^T A) / n keeps a rank-deficient A well posed;
 * `refine` steps of iterated Tikhonov then remove its bias, approaching
 * the minimum-norm least-squares solution. */
int linalg_ridge(const gsl_matrix *A, const gsl_matrix *B, double ridge, int refine,
                 gsl_matrix *X);

#endif
