/* Grader for exercise 3: a mixture of static matrices, against dw_mixture. */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "M = sum_j c_j V_j: start from zero, then add c_j times V[j] for "
                          "every j";

/* the student's mixture and the library's for H random matrices (d, d) */
static void compare(size_t H, size_t d, double sigma, unsigned long seed, const char *what)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *coef = grade_gaussian(1, H, sigma, r);
    gsl_vector_view c = gsl_matrix_row(coef, 0);
    gsl_matrix *V[16];
    for (size_t j = 0; j < H; j++)
        V[j] = grade_gaussian(d, d, 1.0, r);
    gsl_matrix *got = grade_nan(d, d), *want = grade_nan(d, d);
    cr_assert_eq(dw_mixture(&c.vector, V, want), INVENT_OK);
    grade_status(what, ex03_mixture(&c.vector, V, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_matrix(what, got, want, 1e-12, HINT);
    for (size_t j = 0; j < H; j++)
        gsl_matrix_free(V[j]);
    gsl_matrix_free(coef), gsl_matrix_free(got), gsl_matrix_free(want);
    gsl_rng_free(r);
}

GRADE(ex03, random_mixture)
{
    compare(8, 5, 1.0, 31, "M for H = 8, d = 5");
}

GRADE(ex03, size_one)
{
    compare(1, 1, 1.0, 32, "M for H = 1, d = 1");
}

GRADE(ex03, large_coefficients)
{
    compare(3, 4, 1e8, 33, "M for coefficients ~1e8");
}

GRADE(ex03, one_hot_matrices_give_the_diagonal)
{
    size_t d = 4;
    gsl_matrix *E[4], *got = grade_nan(d, d), *want = grade_nan(d, d);
    gsl_vector *c = gsl_vector_alloc(d);
    for (size_t k = 0; k < d; k++) {
        E[k] = gsl_matrix_calloc(d, d);
        gsl_matrix_set(E[k], k, k, 1.0);
        gsl_vector_set(c, k, 1.5 - (double)k);
    }
    cr_assert_eq(dw_diagonal(c, want), INVENT_OK);
    ex03_mixture(c, E, got);
    grade_matrix("sum_k c_k E_k with one-hot E_k", got, want, 1e-15,
                 "with one-hot matrices the mixture must be diag(c) (claim F2); entries off "
                 "the diagonal must be exactly 0, so clear M first");
    for (size_t k = 0; k < d; k++)
        gsl_matrix_free(E[k]);
    gsl_vector_free(c), gsl_matrix_free(got), gsl_matrix_free(want);
}

GRADE(ex03, wrong_shape_is_refused)
{
    gsl_matrix *V[2] = {gsl_matrix_calloc(3, 3), gsl_matrix_calloc(3, 2)};
    gsl_matrix *M = gsl_matrix_calloc(3, 3);
    gsl_vector *c = gsl_vector_calloc(2);
    gsl_matrix_set_all(M, 7.0);
    grade_status("V[1] of shape (3, 2) for M (3, 3)", ex03_mixture(c, V, M), INVENT_ESHAPE,
                 "check every V[j] before you change M");
    gsl_matrix *seven = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_all(seven, 7.0);
    grade_matrix("M after a refused call", M, seven, 0.0, "leave M untouched on INVENT_ESHAPE");
    gsl_matrix_free(V[0]), gsl_matrix_free(V[1]), gsl_matrix_free(M), gsl_matrix_free(seven);
    gsl_vector_free(c);
}

GRADE(ex03, no_memory_leak)
{
    gsl_matrix *V[2] = {gsl_matrix_calloc(8, 8), gsl_matrix_calloc(8, 8)};
    gsl_matrix *M = gsl_matrix_calloc(8, 8);
    gsl_vector *c = gsl_vector_calloc(2);
    GRADE_NO_LEAK(ex03_mixture(c, V, M), "free every matrix you allocate");
    gsl_matrix_free(V[0]), gsl_matrix_free(V[1]), gsl_matrix_free(M);
    gsl_vector_free(c);
}
