/* Grader for exercise 3: a mixture of static matrices, against dw_mixture.
 * The V_j and M are views with a tda, c a view with a stride.
 * Refused calls: dw_mixture dw_diagonal dw_onehot_sum */
#include <stdlib.h>

#include "exercises.h"
#include "grade.h"

static const char *HINT = "M = sum_j c_j V_j: start from zero, then add c_j times V[j] for "
                          "every j";

/* H random (rows, cols) matrices, each a view with a tda, in a new array */
static gsl_matrix **random_bank(size_t H, size_t rows, size_t cols, gsl_rng *r)
{
    gsl_matrix **V = malloc(H * sizeof *V);
    cr_assert(V != NULL, "grader: out of memory");
    for (size_t j = 0; j < H; j++) {
        V[j] = grade_gaussian(rows, cols, 1.0, r);
        grade_repad(&V[j]);
    }
    return V;
}

static void free_bank(gsl_matrix **V, size_t H)
{
    for (size_t j = 0; j < H; j++)
        gsl_matrix_free(V[j]);
    free(V);
}

/* coef: (1, H), V: H matrices (rows, cols) -> the mixture without V[0] */
static gsl_matrix *skip_first(const gsl_matrix *coef, gsl_matrix *const *V, size_t rows,
                              size_t cols)
{
    gsl_matrix *m = grade_nan(rows, cols), *c = mat_clone(coef);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_matrix_set(c, 0, 0, 0.0);
    gsl_vector_view row = gsl_matrix_row(c, 0);
    cr_assert_eq(dw_mixture(&row.vector, V, m), INVENT_OK);
    gsl_matrix_free(c);
    return m;
}

/* the student's mixture and the library's for H random (rows, cols)
 * matrices; c and the V_j must come back unchanged */
static void compare(size_t H, size_t rows, size_t cols, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *coef = grade_gaussian(1, H, sigma, r), **V = random_bank(H, rows, cols, r);
    gsl_matrix *V0 = mat_clone(V[H - 1]);
    gsl_vector_view c0 = gsl_matrix_row(coef, 0);
    gsl_vector *c = grade_strided(&c0.vector);
    gsl_matrix *got = grade_nan_padded(rows, cols), *want = grade_nan(rows, cols);
    gsl_matrix *skipped = skip_first(coef, V, rows, cols);
    grade_mistake known[] = {{skipped, "the sum leaves out V[0]: let j run from 0 to H - 1"}};
    cr_assert_eq(dw_mixture(&c0.vector, V, want), INVENT_OK);
    grade_status(what, ex03_mixture(c, V, got), INVENT_OK, "return INVENT_OK when the shapes fit");
    grade_padding(what, got);
    grade_matrix_why(what, got, want, 1e-12, HINT, known, 1);
    gsl_matrix_free(skipped);
    grade_unchanged_vector("c after the call", c, &c0.vector);
    grade_unchanged("the last V_j after the call", V[H - 1], V0);
    free_bank(V, H);
    gsl_vector_free(c);
    gsl_matrix_free(coef), gsl_matrix_free(V0), gsl_matrix_free(got), gsl_matrix_free(want);
    gsl_rng_free(r);
}

GRADE(ex03, random_mixture)
{
    compare(8, 5, 5, 1.0, 31, "M for H = 8, d = 5");
}

GRADE(ex03, size_one)
{
    compare(1, 1, 1, 1.0, 32, "M for H = 1, d = 1");
}

GRADE(ex03, large_coefficients)
{
    compare(3, 4, 4, 1e8, 33, "M for coefficients ~1e8");
}

GRADE(ex03, rectangular_matrices)
{
    compare(4, 3, 6, 1.0, 34, "M for V_j of shape (3, 6)");
}

GRADE(ex03, two_sizes_and_many_matrices)
{
    compare(2, 3, 3, 1.0, 35, "M for H = 2, d = 3");
    compare(100, 40, 40, 1.0, 36, "M for H = 100, d = 40, after H = 2");
    compare(3, 2, 2, 1.0, 37, "M for H = 3, d = 2, after H = 100");
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

GRADE(ex03, what_M_held_is_replaced)
{
    gsl_rng *r = grade_rng(38);
    gsl_matrix *coef = grade_gaussian(1, 3, 1.0, r), **V = random_bank(3, 3, 3, r);
    gsl_vector_view c = gsl_matrix_row(coef, 0);
    gsl_matrix *got = grade_nan(3, 3), *want = grade_nan(3, 3), *onto = grade_nan(3, 3);
    gsl_matrix_set_all(got, 7.0);
    grade_repad(&got);
    cr_assert_eq(dw_mixture(&c.vector, V, want), INVENT_OK);
    gsl_matrix_memcpy(onto, want);
    gsl_matrix_add_constant(onto, 7.0);
    grade_mistake known[] = {{onto, "you added the mixture onto what M held (7 everywhere "
                                    "here): clear M first, M is an output"}};
    grade_status("M holding 7 before the call", ex03_mixture(&c.vector, V, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_matrix_why("M holding 7 before the call", got, want, 1e-12, HINT, known, 1);
    free_bank(V, 3);
    gsl_matrix_free(coef), gsl_matrix_free(got), gsl_matrix_free(want), gsl_matrix_free(onto);
    gsl_rng_free(r);
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
    GRADE_NO_LEAK(0, ex03_mixture(c, V, M), "free what you allocate on every path");
    gsl_matrix_free(V[0]), gsl_matrix_free(V[1]), gsl_matrix_free(M), gsl_matrix_free(seven);
    gsl_vector_free(c);
}

GRADE(ex03, no_memory_leak)
{
    gsl_matrix *V[2] = {gsl_matrix_calloc(8, 8), gsl_matrix_calloc(8, 8)};
    gsl_matrix *M = gsl_matrix_calloc(8, 8);
    gsl_vector *c = gsl_vector_calloc(2);
    GRADE_NO_LEAK(dw_mixture(c, V, M), ex03_mixture(c, V, M),
                  "free every matrix you allocate, and keep none from one call to the next");
    gsl_matrix_free(V[0]), gsl_matrix_free(V[1]), gsl_matrix_free(M);
    gsl_vector_free(c);
}
