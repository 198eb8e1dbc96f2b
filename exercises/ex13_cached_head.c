/* Your file: write the part marked TODO. Grade it: make exercise13
 * To start over: make reset 13 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 13 (chapter 13): one head's step of generation with a key-value cache.
 *
 * Generating text, a model reads one new token at a time. Every earlier
 * token's key k_i and value v_i are what they were when that token arrived,
 * so each head keeps them in a cache, and the new token costs one query q,
 * one key k and one value v (its own projections, computed by the caller),
 * a score against every cached key and a weighted sum of the cached values:
 *
 *     append k, v as row n of the cache (n = tokens cached so far),
 *     w = softmax(s),  s_i = q . k_i / sqrt(dk)  for i = 0..n (the new one included),
 *     out = sum_i w_i v_i.
 *
 * Chapter 13's G2 checks that this gives the logits of recomputing the whole
 * prefix; the mistakes below are the ones that break it.
 *
 * Contract of ex13_cached_head(K, V, len, q, k, v, out):
 *   - K, V: (T_max, dk) one head's cache, rows 0..*len - 1 holding the keys
 *     and values of the tokens so far; q, k, v: (dk) the new token's query,
 *     key and value; out: (dk);
 *   - copies k into row *len of K and v into row *len of V, adds one to *len,
 *     then writes into out the attention of q over rows 0..*len - 1 (the new
 *     one included), scaled by 1/sqrt(dk); returns INVENT_OK;
 *   - returns INVENT_ERANGE when the cache is full (*len == T_max), and
 *     INVENT_ESHAPE when V's shape is not K's or q, k, v, out are not of size
 *     dk; in both cases nothing changes;
 *   - allocates nothing (the softmax in two passes over the cache: the
 *     largest score first, then the weighted sum); K and V may be views whose
 *     rows lie further apart than their width (a tda), q, k, v, out views
 *     with a stride.
 * Write it yourself: the grade refuses calls to cache_attend, the library's
 * own form of this step, and to the generation functions that compute it
 * too, gpt_cache_step, gpt_generate_next and gpt_generate.
 * Grade: make exercise13   Hints: make hint 13 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex13_cached_head(gsl_matrix *K, gsl_matrix *V, size_t *len, const gsl_vector *q,
                     const gsl_vector *k, const gsl_vector *v, gsl_vector *out)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)K; (void)V; (void)len; (void)q; (void)k; (void)v; (void)out;
    return INVENT_OK;
}
