#include "linalg.h"

#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "jacobi_svd.h"
#include "mat.h"
#include "status.h"

/* A: (m, n), U: (m, r), s: (r), V: (n, r) -> 1 when s is finite,
 * non-negative and descending and A V = U diag(s) to 1e-9 of |A| (Frobenius) */
int linalg_svd_holds(const gsl_matrix *A, const gsl_matrix *U, const gsl_vector *s,
                     const gsl_matrix *V)
{
    for (size_t i = 0; i < s->size; i++) {
        double si = gsl_vector_get(s, i);
        if (!isfinite(si) || si < 0.0 || (i > 0 && si > gsl_vector_get(s, i - 1)))
            return 0;
    }
    gsl_matrix *R = gsl_matrix_alloc(U->size1, U->size2);
    if (!R)
        return 0;
    gsl_matrix_memcpy(R, U); /* R = A V - U diag(s) */
    for (size_t j = 0; j < s->size; j++) {
        gsl_vector_view c = gsl_matrix_column(R, j);
        gsl_vector_scale(&c.vector, -gsl_vector_get(s, j));
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, A, V, 1.0, R);
    double residual = mat_frobenius(R);
    gsl_matrix_free(R);
    return isfinite(residual) && residual <= 1e-9 * mat_frobenius(A);
}

/* Tall A: (m, n), m >= n -> U: (m, n), s: (n), V: (n, n); GSL's modified
 * Golub-Reinsch (a QR step first, faster when m >> n), its result checked:
 * GSL can return without converging (issue 28: a singular value of -6.43
 * with success), so a decomposition that does not hold is INVENT_ENUMERIC */
static int svd_tall(const gsl_matrix *A, gsl_matrix *U, gsl_vector *s, gsl_matrix *V)
{
    size_t n = A->size2;
    gsl_vector *work = gsl_vector_alloc(n);
    gsl_matrix *X = gsl_matrix_alloc(n, n);
    int status = INVENT_ENOMEM;
    if (work && X) {
        gsl_matrix_memcpy(U, A);
        status = gsl_linalg_SV_decomp_mod(U, X, V, s, work) || !linalg_svd_holds(A, U, s, V)
                     ? INVENT_ENUMERIC
                     : INVENT_OK;
    }
    gsl_vector_free(work);
    gsl_matrix_free(X);
    return status;
}

int linalg_svd(const gsl_matrix *A, gsl_matrix *U, gsl_vector *s, gsl_matrix *V)
{
    size_t m = A->size1, n = A->size2, r = m < n ? m : n;
    if (U->size1 != m || U->size2 != r || s->size != r || V->size1 != n || V->size2 != r)
        return INVENT_ESHAPE;
    if (m >= n)
        return svd_tall(A, U, s, V);
    /* A^T = V' diag(s) U'^T is tall, so A = U' diag(s) V'^T with roles swapped. */
    gsl_matrix *At = gsl_matrix_alloc(n, m);
    if (!At)
        return INVENT_ENOMEM;
    gsl_matrix_transpose_memcpy(At, A);
    int status = svd_tall(At, V, s, U);
    gsl_matrix_free(At);
    return status;
}

int linalg_singular_values(const gsl_matrix *A, gsl_vector *s)
{
    size_t m = A->size1, n = A->size2, r = m < n ? m : n;
    if (s->size != r)
        return INVENT_ESHAPE;
    gsl_matrix *U = gsl_matrix_alloc(m, r), *V = gsl_matrix_alloc(n, r);
    int status = U && V ? linalg_svd(A, U, s, V) : INVENT_ENOMEM;
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    return status == INVENT_ENUMERIC ? jacobi_singular_values(A, s) : status;
}

size_t linalg_rank(const gsl_vector *s, double rcond)
{
    if (s->size == 0)
        return 0;
    double cut = rcond * gsl_vector_get(s, 0);
    size_t rank = 0;
    while (rank < s->size && gsl_vector_get(s, rank) > cut)
        rank++;
    return rank;
}

/* G: (n, n) <- A^T A + lambda I, lambda = ridge * trace(A^T A) / n */
static void regularised_gram(const gsl_matrix *A, double ridge, gsl_matrix *G)
{
    gsl_blas_dsyrk(CblasLower, CblasTrans, 1.0, A, 0.0, G);
    double trace = 0.0;
    for (size_t i = 0; i < G->size1; i++)
        trace += gsl_matrix_get(G, i, i);
    double lambda = ridge * trace / (double)G->size1;
    for (size_t i = 0; i < G->size1; i++)
        gsl_matrix_set(G, i, i, gsl_matrix_get(G, i, i) + lambda);
}

/* X <- X + G^-1 A^T (B - A X), G = L L^T already factored; R: (m, c) scratch */
static void refine_step(const gsl_matrix *A, const gsl_matrix *B, const gsl_matrix *L,
                        gsl_matrix *R, gsl_matrix *D, gsl_matrix *X)
{
    gsl_matrix_memcpy(R, B);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, -1.0, A, X, 1.0, R);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, A, R, 0.0, D);
    gsl_blas_dtrsm(CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1.0, L, D);
    gsl_blas_dtrsm(CblasLeft, CblasLower, CblasTrans, CblasNonUnit, 1.0, L, D);
    gsl_matrix_add(X, D);
}

int linalg_ridge(const gsl_matrix *A, const gsl_matrix *B, double ridge, int refine,
                 gsl_matrix *X)
{
    size_t n = A->size2;
    if (B->size1 != A->size1 || X->size1 != n || X->size2 != B->size2 || ridge <= 0.0)
        return INVENT_ESHAPE;
    gsl_matrix *G = gsl_matrix_alloc(n, n);
    gsl_matrix *R = gsl_matrix_alloc(B->size1, B->size2);
    gsl_matrix *D = gsl_matrix_alloc(n, B->size2);
    int status = G && R && D ? INVENT_ENUMERIC : INVENT_ENOMEM;
    if (status == INVENT_ENUMERIC) {
        regularised_gram(A, ridge, G);
        if (gsl_linalg_cholesky_decomp1(G) == 0) {
            gsl_matrix_set_zero(X);
            for (int k = 0; k <= refine; k++)
                refine_step(A, B, G, R, D, X);
            status = INVENT_OK;
        }
    }
    gsl_matrix_free(G);
    gsl_matrix_free(R);
    gsl_matrix_free(D);
    return status;
}
