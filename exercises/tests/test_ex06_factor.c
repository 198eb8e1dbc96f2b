/* Grader for exercise 6: factoring A into W_q and W_k by SVD, against
 * factor_svd. The factors themselves are not unique (a sign per row can
 * flip), so the grader compares the products W_q^T W_k. */
#include "exercises.h"
#include "grade.h"

/* -> W_q^T W_k, a new (d, d') matrix */
static gsl_matrix *product(const gsl_matrix *Wq, const gsl_matrix *Wk)
{
    gsl_matrix *P = mat_product(Wq, CblasTrans, Wk, CblasNoTrans);
    cr_assert(P != NULL, "grader: out of memory or shapes");
    return P;
}

/* A: (d, d') -> the student's W_q^T W_k must match the library's, for rank r */
static void compare(const gsl_matrix *A, size_t r, const char *what)
{
    size_t d = A->size1, e = A->size2;
    gsl_matrix *Wq = grade_nan(r, d), *Wk = grade_nan(r, e);
    gsl_matrix *Rq = grade_nan(r, d), *Rk = grade_nan(r, e);
    cr_assert_eq(factor_svd(A, Rq, Rk), INVENT_OK);
    grade_status(what, ex06_factor(A, Wq, Wk), INVENT_OK, "return INVENT_OK when shapes fit");
    gsl_matrix *got = product(Wq, Wk), *want = product(Rq, Rk);
    grade_matrix(what, got, want, 1e-9,
                 "row j of W_q is sqrt(s_j) u_j^T and row j of W_k is sqrt(s_j) v_j^T, "
                 "for the r largest singular values s_j");
    gsl_matrix_free(Wq), gsl_matrix_free(Wk), gsl_matrix_free(Rq), gsl_matrix_free(Rk);
    gsl_matrix_free(got), gsl_matrix_free(want);
}

GRADE(ex06, best_rank_r_of_a_full_matrix)
{
    gsl_rng *r = grade_rng(61);
    gsl_matrix *A = grade_gaussian(6, 6, 1.0, r);
    compare(A, 2, "W_q^T W_k for a random (6, 6) A and r = 2");
    gsl_matrix_free(A);
    gsl_rng_free(r);
}

GRADE(ex06, rectangular)
{
    gsl_rng *r = grade_rng(62);
    gsl_matrix *A = grade_gaussian(5, 3, 1.0, r);
    compare(A, 3, "W_q^T W_k for a (5, 3) A and r = 3");
    gsl_matrix_free(A);
    gsl_rng_free(r);
}

GRADE(ex06, size_one)
{
    gsl_matrix *A = gsl_matrix_alloc(1, 1);
    gsl_matrix_set(A, 0, 0, 4.0);
    compare(A, 1, "W_q^T W_k for A = (4)");
    gsl_matrix_free(A);
}

GRADE(ex06, low_rank_matrix_comes_back_exactly)
{
    gsl_rng *r = grade_rng(63);
    size_t d = 7, rank = 3;
    gsl_matrix *P = grade_gaussian(rank, d, 1e3, r), *Q = grade_gaussian(rank, d, 1.0, r);
    gsl_matrix *A = product(P, Q); /* rank 3, entries ~1e3 */
    gsl_matrix *Wq = grade_nan(rank, d), *Wk = grade_nan(rank, d);
    ex06_factor(A, Wq, Wk);
    gsl_matrix *got = product(Wq, Wk);
    grade_matrix("W_q^T W_k for a (7, 7) A of rank 3, r = 3", got, A, 1e-9,
                 "a rank-r A must factor back exactly: keep the r largest singular values, "
                 "not the smallest");
    gsl_matrix_free(P), gsl_matrix_free(Q), gsl_matrix_free(A);
    gsl_matrix_free(Wq), gsl_matrix_free(Wk), gsl_matrix_free(got);
    gsl_rng_free(r);
}

GRADE(ex06, wrong_shapes_are_refused)
{
    gsl_matrix *A = gsl_matrix_calloc(4, 3), *Wq0 = gsl_matrix_calloc(4, 4);
    gsl_matrix *Wq = gsl_matrix_calloc(2, 4), *Wk = gsl_matrix_calloc(2, 3);
    gsl_matrix *Wk_wide = gsl_matrix_calloc(2, 4), *Wq4 = gsl_matrix_calloc(4, 4);
    gsl_matrix *Wk4 = gsl_matrix_calloc(4, 3);
    const char *hint = "check 1 <= r <= min(d, d'), Wq (r, d) and Wk (r, d') before the SVD";
    grade_status("Wk of shape (2, 4) for A (4, 3)", ex06_factor(A, Wq, Wk_wide), INVENT_ESHAPE,
                 hint);
    grade_status("r = 4 > min(4, 3)", ex06_factor(A, Wq4, Wk4), INVENT_ESHAPE, hint);
    grade_status("Wq (4, 4) and Wk (2, 3): different r", ex06_factor(A, Wq0, Wk), INVENT_ESHAPE,
                 hint);
    gsl_matrix_free(A), gsl_matrix_free(Wq0), gsl_matrix_free(Wq), gsl_matrix_free(Wk);
    gsl_matrix_free(Wk_wide), gsl_matrix_free(Wq4), gsl_matrix_free(Wk4);
}

GRADE(ex06, no_memory_leak)
{
    gsl_rng *r = grade_rng(64);
    gsl_matrix *A = grade_gaussian(8, 8, 1.0, r), *Wq = grade_nan(3, 8), *Wk = grade_nan(3, 8);
    GRADE_NO_LEAK(0, ex06_factor(A, Wq, Wk), "free U, s and V on every path");
    gsl_matrix_free(A), gsl_matrix_free(Wq), gsl_matrix_free(Wk);
    gsl_rng_free(r);
}
