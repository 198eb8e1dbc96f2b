/* Unit tests: the key cache and its accounting. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "kvcache.h"
#include "status.h"

Test(kvcache, appends_and_scores_the_cached_keys)
{
    kvcache *c = kvcache_new(3, 2);
    cr_assert_not_null(c);
    double k0[] = {1.0, 2.0}, k1[] = {-1.0, 0.5}, q[] = {2.0, 1.0};
    gsl_vector_view v0 = gsl_vector_view_array(k0, 2), v1 = gsl_vector_view_array(k1, 2);
    gsl_vector_view vq = gsl_vector_view_array(q, 2);
    cr_assert_eq(kvcache_append(c, &v0.vector), INVENT_OK);
    cr_assert_eq(kvcache_append(c, &v1.vector), INVENT_OK);
    cr_assert_eq(c->len, 2);
    gsl_vector *s = gsl_vector_alloc(2);
    cr_assert_eq(kvcache_scores(c, &vq.vector, s), INVENT_OK);
    cr_assert_eq(gsl_vector_get(s, 0), 4.0);
    cr_assert_eq(gsl_vector_get(s, 1), -1.5);
    gsl_vector_free(s);
    kvcache_free(c);
}

Test(kvcache, refuses_when_full_or_misshapen)
{
    kvcache *c = kvcache_new(1, 2);
    gsl_vector *k = gsl_vector_calloc(2), *wide = gsl_vector_calloc(3), *s = gsl_vector_calloc(2);
    cr_assert_eq(kvcache_scores(c, k, s), INVENT_ESHAPE, "an empty cache has nothing to score");
    cr_assert_eq(kvcache_append(c, wide), INVENT_ESHAPE);
    cr_assert_eq(kvcache_append(c, k), INVENT_OK);
    cr_assert_eq(kvcache_append(c, k), INVENT_ERANGE);
    cr_assert_eq(kvcache_scores(c, k, s), INVENT_ESHAPE, "s must have one entry per token");
    cr_assert_null(kvcache_new(0, 2));
    gsl_vector_free(k);
    gsl_vector_free(wide);
    gsl_vector_free(s);
    kvcache_free(c);
}

Test(kvcache, bytes_of_the_ledger_setting_and_overflow)
{
    kvcache_shape ledger = {5000, 50, 20, 1000, 2};
    uint64_t bytes = 0;
    cr_assert_eq(kvcache_bytes(&ledger, &bytes), INVENT_OK);
    cr_assert_eq(bytes, 10000000000ULL);
    kvcache_shape huge = {1ULL << 32, 1ULL << 16, 1ULL << 8, 1ULL << 8, 2};
    cr_assert_eq(kvcache_bytes(&huge, &bytes), INVENT_EOVERFLOW);
    cr_assert_eq(bytes, 10000000000ULL, "left untouched on overflow");
}

Test(kvcache, costs_by_formula_match_small_cases_by_hand)
{
    kvcache_cost c;
    /* T = 3, d = 4: 3*16 projections + 4*(1+2+3) dot products */
    cr_assert_eq(kvcache_cost_bilinear(3, 4, &c), INVENT_OK);
    cr_assert_eq(c.madds, 48 + 24);
    cr_assert_eq(c.cached, 12);
    /* T = 4, d = 4, r = 2: 4*2*2*4 projections + 2*(1+2+3+4) */
    cr_assert_eq(kvcache_cost_factored(4, 4, 2, &c), INVENT_OK);
    cr_assert_eq(c.madds, 64 + 20);
    cr_assert_eq(c.cached, 8);
}

Test(kvcache, costs_report_overflow)
{
    kvcache_cost c = {7, 7};
    cr_assert_eq(kvcache_cost_bilinear(UINT64_MAX, 1, &c), INVENT_EOVERFLOW);
    cr_assert_eq(kvcache_cost_bilinear(10, 1ULL << 33, &c), INVENT_EOVERFLOW);
    cr_assert_eq(kvcache_cost_factored(1ULL << 40, 2, 1, &c), INVENT_EOVERFLOW);
    cr_assert_eq(c.madds, 7, "left untouched on overflow");
}
