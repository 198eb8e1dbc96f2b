/* Grader for exercise 4: the additive tanh score, against attn_additive_score. */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "score = sum_k v_k tanh(W1[k] . x_i + W2[k] . x_L), W1[k] the k-th "
                          "row of W1";

/* the student's score and the library's for a random score and random tokens */
static void compare(size_t d, size_t h, double sigma, unsigned long seed, const char *what)
{
    gsl_rng *r = grade_rng(seed);
    attn_additive *a = attn_additive_new(d, h, 1.0, r);
    cr_assert(a != NULL, "grader: out of memory");
    gsl_matrix *x = grade_gaussian(2, d, sigma, r);
    gsl_vector_view xi = gsl_matrix_row(x, 0), xL = gsl_matrix_row(x, 1);
    double want = NAN, got = NAN;
    cr_assert_eq(attn_additive_score(a->W1, a->W2, a->v, &xi.vector, &xL.vector, &want), INVENT_OK);
    grade_status(what, ex04_additive_score(a->W1, a->W2, a->v, &xi.vector, &xL.vector, &got),
                 INVENT_OK, "return INVENT_OK when the shapes fit");
    gsl_vector_view g = gsl_vector_view_array(&got, 1), w = gsl_vector_view_array(&want, 1);
    grade_vector(what, &g.vector, &w.vector, 1e-12, HINT);
    gsl_matrix_free(x);
    attn_additive_free(a);
    gsl_rng_free(r);
}

GRADE(ex04, random_score)
{
    compare(6, 4, 1.0, 41, "score for d = 6, h = 4");
}

GRADE(ex04, size_one)
{
    compare(1, 1, 1.0, 42, "score for d = h = 1");
}

GRADE(ex04, large_magnitudes_saturate)
{
    compare(5, 3, 1e6, 43, "score for tokens ~1e6");
}

GRADE(ex04, scalar_case_is_tanh_of_the_sum)
{
    gsl_matrix *one = gsl_matrix_alloc(1, 1);
    gsl_matrix_set_all(one, 1.0);
    gsl_vector_view v = gsl_matrix_row(one, 0);
    double xs[] = {0.7, -0.2}, got = NAN, want = tanh(0.5);
    gsl_vector_view xi = gsl_vector_view_array(xs, 1), xL = gsl_vector_view_array(xs + 1, 1);
    ex04_additive_score(one, one, &v.vector, &xi.vector, &xL.vector, &got);
    gsl_vector_view g = gsl_vector_view_array(&got, 1), w = gsl_vector_view_array(&want, 1);
    grade_vector("score with W1 = W2 = v = 1, x_i = 0.7, x_L = -0.2", &g.vector, &w.vector, 1e-15,
                 "the two arguments are added inside the tanh: tanh(0.7 + -0.2)");
    gsl_matrix_free(one);
}

GRADE(ex04, wrong_shapes_are_refused)
{
    gsl_matrix *W = gsl_matrix_calloc(2, 3), *W_short = gsl_matrix_calloc(1, 3);
    gsl_matrix *W_narrow = gsl_matrix_calloc(2, 2);
    gsl_vector *v = gsl_vector_calloc(2), *x = gsl_vector_calloc(3), *x2 = gsl_vector_calloc(2);
    double score = 42.0;
    const char *hint = "check h = v->size rows in W1 and W2, and d columns matching x_i and x_L, "
                       "before computing anything";
    grade_status("W2 with 1 row for h = 2", ex04_additive_score(W, W_short, v, x, x, &score),
                 INVENT_ESHAPE, hint);
    grade_status("W1 of width 2 for x_i of size 3",
                 ex04_additive_score(W_narrow, W, v, x, x, &score), INVENT_ESHAPE, hint);
    grade_status("x_L of size 2, x_i of size 3", ex04_additive_score(W, W, v, x, x2, &score),
                 INVENT_ESHAPE, hint);
    cr_assert(score == 42.0,
              "*score changed to %g on a refused call.\nHint: write *score only "
              "after every check has passed",
              score);
    gsl_matrix_free(W), gsl_matrix_free(W_short), gsl_matrix_free(W_narrow);
    gsl_vector_free(v), gsl_vector_free(x), gsl_vector_free(x2);
}

GRADE(ex04, no_memory_leak)
{
    gsl_rng *r = grade_rng(44);
    attn_additive *a = attn_additive_new(8, 4, 1.0, r);
    gsl_vector *x = gsl_vector_calloc(8);
    double s;
    GRADE_NO_LEAK(ex04_additive_score(a->W1, a->W2, a->v, x, x, &s),
                  "use row views (gsl_matrix_const_row), which allocate nothing");
    gsl_vector_free(x);
    attn_additive_free(a);
    gsl_rng_free(r);
}
