/* Grader for exercise 9: the MLP read as a memory, against mlp_memory_read
 * and mlp_forward (the same MLP as two matrix products, claim M1). */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "y = b2 + sum_i f(k_i . x + b1_i) v_i, k_i row i of W1, v_i column "
                          "i of W2, f = mlp_activate(w->f, .)";

/* the student's read-out and the library's on a random x */
static void compare(size_t d, size_t m, mlp_activation f, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    mlp_weights *w = mlp_new(d, m, f, r);
    cr_assert(w != NULL, "grader: out of memory");
    gsl_matrix *bias = grade_gaussian(2, m > d ? m : d, 0.5, r);
    for (size_t i = 0; i < m; i++) /* nonzero biases, so that forgetting one shows */
        gsl_vector_set(w->b1, i, gsl_matrix_get(bias, 0, i));
    for (size_t i = 0; i < d; i++)
        gsl_vector_set(w->b2, i, gsl_matrix_get(bias, 1, i));
    gsl_matrix *X = grade_gaussian(1, d, sigma, r);
    gsl_matrix *got = grade_nan(1, d), *want = grade_nan(1, d), *forward = grade_nan(1, d);
    gsl_vector_view x = gsl_matrix_row(X, 0), g = gsl_matrix_row(got, 0);
    gsl_vector_view wv = gsl_matrix_row(want, 0);
    cr_assert_eq(mlp_memory_read(w, &x.vector, NULL, &wv.vector), INVENT_OK);
    cr_assert_eq(mlp_forward(w, X, NULL, forward), INVENT_OK);
    grade_status(what, ex09_memory_read(w, &x.vector, &g.vector), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_matrix(what, got, want, 1e-12, HINT);
    grade_matrix("y against the MLP as two matrix products", got, forward, 1e-12, HINT);
    gsl_matrix_free(bias), gsl_matrix_free(X), gsl_matrix_free(got), gsl_matrix_free(want);
    gsl_matrix_free(forward);
    mlp_free(w);
    gsl_rng_free(r);
}

GRADE(ex09, relu_memory)
{
    compare(6, 16, MLP_RELU, 1.0, 91, "y for d = 6, m = 16, ReLU");
}

GRADE(ex09, identity_activation)
{
    compare(5, 3, MLP_IDENTITY, 1.0, 92, "y for d = 5, m = 3, identity");
}

GRADE(ex09, size_one)
{
    compare(1, 1, MLP_RELU, 1.0, 93, "y for d = m = 1");
}

GRADE(ex09, large_magnitudes)
{
    compare(4, 8, MLP_RELU, 1e6, 94, "y for x ~1e6");
}

GRADE(ex09, a_stored_key_returns_its_value)
{
    size_t d = 3; /* keys: the coordinate directions; values: chosen vectors */
    gsl_rng *r = grade_rng(95);
    mlp_weights *w = mlp_new(d, d, MLP_RELU, r);
    cr_assert(w != NULL, "grader: out of memory");
    gsl_matrix_set_identity(w->W1);
    gsl_vector_set_all(w->b1, -0.5);                 /* a unit fires only on a clear match */
    double values[] = {1, 2, 3, -4, 5, -6, 7, 8, 9}; /* value i: entries 3i .. 3i+2 */
    for (size_t i = 0; i < d; i++)
        for (size_t k = 0; k < d; k++)
            gsl_matrix_set(w->W2, k, i, values[3 * i + k]);
    gsl_vector_set_zero(w->b2);
    gsl_vector *x = gsl_vector_calloc(d), *y = gsl_vector_alloc(d);
    gsl_vector_set_all(y, NAN);
    gsl_vector_set(x, 1, 1.0); /* the second key */
    ex09_memory_read(w, x, y);
    gsl_vector_view want = gsl_vector_view_array(values + 3, 3);
    gsl_vector_scale(&want.vector, 0.5); /* relu(1 - 0.5) = 0.5 of the stored value */
    grade_vector("y for x = the second stored key", y, &want.vector, 1e-12,
                 "only the matching unit fires (relu(1 - 0.5) = 0.5) and writes its value, "
                 "column 1 of W2");
    gsl_vector_free(x), gsl_vector_free(y);
    mlp_free(w);
    gsl_rng_free(r);
}

GRADE(ex09, wrong_shapes_are_refused)
{
    gsl_rng *r = grade_rng(96);
    mlp_weights *w = mlp_new(4, 6, MLP_RELU, r);
    gsl_vector *x = gsl_vector_calloc(4), *x5 = gsl_vector_calloc(5), *y3 = gsl_vector_calloc(3);
    const char *hint = "x and y must both have the d = W1->size2 entries";
    grade_status("x of size 5 for d = 4", ex09_memory_read(w, x5, x), INVENT_ESHAPE, hint);
    grade_status("y of size 3 for d = 4", ex09_memory_read(w, x, y3), INVENT_ESHAPE, hint);
    gsl_vector_free(x), gsl_vector_free(x5), gsl_vector_free(y3);
    mlp_free(w);
    gsl_rng_free(r);
}

GRADE(ex09, no_memory_leak)
{
    gsl_rng *r = grade_rng(97);
    mlp_weights *w = mlp_new(8, 32, MLP_RELU, r);
    gsl_vector *x = gsl_vector_calloc(8), *y = gsl_vector_calloc(8);
    GRADE_NO_LEAK(0, ex09_memory_read(w, x, y), "use views of W1's rows and W2's columns; "
                                             "allocate nothing");
    gsl_vector_free(x), gsl_vector_free(y);
    mlp_free(w);
    gsl_rng_free(r);
}
