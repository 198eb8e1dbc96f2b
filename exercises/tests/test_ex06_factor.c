/* Grader for exercise 6: factoring A into W_q and W_k by SVD, against
 * factor_svd. The factors themselves are not unique (a sign per row can
 * flip), so the grader compares the products W_q^T W_k, and, for the even
 * split, W_q W_q^T and W_k W_k^T (both diag(s_1..s_r)). A, W_q and W_k are
 * views with a tda.
 * Refused calls: factor_svd
 * Allowed calls: linalg_svd */
#include <math.h>

#include "exercises.h"
#include "grade.h"

/* -> P^T Q (trans = CblasTrans) or P Q^T (CblasNoTrans), a new matrix */
static gsl_matrix *product(const gsl_matrix *P, const gsl_matrix *Q, CBLAS_TRANSPOSE_t trans)
{
    gsl_matrix *R = trans == CblasTrans ? mat_product(P, CblasTrans, Q, CblasNoTrans)
                                        : mat_product(P, CblasNoTrans, Q, CblasTrans);
    cr_assert(R != NULL, "grader: out of memory or shapes");
    return R;
}

/* A: (d, d'), r, power -> sum over r singular triplets, the largest
 * (smallest = 0) or the smallest (1), of s_j^power u_j v_j^T */
static gsl_matrix *svd_sum(const gsl_matrix *A, size_t r, int smallest, double power)
{
    size_t m = A->size1, n = A->size2, k = m < n ? m : n;
    gsl_matrix *U = gsl_matrix_alloc(m, k), *V = gsl_matrix_alloc(n, k);
    gsl_matrix *P = gsl_matrix_calloc(m, n);
    gsl_vector *s = gsl_vector_alloc(k);
    cr_assert_eq(linalg_svd(A, U, s, V), INVENT_OK);
    for (size_t j = smallest ? k - r : 0; j < (smallest ? k : r); j++)
        for (size_t a = 0; a < m; a++)
            for (size_t b = 0; b < n; b++)
                *gsl_matrix_ptr(P, a, b) += pow(gsl_vector_get(s, j), power) *
                                            gsl_matrix_get(U, a, j) * gsl_matrix_get(V, b, j);
    gsl_matrix_free(U), gsl_matrix_free(V), gsl_vector_free(s);
    return P;
}

/* the student's W_q W_q^T and W_k W_k^T against the library's, diag(s_r) */
static void check_even_split(const gsl_matrix *Wq, const gsl_matrix *Wk, const gsl_matrix *Rq,
                             const gsl_matrix *Rk, const char *what)
{
    const char *hint = "split each singular value evenly: row j of W_q is sqrt(s_j) u_j^T "
                       "and row j of W_k is sqrt(s_j) v_j^T, so that W_q W_q^T = W_k W_k^T = "
                       "diag(s_1 .. s_r)";
    gsl_matrix *got_q = product(Wq, Wq, CblasNoTrans), *want_q = product(Rq, Rq, CblasNoTrans);
    gsl_matrix *got_k = product(Wk, Wk, CblasNoTrans), *want_k = product(Rk, Rk, CblasNoTrans);
    grade_matrix(what, got_q, want_q, 1e-9, hint);
    grade_matrix(what, got_k, want_k, 1e-9, hint);
    gsl_matrix_free(got_q), gsl_matrix_free(want_q), gsl_matrix_free(got_k);
    gsl_matrix_free(want_k);
}

/* A: (d, d') -> the student's W_q^T W_k (on padded copies) must match the
 * library's for rank r, split evenly; A must come back unchanged */
static void compare(const gsl_matrix *A0, size_t r, const char *what)
{
    size_t d = A0->size1, e = A0->size2;
    gsl_matrix *A = grade_padded(A0), *Wq = grade_nan_padded(r, d), *Wk = grade_nan_padded(r, e);
    gsl_matrix *Rq = grade_nan(r, d), *Rk = grade_nan(r, e);
    cr_assert_eq(factor_svd(A0, Rq, Rk), INVENT_OK);
    grade_status(what, ex06_factor(A, Wq, Wk), INVENT_OK, "return INVENT_OK when shapes fit");
    grade_padding("W_q", Wq);
    grade_padding("W_k", Wk);
    gsl_matrix *got = product(Wq, Wk, CblasTrans), *want = product(Rq, Rk, CblasTrans);
    gsl_matrix *smallest = svd_sum(A0, r, 1, 1.0), *squared = svd_sum(A0, r, 0, 2.0);
    const grade_mistake mistakes[] = {
        {smallest, "it keeps the r smallest singular values; keep the r largest, the first r "
                   "(linalg_svd sorts them in descending order)"},
        {squared, "s_j appears on both sides: each factor gets its square root, sqrt(s_j)"}};
    grade_matrix_why(what, got, want, 1e-9,
                     "row j of W_q is sqrt(s_j) u_j^T and row j of W_k is sqrt(s_j) v_j^T, "
                     "for the r largest singular values s_j",
                     mistakes, 2);
    check_even_split(Wq, Wk, Rq, Rk, "W_q W_q^T and W_k W_k^T (the split of the singular values)");
    grade_unchanged("A after the call", A, A0);
    gsl_matrix_free(A), gsl_matrix_free(Wq), gsl_matrix_free(Wk), gsl_matrix_free(Rq);
    gsl_matrix_free(Rk), gsl_matrix_free(got), gsl_matrix_free(want);
    gsl_matrix_free(smallest), gsl_matrix_free(squared);
}

/* a random (d, e) A factored at rank r */
static void compare_random(size_t d, size_t e, size_t r, unsigned long seed, const char *what)
{
    gsl_rng *g = grade_rng(seed);
    gsl_matrix *A = grade_gaussian(d, e, 1.0, g);
    compare(A, r, what);
    gsl_matrix_free(A);
    gsl_rng_free(g);
}

GRADE(ex06, best_rank_r_of_a_full_matrix)
{
    compare_random(6, 6, 2, 61, "W_q^T W_k for a random (6, 6) A and r = 2");
}

GRADE(ex06, rectangular)
{
    compare_random(5, 3, 3, 62, "W_q^T W_k for a (5, 3) A and r = 3");
    compare_random(3, 7, 2, 65, "W_q^T W_k for a (3, 7) A and r = 2");
}

GRADE(ex06, size_one)
{
    gsl_matrix *A = gsl_matrix_alloc(1, 1);
    gsl_matrix_set(A, 0, 0, 4.0);
    compare(A, 1, "W_q^T W_k for A = (4)");
    gsl_matrix_free(A);
}

GRADE(ex06, two_sizes_and_a_large_matrix)
{
    compare_random(4, 4, 1, 66, "W_q^T W_k for a (4, 4) A and r = 1");
    compare_random(120, 90, 6, 67, "W_q^T W_k for a (120, 90) A and r = 6, after (4, 4)");
    compare_random(3, 2, 2, 68, "W_q^T W_k for a (3, 2) A and r = 2, after (120, 90)");
}

GRADE(ex06, low_rank_matrix_comes_back_exactly)
{
    gsl_rng *r = grade_rng(63);
    size_t d = 7, rank = 3;
    gsl_matrix *P = grade_gaussian(rank, d, 1e3, r), *Q = grade_gaussian(rank, d, 1.0, r);
    gsl_matrix *A = product(P, Q, CblasTrans); /* rank 3, entries ~1e3 */
    gsl_matrix *Wq = grade_nan(rank, d), *Wk = grade_nan(rank, d);
    ex06_factor(A, Wq, Wk);
    gsl_matrix *got = product(Wq, Wk, CblasTrans);
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
    gsl_matrix *Wk4 = gsl_matrix_calloc(4, 3), *Wq_narrow = gsl_matrix_calloc(2, 3);
    const char *hint = "check 1 <= r <= min(d, d'), Wq (r, d) and Wk (r, d') before the SVD";
    grade_status("Wk of shape (2, 4) for A (4, 3)", ex06_factor(A, Wq, Wk_wide), INVENT_ESHAPE,
                 hint);
    grade_status("r = 4 > min(4, 3)", ex06_factor(A, Wq4, Wk4), INVENT_ESHAPE, hint);
    grade_status("Wq (4, 4) and Wk (2, 3): different r", ex06_factor(A, Wq0, Wk), INVENT_ESHAPE,
                 hint);
    grade_status("Wq of width 3 for A with 4 rows", ex06_factor(A, Wq_narrow, Wk), INVENT_ESHAPE,
                 hint);
    GRADE_NO_LEAK(0, ex06_factor(A, Wq, Wk_wide), "free U, s and V on every path, refusals too");
    gsl_matrix_free(A), gsl_matrix_free(Wq0), gsl_matrix_free(Wq), gsl_matrix_free(Wk);
    gsl_matrix_free(Wk_wide), gsl_matrix_free(Wq4), gsl_matrix_free(Wk4);
    gsl_matrix_free(Wq_narrow);
}

GRADE(ex06, no_memory_leak)
{
    gsl_rng *r = grade_rng(64);
    gsl_matrix *A = grade_gaussian(8, 8, 1.0, r), *Wq = grade_nan(3, 8), *Wk = grade_nan(3, 8);
    GRADE_NO_LEAK(factor_svd(A, Wq, Wk), ex06_factor(A, Wq, Wk),
                  "free U, s and V on every path, and keep none from one call to the next");
    gsl_matrix_free(A), gsl_matrix_free(Wq), gsl_matrix_free(Wk);
    gsl_rng_free(r);
}
