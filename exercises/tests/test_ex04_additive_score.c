/* Grader for exercise 4: the additive tanh score, against attn_additive_score.
 * W1 and W2 are views with a tda; v, x_i and x_L views with a stride.
 * Refused calls: attn_additive_score score_additive dw_coefficients dw_weights */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "score = sum_k v_k tanh(W1[k] . x_i + W2[k] . x_L), W1[k] the k-th "
                          "row of W1";

/* d, h -> a random score whose matrices have a tda and whose v has a stride */
static attn_additive *viewed_score(size_t d, size_t h, gsl_rng *r)
{
    attn_additive *a = attn_additive_new(d, h, 1.0, r);
    cr_assert(a != NULL, "grader: out of memory");
    grade_repad(&a->W1);
    grade_repad(&a->W2);
    grade_restride(&a->v);
    return a;
}

/* score of a on (x_i, x_L) -> a (1, 1) matrix */
static gsl_matrix *score_of(const attn_additive *a, const gsl_vector *x_i, const gsl_vector *x_L)
{
    gsl_matrix *s = grade_nan(1, 1);
    attn_additive_score(a->W1, a->W2, a->v, x_i, x_L, gsl_matrix_ptr(s, 0, 0));
    return s;
}

/* a, x_i, x_L (views with a stride) -> what three known mistakes give, (1, 1) each */
static void mistaken_scores(const attn_additive *a, const gsl_vector *x_i, const gsl_vector *x_L,
                            gsl_matrix *out[3])
{
    gsl_vector *zero = gsl_vector_calloc(x_i->size);
    gsl_matrix *alone_L = score_of(a, zero, x_L);
    out[0] = score_of(a, x_i, zero); /* tanh of each product apart */
    gsl_matrix_add(out[0], alone_L);
    out[1] = score_of(a, x_L, x_i);
    gsl_vector_const_view flat_i = gsl_vector_const_view_array(x_i->data, x_i->size);
    gsl_vector_const_view flat_L = gsl_vector_const_view_array(x_L->data, x_L->size);
    out[2] = score_of(a, &flat_i.vector, &flat_L.vector);
    gsl_matrix_free(alone_L);
    gsl_vector_free(zero);
}

/* the student's score and the library's for a random score and random
 * tokens; x_i and x_L must come back unchanged */
static void compare(size_t d, size_t h, double sigma, unsigned long seed, const char *what)
{
    gsl_rng *r = grade_rng(seed);
    attn_additive *a = viewed_score(d, h, r);
    gsl_matrix *x = grade_gaussian(2, d, sigma, r), *got = grade_nan(1, 1), *known[3];
    gsl_vector_view xi0 = gsl_matrix_row(x, 0), xL0 = gsl_matrix_row(x, 1);
    gsl_vector *xi = grade_strided(&xi0.vector), *xL = grade_strided(&xL0.vector);
    gsl_matrix *want = score_of(a, xi, xL);
    mistaken_scores(a, xi, xL, known);
    const grade_mistake mistakes[] = {
        {known[0], "the tanh is applied to each product apart: add W1 x_i and W2 x_L inside "
                   "one tanh"},
        {known[1], "x_i and x_L are swapped: x_i goes with W1, x_L with W2"},
        {known[2], "x_i and x_L are read as if their stride were 1: they are views, read them "
                   "with gsl_vector_get or gsl_blas_ddot, not ->data[k]"}};
    grade_status(what, ex04_additive_score(a->W1, a->W2, a->v, xi, xL, gsl_matrix_ptr(got, 0, 0)),
                 INVENT_OK, "return INVENT_OK when the shapes fit");
    grade_matrix_why(what, got, want, 1e-12, HINT, mistakes, 3);
    grade_unchanged_vector("x_i after the call", xi, &xi0.vector);
    grade_unchanged_vector("x_L after the call", xL, &xL0.vector);
    gsl_vector_free(xi), gsl_vector_free(xL);
    gsl_matrix_free(x), gsl_matrix_free(got), gsl_matrix_free(want);
    for (size_t k = 0; k < 3; k++)
        gsl_matrix_free(known[k]);
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

GRADE(ex04, two_sizes_and_wide_tokens)
{
    compare(3, 2, 1.0, 45, "score for d = 3, h = 2");
    compare(1000, 64, 1.0, 46, "score for d = 1000, h = 64, after d = 3");
    compare(2, 5, 1.0, 47, "score for d = 2, h = 5, after d = 1000");
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
    grade_status("W1 (2, 3) with x_i of size 3, W2 (2, 2) with x_L of size 2",
                 ex04_additive_score(W, W_narrow, v, x, x2, &score), INVENT_ESHAPE,
                 "each product fits, but the score has one width d: W1, W2 both (h, d) and "
                 "x_i, x_L both (d); check that x_i and x_L have the same size");
    cr_assert(score == 42.0,
              "*score changed to %g on a refused call.\nHint: write *score only "
              "after every check has passed",
              score);
    GRADE_NO_LEAK(0, ex04_additive_score(W, W, v, x, x2, &score),
                  "allocate nothing (row views and gsl_blas_ddot need no memory)");
    gsl_matrix_free(W), gsl_matrix_free(W_short), gsl_matrix_free(W_narrow);
    gsl_vector_free(v), gsl_vector_free(x), gsl_vector_free(x2);
}

GRADE(ex04, no_memory_leak)
{
    gsl_rng *r = grade_rng(44);
    attn_additive *a = viewed_score(8, 4, r);
    gsl_vector *x = gsl_vector_calloc(8);
    double s;
    GRADE_NO_LEAK(attn_additive_score(a->W1, a->W2, a->v, x, x, &s),
                  ex04_additive_score(a->W1, a->W2, a->v, x, x, &s),
                  "use row views (gsl_matrix_const_row), which allocate nothing");
    gsl_vector_free(x);
    attn_additive_free(a);
    gsl_rng_free(r);
}
