/* The bilinear score s = x_L^T A x_i: one d x d matrix A says how strongly
 * the current token x_L should look at a past token x_i (the "general" score
 * of Luong et al., 2015). With A = I it is the plain dot product. Because the
 * score is linear in x_i, the vector A x_i can be computed once per past
 * token and kept (see kvcache.h). */
#ifndef INVENT_BILINEAR_H
#define INVENT_BILINEAR_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* x_L: (d), A: (d, d), x_i: (d) -> *s = x_L^T A x_i */
int bilinear_score(const gsl_vector *x_L, const gsl_matrix *A, const gsl_vector *x_i,
                   double *s);

/* X: (T, d), A: (d, d) -> keys: (T, d), row i the key A x_i, and S: (T, T),
 * S[t][i] = x_t^T A x_i, every pair, no mask */
int bilinear_scores(const gsl_matrix *X, const gsl_matrix *A, gsl_matrix *keys, gsl_matrix *S);

/* Y: (T_q, d_q) the queries' sequence, X: (T_k, d_k) the keys', A: (d_q, d_k)
 * -> keys: (T_k, d_q), row i the key A x_i (what a cache keeps), and
 * S: (T_q, T_k), S[t][i] = y_t^T A x_i = y_t . (A x_i) (cross-attention's
 * pairs, no mask); INVENT_ESHAPE when A, keys or S do not fit */
int bilinear_cross_scores(const gsl_matrix *Y, const gsl_matrix *X, const gsl_matrix *A,
                          gsl_matrix *keys, gsl_matrix *S);

/* A: (d, d), x_i: (d) -> key: (d) = A x_i, what a cache keeps for token x_i;
 * key must not alias x_i */
int bilinear_key(const gsl_matrix *A, const gsl_vector *x_i, gsl_vector *key);

#endif
