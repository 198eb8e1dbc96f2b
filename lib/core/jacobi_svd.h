/* Singular values by one-sided Jacobi (Hestenes, 1958; GSL's
 * gsl_linalg_SV_decomp_jacobi): rotations of column pairs until the columns
 * are orthogonal, whose norms are then the singular values. Slower than the
 * Golub-Reinsch of linalg.h, but accurate to high relative precision, never
 * negative, and exact zeros stay exact (chapter 3 relies on the same method). */
#ifndef INVENT_JACOBI_SVD_H
#define INVENT_JACOBI_SVD_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* A: (m, n) -> s: (min(m, n)) singular values, descending */
int jacobi_singular_values(const gsl_matrix *A, gsl_vector *s);

#endif
