/* Grader for exercise 13: one head's step of generation with a key-value
 * cache, against cache_attend on the same cache. K and V are views with a
 * tda, q, k, v and out views with a stride.
 * Refused calls: cache_attend gpt_cache_step gpt_generate gpt_generate_next */
#include <math.h>

#include "exercises.h"
#include "grade.h"

#define RULE "copy k and v into row *len, add one to *len, then out = sum_i w_i v_i over rows " \
             "0..*len - 1, w = softmax(q . k_i / sqrt(dk))"

/* the reference's cache, its rows 0..n - 1, with query q -> (1, dk) their attention;
 * q scaled by `scale` first (sqrt(dk) undoes the 1/sqrt(dk): the known mistake) */
static gsl_matrix *attention_of(const gsl_matrix *K, const gsl_matrix *V, size_t n,
                                const gsl_vector *q, double scale)
{
    size_t dk = K->size2;
    gsl_matrix *out = grade_nan(1, dk);
    if (n == 0)
        return out;
    gsl_vector *qs = gsl_vector_alloc(dk), *s = gsl_vector_alloc(n);
    gsl_vector_memcpy(qs, q);
    gsl_vector_scale(qs, scale);
    gsl_matrix_const_view Kn = gsl_matrix_const_submatrix(K, 0, 0, n, dk);
    gsl_matrix_const_view Vn = gsl_matrix_const_submatrix(V, 0, 0, n, dk);
    gsl_vector_view o = gsl_matrix_row(out, 0);
    cr_assert_eq(cache_attend(&Kn.matrix, &Vn.matrix, qs, s, &o.vector), INVENT_OK);
    gsl_vector_free(qs), gsl_vector_free(s);
    return out;
}

/* one step: the student's on K, V (padded), the reference's on Kr, Vr; both hold len rows */
static void one_step(gsl_matrix *K, gsl_matrix *V, size_t *len, gsl_matrix *Kr, gsl_matrix *Vr,
                     size_t dk, double sigma, gsl_rng *r)
{
    size_t n = *len + 1;
    gsl_matrix *qkv = grade_gaussian(3, dk, sigma, r);
    gsl_vector_view q0 = gsl_matrix_row(qkv, 0), k0 = gsl_matrix_row(qkv, 1), v0 = gsl_matrix_row(qkv, 2);
    gsl_vector *q = grade_strided(&q0.vector), *k = grade_strided(&k0.vector);
    gsl_vector *v = grade_strided(&v0.vector), *out = grade_nan_strided(dk);
    gsl_matrix *stale = attention_of(Kr, Vr, n - 1, &q0.vector, 1.0);
    gsl_matrix_set_row(Kr, n - 1, &k0.vector), gsl_matrix_set_row(Vr, n - 1, &v0.vector);
    gsl_matrix *want = attention_of(Kr, Vr, n, &q0.vector, 1.0);
    gsl_matrix *unscaled = attention_of(Kr, Vr, n, &q0.vector, sqrt((double)dk));
    grade_status("a step on a cache with room", ex13_cached_head(K, V, len, q, k, v, out),
                 INVENT_OK, "return INVENT_OK when there is room and the shapes fit");
    cr_assert(*len == n, "after the step *len is %zu, expected %zu.\nHint: add one to *len "
              "after storing the key and value", *len, n);
    const grade_mistake mistakes[] = {
        {stale, "the attention read the stale cache, without the new token's key and value: "
                "store k and v in row *len first, then attend over every row, the new one "
                "included"},
        {unscaled, "the scores were not scaled: s_i = q . k_i / sqrt(dk)"}};
    for (size_t i = 0; i < dk; i++)
        cr_assert(!isnan(gsl_vector_get(out, i)), "out[%zu] is NaN: a row never written was "
                  "read (the grader fills the cache's free rows with NaN).\nHint: store k and v "
                  "in row *len, the first free row, before adding one to *len", i);
    gsl_vector_view w = gsl_matrix_row(want, 0);
    grade_vector_why("the head's output for the new token", out, &w.vector, 1e-12, RULE,
                     mistakes, 2);
    gsl_matrix_const_view Kn = gsl_matrix_const_submatrix(K, 0, 0, n, dk);
    gsl_matrix_const_view Krn = gsl_matrix_const_submatrix(Kr, 0, 0, n, dk);
    gsl_matrix_const_view Vn = gsl_matrix_const_submatrix(V, 0, 0, n, dk);
    gsl_matrix_const_view Vrn = gsl_matrix_const_submatrix(Vr, 0, 0, n, dk);
    grade_matrix("the cache's keys, rows 0..*len - 1", &Kn.matrix, &Krn.matrix, 0.0,
                 "row *len of K receives k, untouched rows stay as they were");
    grade_matrix("the cache's values, rows 0..*len - 1", &Vn.matrix, &Vrn.matrix, 0.0,
                 "row *len of V receives v, untouched rows stay as they were");
    grade_padding("K after the call", K);
    grade_padding("V after the call", V);
    grade_canaries("out", out);
    grade_unchanged_vector("q after the call", q, &q0.vector);
    grade_unchanged_vector("k after the call", k, &k0.vector);
    grade_unchanged_vector("v after the call", v, &v0.vector);
    gsl_matrix_free(stale), gsl_matrix_free(want), gsl_matrix_free(unscaled);
    gsl_matrix_free(qkv);
    gsl_vector_free(q), gsl_vector_free(k), gsl_vector_free(v), gsl_vector_free(out);
}

/* a cache of T_max rows holding `first` random tokens already, then steps until it is
 * full; the student's rows never written hold NaN */
static void compare(size_t T_max, size_t dk, size_t first, double sigma, unsigned long seed)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *Kr = grade_gaussian(T_max, dk, sigma, r), *Vr = grade_gaussian(T_max, dk, sigma, r);
    gsl_matrix *K = grade_nan(T_max, dk), *V = grade_nan(T_max, dk);
    for (size_t i = 0; i < first; i++) {
        gsl_vector_view kr = gsl_matrix_row(Kr, i), vr = gsl_matrix_row(Vr, i);
        gsl_matrix_set_row(K, i, &kr.vector), gsl_matrix_set_row(V, i, &vr.vector);
    }
    grade_repad(&K), grade_repad(&V);
    for (size_t len = first; len < T_max;)
        one_step(K, V, &len, Kr, Vr, dk, sigma, r);
    gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(Kr), gsl_matrix_free(Vr);
    gsl_rng_free(r);
}

GRADE(ex13, a_cache_with_tokens_already)
{
    compare(8, 4, 3, 1.0, 131);
}

GRADE(ex13, from_an_empty_cache)
{
    compare(6, 4, 0, 1.0, 132);
}

GRADE(ex13, size_one)
{
    compare(1, 1, 0, 1.0, 133);
}

GRADE(ex13, large_scores)
{
    compare(5, 3, 1, 30.0, 134); /* scores of some 900 / sqrt(3): exp overflows unless shifted */
}

GRADE(ex13, two_sizes_and_long_caches)
{
    compare(300, 6, 10, 1.0, 135);
    compare(3, 1000, 0, 1.0, 136);
    compare(4, 2, 2, 1.0, 137);
}

GRADE(ex13, a_full_cache_is_refused)
{
    gsl_matrix *K = gsl_matrix_calloc(2, 2), *V = gsl_matrix_calloc(2, 2);
    gsl_vector *q = gsl_vector_calloc(2), *k = gsl_vector_calloc(2), *v = gsl_vector_calloc(2);
    gsl_vector *out = gsl_vector_alloc(2);
    gsl_vector_set_all(k, 3.0), gsl_vector_set_all(out, 7.0);
    size_t len = 2;
    grade_status("a third token into a cache of 2 rows", ex13_cached_head(K, V, &len, q, k, v, out),
                 INVENT_ERANGE, "the cache is full when *len == K->size1");
    cr_assert(len == 2, "a refused step changed *len to %zu", len);
    cr_assert(gsl_vector_get(out, 0) == 7.0 && gsl_matrix_get(K, 1, 1) == 0.0,
              "a refused step wrote into out or the cache.\nHint: check for room before "
              "anything else");
    gsl_matrix_free(K), gsl_matrix_free(V);
    gsl_vector_free(q), gsl_vector_free(k), gsl_vector_free(v), gsl_vector_free(out);
}

GRADE(ex13, wrong_shapes_are_refused)
{
    gsl_matrix *K = gsl_matrix_calloc(4, 3), *V = gsl_matrix_calloc(4, 3), *V2 = gsl_matrix_calloc(4, 2);
    gsl_vector *q = gsl_vector_calloc(3), *k = gsl_vector_calloc(3), *v = gsl_vector_calloc(3);
    gsl_vector *q2 = gsl_vector_calloc(2), *out = gsl_vector_calloc(3), *out2 = gsl_vector_calloc(2);
    gsl_vector_set_all(k, 2.0);
    const char *hint = "check V (the shape of K), q, k, v and out (size dk) before writing anything";
    size_t len = 0;
    grade_status("V of 4 x 2 beside K of 4 x 3", ex13_cached_head(K, V2, &len, q, k, v, out),
                 INVENT_ESHAPE, hint);
    grade_status("q of size 2 for dk = 3", ex13_cached_head(K, V, &len, q2, k, v, out),
                 INVENT_ESHAPE, hint);
    grade_status("out of size 2 for dk = 3", ex13_cached_head(K, V, &len, q, k, v, out2),
                 INVENT_ESHAPE, hint);
    cr_assert(len == 0 && gsl_matrix_get(K, 0, 0) == 0.0,
              "refused steps changed *len (%zu) or the cache.\nHint: %s", len, hint);
    GRADE_NO_LEAK(0, (len = 0, ex13_cached_head(K, V, &len, q, k, v, out)), "allocate nothing");
    gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(V2);
    gsl_vector_free(q), gsl_vector_free(k), gsl_vector_free(v), gsl_vector_free(q2);
    gsl_vector_free(out), gsl_vector_free(out2);
}
