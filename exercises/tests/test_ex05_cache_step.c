/* Grader for exercise 5: one step of a key cache, against bilinear_scores
 * (every score recomputed from scratch) and bilinear_key. */
#include "exercises.h"
#include "grade.h"

/* feeds the T rows of X one at a time; compares each step's scores with
 * row t of x_t^T A x_i, and the cache's keys with A x_i */
static void compare(size_t T, size_t d, double sigma, unsigned long seed)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *X = grade_gaussian(T, d, sigma, r), *A = grade_gaussian(d, d, 1.0, r);
    gsl_matrix *S = grade_nan(T, T);
    cr_assert_eq(bilinear_scores(X, A, S), INVENT_OK);
    kvcache *c = kvcache_new(T, d);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_vector *s = gsl_vector_alloc(T), *key = gsl_vector_alloc(d);
    for (size_t t = 0; t < T; t++) {
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        gsl_vector_view got = gsl_vector_subvector(s, 0, t + 1);
        gsl_vector_set_all(s, NAN);
        grade_status("a step on a cache with room", ex05_cache_step(c, A, &x.vector, &got.vector),
                     INVENT_OK, "return INVENT_OK when there is room and the shapes fit");
        cr_assert(c->len == t + 1,
                  "after %zu steps the cache holds %zu keys.\nHint: add one "
                  "to c->len after storing the key",
                  t + 1, c->len);
        cr_assert_eq(bilinear_key(A, &x.vector, key), INVENT_OK);
        gsl_vector_const_view stored = gsl_matrix_const_row(c->keys, t);
        grade_vector("the key stored in row t of the cache", &stored.vector, key, 1e-12,
                     "store A x (bilinear_key) in row c->len before increasing c->len");
        gsl_vector_const_view want = gsl_matrix_const_subrow(S, t, 0, t + 1);
        grade_vector("scores of token t against keys 0..t", &got.vector, &want.vector, 1e-12,
                     "s_i = x . key_i for every cached key, the new one included "
                     "(kvcache_scores after the append)");
    }
    gsl_vector_free(s), gsl_vector_free(key);
    kvcache_free(c);
    gsl_matrix_free(X), gsl_matrix_free(A), gsl_matrix_free(S);
    gsl_rng_free(r);
}

GRADE(ex05, random_tokens)
{
    compare(7, 4, 1.0, 51);
}

GRADE(ex05, size_one)
{
    compare(1, 1, 1.0, 52);
}

GRADE(ex05, large_magnitudes)
{
    compare(5, 3, 1e5, 53);
}

GRADE(ex05, full_cache_is_refused)
{
    kvcache *c = kvcache_new(2, 2);
    gsl_matrix *A = gsl_matrix_calloc(2, 2);
    gsl_vector *x = gsl_vector_calloc(2), *s = gsl_vector_calloc(3);
    gsl_vector_view s1 = gsl_vector_subvector(s, 0, 1), s2 = gsl_vector_subvector(s, 0, 2);
    ex05_cache_step(c, A, x, &s1.vector);
    ex05_cache_step(c, A, x, &s2.vector);
    grade_status("a third token into a cache of capacity 2", ex05_cache_step(c, A, x, s),
                 INVENT_ERANGE, "the cache is full when c->len == c->keys->size1");
    cr_assert(c->len == 2, "a refused step changed c->len to %zu", c->len);
    kvcache_free(c);
    gsl_matrix_free(A), gsl_vector_free(x), gsl_vector_free(s);
}

GRADE(ex05, wrong_shapes_are_refused)
{
    kvcache *c = kvcache_new(4, 3);
    gsl_matrix *A = gsl_matrix_calloc(3, 3), *A2 = gsl_matrix_calloc(3, 2);
    gsl_vector *x = gsl_vector_calloc(3), *x2 = gsl_vector_calloc(2);
    gsl_vector *s1 = gsl_vector_calloc(1), *s2 = gsl_vector_calloc(2);
    const char *hint = "check A (d, d), x (d) and s (c->len + 1) before writing anything";
    grade_status("A of shape (3, 2)", ex05_cache_step(c, A2, x, s1), INVENT_ESHAPE, hint);
    grade_status("x of size 2 in a cache of width 3", ex05_cache_step(c, A, x2, s1), INVENT_ESHAPE,
                 hint);
    grade_status("s of size 2 for the first token", ex05_cache_step(c, A, x, s2), INVENT_ESHAPE,
                 hint);
    cr_assert(c->len == 0, "refused steps changed c->len to %zu", c->len);
    kvcache_free(c);
    gsl_matrix_free(A), gsl_matrix_free(A2);
    gsl_vector_free(x), gsl_vector_free(x2), gsl_vector_free(s1), gsl_vector_free(s2);
}

GRADE(ex05, no_memory_leak)
{
    kvcache *c = kvcache_new(1, 8);
    gsl_matrix *A = gsl_matrix_calloc(8, 8);
    gsl_vector *x = gsl_vector_calloc(8), *s = gsl_vector_calloc(1);
    GRADE_NO_LEAK(0, (c->len = 0, ex05_cache_step(c, A, x, s)),
                  "write the key straight into the cache's row; allocate nothing");
    kvcache_free(c);
    gsl_matrix_free(A), gsl_vector_free(x), gsl_vector_free(s);
}
