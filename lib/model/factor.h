/* Queries and keys by factoring: a score matrix A of rank r is the product
 * W_q^T W_k of two (r, d) projections, and the score x_L^T A x_i becomes the
 * dot product of a query W_q x_L with a key W_k x_i, both of size r. */
#ifndef INVENT_FACTOR_H
#define INVENT_FACTOR_H

#include <gsl/gsl_matrix.h>

/* A: (d, d'), W_q: (r, d), W_k: (r, d'), 1 <= r <= min(d, d') -> W_q^T W_k is
 * the best rank-r approximation of A in the Frobenius and spectral norms
 * (Eckart & Young, 1936), hence A itself when rank A <= r. From the SVD
 * A = U S V^T: W_q = sqrt(S_r) U_r^T and W_k = sqrt(S_r) V_r^T, the r largest
 * singular values split evenly between the two. */
int factor_svd(const gsl_matrix *A, gsl_matrix *Wq, gsl_matrix *Wk);

/* X: (T, d), W_q, W_k: (r, d) -> Q, K: (T, r), rows the queries W_q x_t and
 * keys W_k x_i, and S: (T, T), S[t][i] = (W_q x_t) . (W_k x_i) */
int factor_scores(const gsl_matrix *X, const gsl_matrix *Wq, const gsl_matrix *Wk,
                  gsl_matrix *Q, gsl_matrix *K, gsl_matrix *S);

/* Y: (T_q, d_q) the queries' sequence, X: (T_k, d_k) the keys', W_q: (r, d_q),
 * W_k: (r, d_k) -> Q: (T_q, r) the queries W_q y_t, K: (T_k, r) the keys
 * W_k x_i, S: (T_q, T_k), S[t][i] = (W_q y_t) . (W_k x_i): the projections
 * meet in r numbers whatever the two widths. INVENT_ESHAPE when a shape
 * does not fit. */
int factor_cross_scores(const gsl_matrix *Y, const gsl_matrix *X, const gsl_matrix *Wq,
                        const gsl_matrix *Wk, gsl_matrix *Q, gsl_matrix *K, gsl_matrix *S);

#endif
