/* Matrix helpers on GSL: allocation with random entries, products through
 * GSL's BLAS interface (OpenBLAS underneath), and distances between results. */
#ifndef INVENT_MAT_H
#define INVENT_MAT_H

#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

/* -> (rows, cols) with N(0, sigma^2) entries, or NULL when out of memory */
gsl_matrix *mat_gaussian(size_t rows, size_t cols, double sigma, gsl_rng *r);

/* A: (m, k) after ta, B: (k, n) after tb -> C: (m, n) = op(A) op(B);
 * INVENT_ESHAPE when the shapes do not fit */
int mat_mul(const gsl_matrix *A, CBLAS_TRANSPOSE_t ta, const gsl_matrix *B,
            CBLAS_TRANSPOSE_t tb, gsl_matrix *C);

/* as mat_mul, but allocates C; NULL on a shape mismatch or no memory */
gsl_matrix *mat_product(const gsl_matrix *A, CBLAS_TRANSPOSE_t ta, const gsl_matrix *B,
                        CBLAS_TRANSPOSE_t tb);

/* A: (m, n) -> a new copy, or NULL */
gsl_matrix *mat_clone(const gsl_matrix *A);

/* A, B: (m, n) -> max |A - B|; INFINITY when shapes differ, NaN if any is NaN */
double mat_max_abs_diff(const gsl_matrix *A, const gsl_matrix *B);

/* A: (m, n) -> ||A||_F, the square root of the sum of squared entries */
double mat_frobenius(const gsl_matrix *A);

/* got, want: (m, n) -> ||got - want||_F / ||want||_F (absolute when want = 0) */
double mat_rel_error(const gsl_matrix *got, const gsl_matrix *want);

/* Q: (n, n) <- a random orthogonal matrix (QR of a Gaussian one) */
int mat_random_orthogonal(gsl_matrix *Q, gsl_rng *r);

#endif
