/* Your file: write the part marked TODO. Grade it: make exercise5
 * To start over: make reset 5 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 5 (chapter 5): caching keys.
 *
 * The bilinear score of the current token x against a past token x_i is
 * x^T A x_i = x . (A x_i). The vector A x_i depends on the past token alone,
 * so a model that reads tokens one at a time computes it once, when x_i
 * arrives, and keeps it: the key. Each new token then costs one product A x
 * and one dot product per cached key, instead of recomputing every A x_i.
 *
 * Contract of ex05_cache_step(c, A, x, s), one new token x:
 *   - c: a key cache of width d (c->keys: (capacity, d), c->len keys so far,
 *     see lib/model/kvcache.h); A: (d, d); x: (d);
 *   - stores the key A x as row c->len of c->keys, adds one to c->len, then
 *     writes into s: (c->len) the scores s_i = x . key_i of the new token
 *     against every cached key, its own included; returns INVENT_OK;
 *   - returns INVENT_ERANGE when the cache is full, and INVENT_ESHAPE when A
 *     is not (d, d), x not (d), or s not of size c->len + 1; in both cases
 *     nothing changes.
 *   - A and the cache's keys may be views whose rows lie further apart than
 *     their width (a tda), x and s views with a stride.
 * Use the library: bilinear_key (straight into the cache's row, no copy) and
 * kvcache_scores; allocate nothing.
 * Write it yourself: the grade refuses calls to bilinear_scores,
 * bilinear_cross_scores and bilinear_score.
 * Grade: make exercise5   Hints: make hint 5 (then LEVEL=2, LEVEL=3) */
#include "exercises.h"

int ex05_cache_step(kvcache *c, const gsl_matrix *A, const gsl_vector *x, gsl_vector *s)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)c; (void)A; (void)x; (void)s;
    return INVENT_OK;
}
