#include "mat.h"

#include <math.h>

#include <gsl/gsl_linalg.h>

#include "rng.h"
#include "status.h"

gsl_matrix *mat_gaussian(size_t rows, size_t cols, double sigma, gsl_rng *r)
{
    gsl_matrix *m = gsl_matrix_alloc(rows, cols);
    if (m)
        rng_fill_gaussian(m, r, sigma);
    return m;
}

static size_t rows_of(const gsl_matrix *A, CBLAS_TRANSPOSE_t t)
{
    return t == CblasNoTrans ? A->size1 : A->size2;
}

static size_t cols_of(const gsl_matrix *A, CBLAS_TRANSPOSE_t t)
{
    return t == CblasNoTrans ? A->size2 : A->size1;
}

int mat_mul(const gsl_matrix *A, CBLAS_TRANSPOSE_t ta, const gsl_matrix *B,
            CBLAS_TRANSPOSE_t tb, gsl_matrix *C)
{
    if (cols_of(A, ta) != rows_of(B, tb) || C->size1 != rows_of(A, ta) ||
        C->size2 != cols_of(B, tb))
        return INVENT_ESHAPE;
    return gsl_blas_dgemm(ta, tb, 1.0, A, B, 0.0, C) ? INVENT_ENUMERIC : INVENT_OK;
}

gsl_matrix *mat_product(const gsl_matrix *A, CBLAS_TRANSPOSE_t ta, const gsl_matrix *B,
                        CBLAS_TRANSPOSE_t tb)
{
    if (cols_of(A, ta) != rows_of(B, tb))
        return NULL;
    gsl_matrix *C = gsl_matrix_alloc(rows_of(A, ta), cols_of(B, tb));
    if (C && mat_mul(A, ta, B, tb, C) != INVENT_OK) {
        gsl_matrix_free(C);
        return NULL;
    }
    return C;
}

gsl_matrix *mat_clone(const gsl_matrix *A)
{
    gsl_matrix *C = gsl_matrix_alloc(A->size1, A->size2);
    if (C)
        gsl_matrix_memcpy(C, A);
    return C;
}

double mat_max_abs_diff(const gsl_matrix *A, const gsl_matrix *B)
{
    if (A->size1 != B->size1 || A->size2 != B->size2)
        return INFINITY;
    double worst = 0.0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++) {
            double e = fabs(gsl_matrix_get(A, i, j) - gsl_matrix_get(B, i, j));
            if (isnan(e))
                return NAN;
            if (e > worst)
                worst = e;
        }
    return worst;
}

double mat_frobenius(const gsl_matrix *A)
{
    double sum = 0.0;
    for (size_t i = 0; i < A->size1; i++) {
        gsl_vector_const_view row = gsl_matrix_const_row(A, i);
        double r = gsl_blas_dnrm2(&row.vector);
        sum += r * r;
    }
    return sqrt(sum);
}

double mat_rel_error(const gsl_matrix *got, const gsl_matrix *want)
{
    if (got->size1 != want->size1 || got->size2 != want->size2)
        return INFINITY;
    double diff = 0.0, norm = 0.0;
    for (size_t i = 0; i < got->size1; i++)
        for (size_t j = 0; j < got->size2; j++) {
            double w = gsl_matrix_get(want, i, j);
            double d = gsl_matrix_get(got, i, j) - w;
            diff += d * d;
            norm += w * w;
        }
    return norm > 0.0 ? sqrt(diff / norm) : sqrt(diff);
}

int mat_random_orthogonal(gsl_matrix *Q, gsl_rng *r)
{
    size_t n = Q->size1;
    if (Q->size2 != n)
        return INVENT_ESHAPE;
    gsl_matrix *A = mat_gaussian(n, n, 1.0, r);
    gsl_vector *tau = gsl_vector_alloc(n);
    gsl_matrix *R = gsl_matrix_alloc(n, n);
    int status = INVENT_ENOMEM;
    if (A && tau && R && !gsl_linalg_QR_decomp(A, tau) && !gsl_linalg_QR_unpack(A, tau, Q, R))
        status = INVENT_OK;
    gsl_matrix_free(A);
    gsl_vector_free(tau);
    gsl_matrix_free(R);
    return status;
}
