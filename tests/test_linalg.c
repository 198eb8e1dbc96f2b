/* Unit tests: matrices, SVD, rank and least squares. */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_errno.h>

#include "linalg.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

/* U diag(s) V^T -> a new matrix */
static gsl_matrix *rebuild(const gsl_matrix *U, const gsl_vector *s, const gsl_matrix *V)
{
    gsl_matrix *US = mat_clone(U);
    for (size_t j = 0; j < s->size; j++) {
        gsl_vector_view c = gsl_matrix_column(US, j);
        gsl_vector_scale(&c.vector, gsl_vector_get(s, j));
    }
    gsl_matrix *A = mat_product(US, CblasNoTrans, V, CblasTrans);
    gsl_matrix_free(US);
    return A;
}

static void svd_round_trip(size_t m, size_t n)
{
    gsl_rng *r = rng_new(7);
    gsl_matrix *A = mat_gaussian(m, n, 1.0, r);
    size_t k = m < n ? m : n;
    gsl_matrix *U = gsl_matrix_alloc(m, k), *V = gsl_matrix_alloc(n, k);
    gsl_vector *s = gsl_vector_alloc(k);
    cr_assert_eq(linalg_svd(A, U, s, V), INVENT_OK);
    for (size_t i = 1; i < k; i++)
        cr_assert_geq(gsl_vector_get(s, i - 1), gsl_vector_get(s, i), "not descending");
    gsl_matrix *B = rebuild(U, s, V);
    cr_assert_lt(mat_max_abs_diff(A, B), 1e-12);
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    gsl_rng_free(r);
}

Test(linalg, svd_of_tall_and_wide_matrices)
{
    svd_round_trip(7, 4);
    svd_round_trip(4, 7);
    svd_round_trip(5, 5);
}

Test(linalg, rank_of_a_product_is_the_inner_size)
{
    gsl_rng *r = rng_new(3);
    gsl_matrix *Wq = mat_gaussian(2, 6, 1.0, r), *Wk = mat_gaussian(2, 6, 1.0, r);
    gsl_matrix *A = mat_product(Wq, CblasTrans, Wk, CblasNoTrans);
    gsl_vector *s = gsl_vector_alloc(6);
    cr_assert_eq(linalg_singular_values(A, s), INVENT_OK);
    cr_assert_eq(linalg_rank(s, 1e-10), 2);
    gsl_matrix_free(Wq);
    gsl_matrix_free(Wk);
    gsl_matrix_free(A);
    gsl_vector_free(s);
    gsl_rng_free(r);
}

Test(linalg, svd_rejects_wrong_output_shapes)
{
    gsl_matrix *A = gsl_matrix_calloc(4, 3), *U = gsl_matrix_alloc(4, 4), *V = gsl_matrix_alloc(3, 3);
    gsl_vector *s = gsl_vector_alloc(3);
    cr_assert_eq(linalg_svd(A, U, s, V), INVENT_ESHAPE);
    gsl_matrix_free(A);
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(s);
}

Test(linalg, ridge_solves_a_consistent_system_exactly)
{
    gsl_rng *r = rng_new(11);
    gsl_matrix *A = mat_gaussian(40, 10, 1.0, r), *Xtrue = mat_gaussian(10, 3, 1.0, r);
    gsl_matrix *B = mat_product(A, CblasNoTrans, Xtrue, CblasNoTrans);
    gsl_matrix *X = gsl_matrix_alloc(10, 3);
    cr_assert_eq(linalg_ridge(A, B, 1e-12, 3, X), INVENT_OK);
    cr_assert_lt(mat_max_abs_diff(X, Xtrue), 1e-10);
    gsl_matrix_free(A);
    gsl_matrix_free(Xtrue);
    gsl_matrix_free(B);
    gsl_matrix_free(X);
    gsl_rng_free(r);
}

Test(linalg, ridge_handles_a_rank_deficient_system)
{
    /* two identical columns: infinitely many solutions; the fit must still be exact */
    gsl_rng *r = rng_new(5);
    gsl_matrix *A = mat_gaussian(30, 4, 1.0, r);
    gsl_vector_view c0 = gsl_matrix_column(A, 0), c1 = gsl_matrix_column(A, 1);
    gsl_vector_memcpy(&c1.vector, &c0.vector);
    gsl_matrix *B = mat_gaussian(4, 2, 1.0, r);
    gsl_matrix *Y = mat_product(A, CblasNoTrans, B, CblasNoTrans);
    gsl_matrix *X = gsl_matrix_alloc(4, 2);
    cr_assert_eq(linalg_ridge(A, Y, 1e-12, 3, X), INVENT_OK);
    gsl_matrix *fit = mat_product(A, CblasNoTrans, X, CblasNoTrans);
    cr_assert_lt(mat_rel_error(fit, Y), 1e-9);
    cr_assert_eq(linalg_ridge(A, Y, 0.0, 3, X), INVENT_ESHAPE, "a zero ridge is refused");
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    gsl_matrix_free(Y);
    gsl_matrix_free(X);
    gsl_matrix_free(fit);
    gsl_rng_free(r);
}

Test(mat, products_check_shapes)
{
    gsl_matrix *A = gsl_matrix_calloc(2, 3), *B = gsl_matrix_calloc(2, 3), *C = gsl_matrix_alloc(2, 2);
    cr_assert_eq(mat_mul(A, CblasNoTrans, B, CblasNoTrans, C), INVENT_ESHAPE);
    cr_assert_eq(mat_mul(A, CblasNoTrans, B, CblasTrans, C), INVENT_OK);
    cr_assert_null(mat_product(A, CblasNoTrans, B, CblasNoTrans));
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    gsl_matrix_free(C);
}

Test(mat, distances)
{
    gsl_matrix *A = gsl_matrix_calloc(2, 2), *B = gsl_matrix_calloc(2, 2), *C = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(A, 0, 0, 3.0);
    gsl_matrix_set(B, 0, 0, 4.0);
    cr_assert_float_eq(mat_max_abs_diff(A, B), 1.0, 1e-15);
    cr_assert_float_eq(mat_rel_error(A, B), 0.25, 1e-15);
    cr_assert_float_eq(mat_frobenius(B), 4.0, 1e-15);
    gsl_matrix_set(B, 1, 0, 3.0);
    cr_assert_float_eq(mat_frobenius(B), 5.0, 1e-15);
    gsl_matrix_view corner = gsl_matrix_submatrix(B, 1, 0, 1, 2);
    cr_assert_float_eq(mat_frobenius(&corner.matrix), 3.0, 1e-15, "a view counts only its own entries");
    cr_assert(isinf(mat_max_abs_diff(A, C)));
    gsl_matrix_set(A, 1, 1, NAN);
    cr_assert(isnan(mat_max_abs_diff(A, B)));
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    gsl_matrix_free(C);
}

Test(mat, random_orthogonal_is_orthogonal_and_seeded)
{
    gsl_rng *r1 = rng_new(9), *r2 = rng_new(9);
    gsl_matrix *Q1 = gsl_matrix_alloc(6, 6), *Q2 = gsl_matrix_alloc(6, 6), *I = gsl_matrix_alloc(6, 6);
    cr_assert_eq(mat_random_orthogonal(Q1, r1), INVENT_OK);
    cr_assert_eq(mat_random_orthogonal(Q2, r2), INVENT_OK);
    cr_assert_eq(mat_max_abs_diff(Q1, Q2), 0.0, "same seed, same matrix");
    gsl_matrix *QtQ = mat_product(Q1, CblasTrans, Q1, CblasNoTrans);
    gsl_matrix_set_identity(I);
    cr_assert_lt(mat_max_abs_diff(QtQ, I), 1e-12);
    gsl_matrix_free(Q1);
    gsl_matrix_free(Q2);
    gsl_matrix_free(I);
    gsl_matrix_free(QtQ);
    gsl_rng_free(r1);
    gsl_rng_free(r2);
}

/* Issue 28: chapter 3's kind of input, (528, 256) with only 16 columns not
 * zero: the singular values are those of the 16 columns and 240 zeros, or a
 * failure is reported; never success with a negative value. */
Test(linalg, singular_values_of_a_matrix_of_mostly_zero_columns)
{
    gsl_set_error_handler_off(); /* as the chapters run: failures are returned */
    for (unsigned long seed = 1; seed <= 4; seed++) {
        gsl_rng *r = rng_new(seed);
        gsl_matrix *A = gsl_matrix_calloc(528, 256), *C = mat_gaussian(528, 16, 1.0, r);
        for (size_t j = 0; j < 16; j++) { /* column j of C at the diagonal place j (16 + 1) */
            gsl_vector_view from = gsl_matrix_column(C, j), to = gsl_matrix_column(A, j * 17);
            gsl_vector_memcpy(&to.vector, &from.vector);
        }
        gsl_vector *s = gsl_vector_alloc(256), *sc = gsl_vector_alloc(16);
        gsl_matrix *U = gsl_matrix_alloc(528, 256), *V = gsl_matrix_alloc(256, 256);
        cr_assert_eq(linalg_singular_values(C, sc), INVENT_OK);
        int status = linalg_svd(A, U, s, V); /* Golub-Reinsch: fails at seed 4 here */
        cr_assert(status == INVENT_ENUMERIC || (status == INVENT_OK && linalg_svd_holds(A, U, s, V)),
                  "seed %lu: linalg_svd returned %d", seed, status);
        cr_assert_eq(linalg_singular_values(A, s), INVENT_OK, "seed %lu", seed);
        for (size_t i = 0; i < 256; i++) {
            double want = i < 16 ? gsl_vector_get(sc, i) : 0.0;
            cr_assert_leq(fabs(gsl_vector_get(s, i) - want), 1e-12 * gsl_vector_get(sc, 0),
                          "seed %lu, s[%zu] = %g, not %g", seed, i, gsl_vector_get(s, i), want);
        }
        gsl_matrix_free(A), gsl_matrix_free(C), gsl_vector_free(s), gsl_vector_free(sc);
        gsl_matrix_free(U), gsl_matrix_free(V);
        gsl_rng_free(r);
    }
}

/* linalg_svd_holds accepts a decomposition and refuses the near misses a
 * non-converged Golub-Reinsch returns: one singular value negated (the
 * -6.43 of issue 28), one off by 1e-6 of the largest, one out of order. */
Test(linalg, a_decomposition_that_does_not_hold_is_refused)
{
    gsl_rng *r = rng_new(5);
    gsl_matrix *A = mat_gaussian(9, 5, 1.0, r), *U = gsl_matrix_alloc(9, 5),
               *V = gsl_matrix_alloc(5, 5);
    gsl_vector *s = gsl_vector_alloc(5);
    cr_assert_eq(linalg_svd(A, U, s, V), INVENT_OK);
    cr_assert(linalg_svd_holds(A, U, s, V));
    double s4 = gsl_vector_get(s, 4), s0 = gsl_vector_get(s, 0);
    gsl_vector_set(s, 4, -s4);
    cr_assert_not(linalg_svd_holds(A, U, s, V), "a negative singular value");
    gsl_vector_set(s, 4, s4 + 1e-6 * s0);
    cr_assert_not(linalg_svd_holds(A, U, s, V), "a value off by 1e-6");
    gsl_vector_set(s, 4, s4);
    gsl_vector_swap_elements(s, 0, 1);
    cr_assert_not(linalg_svd_holds(A, U, s, V), "out of order");
    gsl_vector_swap_elements(s, 0, 1);
    cr_assert(linalg_svd_holds(A, U, s, V));
    gsl_matrix_free(A), gsl_matrix_free(U), gsl_matrix_free(V), gsl_vector_free(s);
    gsl_rng_free(r);
}
