/* Grader for exercise 9: the MLP read as a memory, against mlp_memory_read
 * and mlp_forward (the same MLP as two matrix products, claim M1). W1 and W2
 * are views with a tda; b1, b2, x and y views with a stride.
 * Refused calls: mlp_memory_read mlp_forward block_forward */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "y = b2 + sum_i f(k_i . x + b1_i) v_i, k_i row i of W1, v_i column "
                          "i of W2, f = mlp_activate(w->f, .)";

/* d, m, f -> random weights with nonzero biases (so that forgetting one
 * shows), their matrices views with a tda and their biases with a stride */
static mlp_weights *viewed_mlp(size_t d, size_t m, mlp_activation f, gsl_rng *r)
{
    mlp_weights *w = mlp_new(d, m, f, r);
    cr_assert(w != NULL, "grader: out of memory");
    gsl_matrix *bias = grade_gaussian(2, m > d ? m : d, 0.5, r);
    gsl_vector_const_view b1 = gsl_matrix_const_subrow(bias, 0, 0, m);
    gsl_vector_const_view b2 = gsl_matrix_const_subrow(bias, 1, 0, d);
    gsl_vector_memcpy(w->b1, &b1.vector), gsl_vector_memcpy(w->b2, &b2.vector);
    grade_repad(&w->W1), grade_repad(&w->W2);
    grade_restride(&w->b1), grade_restride(&w->b2);
    gsl_matrix_free(bias);
    return w;
}

/* w with one part changed as a mistake changes it, x -> its read-out, (1, d) */
static gsl_matrix *read_as(mlp_weights w, const gsl_vector *x)
{
    gsl_matrix *y = grade_nan(1, x->size);
    gsl_vector_view row = gsl_matrix_row(y, 0);
    mlp_memory_read(&w, x, NULL, &row.vector);
    return y;
}

/* the student's read-out of a strided copy of a random x and the library's */
static void compare(size_t d, size_t m, mlp_activation f, double sigma, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    mlp_weights *w = viewed_mlp(d, m, f, r), no_b1 = *w, no_b2 = *w, no_f = *w;
    gsl_matrix *X = grade_gaussian(1, d, sigma, r), *want = grade_nan(1, d);
    gsl_matrix *forward = grade_nan(1, d);
    gsl_vector_view x0 = gsl_matrix_row(X, 0), wv = gsl_matrix_row(want, 0);
    gsl_vector *x = grade_strided(&x0.vector), *y = grade_nan_strided(d);
    gsl_vector *zero_m = gsl_vector_calloc(m), *zero_d = gsl_vector_calloc(d);
    no_b1.b1 = zero_m, no_b2.b2 = zero_d, no_f.f = MLP_IDENTITY;
    cr_assert_eq(mlp_memory_read(w, &x0.vector, NULL, &wv.vector), INVENT_OK);
    mlp_trace *tr = mlp_trace_new(1, w);
    cr_assert_eq(mlp_forward(w, X, tr, forward), INVENT_OK);
    mlp_trace_free(tr);
    gsl_matrix *known[] = {read_as(no_b1, x), read_as(no_b2, x), read_as(no_f, x)};
    const grade_mistake mistakes[] = {
        {known[0], "b1 is missing: unit i fires f(k_i . x + b1_i)"},
        {known[1], "b2 is missing: start y from b2, then add every unit's value"},
        {known[2], "the activation is missing: apply mlp_activate(w->f, .) to each match"}};
    grade_status(what, ex09_memory_read(w, x, y), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_canaries(what, y);
    grade_vector_why(what, y, &wv.vector, 1e-12, HINT, mistakes, 3);
    gsl_vector_view fv = gsl_matrix_row(forward, 0);
    grade_vector("y against the MLP as two matrix products", y, &fv.vector, 1e-12, HINT);
    grade_unchanged_vector("x after the call", x, &x0.vector);
    for (size_t k = 0; k < 3; k++)
        gsl_matrix_free(known[k]);
    gsl_vector_free(x), gsl_vector_free(y), gsl_vector_free(zero_m), gsl_vector_free(zero_d);
    gsl_matrix_free(X), gsl_matrix_free(want), gsl_matrix_free(forward);
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

GRADE(ex09, two_sizes_and_a_large_memory)
{
    compare(3, 2, MLP_RELU, 1.0, 98, "y for d = 3, m = 2");
    compare(40, 1000, MLP_RELU, 1.0, 99, "y for d = 40, m = 1000, after d = 3");
    compare(2, 3, MLP_RELU, 1.0, 90, "y for d = 2, m = 3, after m = 1000");
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
    mlp_weights *w = viewed_mlp(4, 6, MLP_RELU, r);
    gsl_vector *x = gsl_vector_calloc(4), *x5 = gsl_vector_calloc(5), *y3 = gsl_vector_calloc(3);
    const char *hint = "x and y must both have the d = W1->size2 entries";
    grade_status("x of size 5 for d = 4", ex09_memory_read(w, x5, x), INVENT_ESHAPE, hint);
    grade_status("y of size 3 for d = 4", ex09_memory_read(w, x, y3), INVENT_ESHAPE, hint);
    GRADE_NO_LEAK(0, ex09_memory_read(w, x, y3), "allocate nothing");
    gsl_vector_free(x), gsl_vector_free(x5), gsl_vector_free(y3);
    mlp_free(w);
    gsl_rng_free(r);
}

GRADE(ex09, no_memory_leak)
{
    gsl_rng *r = grade_rng(97);
    mlp_weights *w = viewed_mlp(8, 32, MLP_RELU, r);
    gsl_vector *x = gsl_vector_calloc(8), *y = gsl_vector_calloc(8);
    GRADE_NO_LEAK(mlp_memory_read(w, x, NULL, y), ex09_memory_read(w, x, y),
                  "use views of W1's rows and W2's columns; allocate nothing");
    gsl_vector_free(x), gsl_vector_free(y);
    mlp_free(w);
    gsl_rng_free(r);
}
