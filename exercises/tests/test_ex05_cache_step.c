/* Grader for exercise 5: one step of a key cache, against bilinear_scores
 * (every score recomputed from scratch) and bilinear_key. A and the cache's
 * keys are views with a tda; x and s views with a stride.
 * Refused calls: bilinear_scores bilinear_score bilinear_cross_scores
 * Allowed calls: bilinear_key kvcache_scores */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"
#include "grade.h"

/* capacity, width -> an empty cache whose keys have a tda */
static kvcache *padded_cache(size_t capacity, size_t width)
{
    kvcache *c = kvcache_new(capacity, width);
    cr_assert(c != NULL, "grader: out of memory");
    gsl_matrix_set_all(c->keys, NAN); /* a row never written shows as NaN */
    grade_repad(&c->keys);
    return c;
}

/* the key the student stored in row t, against A x and the known mistake A^T x */
static void check_key(const kvcache *c, size_t t, const gsl_matrix *A, const gsl_vector *x)
{
    size_t d = x->size;
    gsl_matrix *want = grade_nan(1, d), *transposed = grade_nan(1, d);
    gsl_vector_view w = gsl_matrix_row(want, 0), k = gsl_matrix_row(transposed, 0);
    cr_assert_eq(bilinear_key(A, x, &w.vector), INVENT_OK);
    gsl_blas_dgemv(CblasTrans, 1.0, A, x, 0.0, &k.vector);
    const grade_mistake mistakes[] = {
        {transposed, "the key is A^T x: it is A x, bilinear_key(A, x, row c->len)"}};
    gsl_matrix_const_view stored = gsl_matrix_const_submatrix(c->keys, t, 0, 1, d);
    grade_matrix_why("the key stored in row t of the cache", &stored.matrix, want, 1e-12,
                     "store A x (bilinear_key) in row c->len before increasing c->len",
                     mistakes, 1);
    gsl_matrix_free(want), gsl_matrix_free(transposed);
}

/* feeds the T rows of X one at a time, each as a strided copy; compares
 * each step's scores with row t of x_t^T A x_i, and the keys with A x_i */
static void compare(size_t T, size_t d, double sigma, unsigned long seed)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *X = grade_gaussian(T, d, sigma, r), *A = grade_gaussian(d, d, 1.0, r);
    gsl_matrix *S = grade_nan(T, T), *A0 = mat_clone(A), *keys = grade_nan(T, d);
    grade_repad(&A);
    cr_assert_eq(bilinear_scores(X, A0, keys, S), INVENT_OK);
    kvcache *c = padded_cache(T, d);
    for (size_t t = 0; t < T; t++) {
        gsl_vector_view x0 = gsl_matrix_row(X, t);
        gsl_vector *x = grade_strided(&x0.vector), *s = grade_nan_strided(t + 1);
        grade_status("a step on a cache with room", ex05_cache_step(c, A, x, s), INVENT_OK,
                     "return INVENT_OK when there is room and the shapes fit");
        grade_canaries("scores of token t", s);
        grade_padding("the cache's keys", c->keys);
        check_key(c, t, A0, &x0.vector);
        cr_assert(c->len == t + 1,
                  "after %zu steps the cache holds %zu keys.\nHint: add one "
                  "to c->len after storing the key",
                  t + 1, c->len);
        gsl_vector_const_view want = gsl_matrix_const_subrow(S, t, 0, t + 1);
        grade_vector("scores of token t against keys 0..t", s, &want.vector, 1e-12,
                     "s_i = x . key_i for every cached key, the new one included "
                     "(kvcache_scores after the append)");
        grade_unchanged_vector("x after the call", x, &x0.vector);
        gsl_vector_free(x), gsl_vector_free(s);
    }
    grade_unchanged("A after the calls", A, A0);
    kvcache_free(c);
    gsl_matrix_free(X), gsl_matrix_free(A), gsl_matrix_free(A0), gsl_matrix_free(S);
    gsl_matrix_free(keys);
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

GRADE(ex05, two_sizes_and_long_caches)
{
    compare(3, 2, 1.0, 54);
    compare(300, 6, 1.0, 55);
    compare(3, 1000, 1.0, 56);
    compare(2, 3, 1.0, 57);
}

GRADE(ex05, full_cache_is_refused)
{
    kvcache *c = padded_cache(2, 2);
    gsl_matrix *A = gsl_matrix_calloc(2, 2);
    gsl_vector *x = gsl_vector_calloc(2), *s = gsl_vector_alloc(3);
    gsl_vector_view s1 = gsl_vector_subvector(s, 0, 1), s2 = gsl_vector_subvector(s, 0, 2);
    ex05_cache_step(c, A, x, &s1.vector);
    ex05_cache_step(c, A, x, &s2.vector);
    gsl_vector_set_all(s, 7.0);
    grade_status("a third token into a cache of capacity 2", ex05_cache_step(c, A, x, s),
                 INVENT_ERANGE, "the cache is full when c->len == c->keys->size1");
    cr_assert(c->len == 2, "a refused step changed c->len to %zu", c->len);
    cr_assert(gsl_vector_get(s, 0) == 7.0 && gsl_vector_get(s, 2) == 7.0,
              "a refused step wrote scores into s.\nHint: check for room before anything else");
    grade_padding("the keys of a full cache", c->keys);
    kvcache_free(c);
    gsl_matrix_free(A), gsl_vector_free(x), gsl_vector_free(s);
}

GRADE(ex05, wrong_shapes_are_refused)
{
    kvcache *c = padded_cache(4, 3);
    gsl_matrix *A = gsl_matrix_calloc(3, 3), *A2 = gsl_matrix_calloc(3, 2);
    gsl_vector *x = gsl_vector_calloc(3), *x2 = gsl_vector_calloc(2);
    gsl_vector *s1 = gsl_vector_calloc(1), *s2 = gsl_vector_calloc(2);
    gsl_matrix_set_all(A, 1.0), gsl_vector_set_all(x, 2.0); /* a key A x that shows */
    gsl_matrix *keys0 = mat_clone(c->keys);
    const char *hint = "check A (d, d), x (d) and s (c->len + 1) before writing anything";
    grade_status("A of shape (3, 2)", ex05_cache_step(c, A2, x, s1), INVENT_ESHAPE, hint);
    grade_status("x of size 2 in a cache of width 3", ex05_cache_step(c, A, x2, s1), INVENT_ESHAPE,
                 hint);
    grade_status("s of size 2 for the first token", ex05_cache_step(c, A, x, s2), INVENT_ESHAPE,
                 hint);
    cr_assert(c->len == 0, "refused steps changed c->len to %zu.\nHint: %s", c->len, hint);
    grade_matrix("the cache's keys after refused steps", c->keys, keys0, 0.0, hint);
    GRADE_NO_LEAK(0, ex05_cache_step(c, A, x, s2), "allocate nothing");
    kvcache_free(c);
    gsl_matrix_free(A), gsl_matrix_free(A2), gsl_matrix_free(keys0);
    gsl_vector_free(x), gsl_vector_free(x2), gsl_vector_free(s1), gsl_vector_free(s2);
}

GRADE(ex05, no_memory_leak)
{
    kvcache *c = padded_cache(1, 8);
    gsl_matrix *A = gsl_matrix_calloc(8, 8);
    gsl_vector *x = gsl_vector_calloc(8), *s = gsl_vector_calloc(1), *key = gsl_vector_alloc(8);
    GRADE_NO_LEAK(bilinear_key(A, x, key), (c->len = 0, ex05_cache_step(c, A, x, s)),
                  "write the key straight into the cache's row; allocate nothing");
    kvcache_free(c);
    gsl_matrix_free(A), gsl_vector_free(x), gsl_vector_free(s), gsl_vector_free(key);
}
