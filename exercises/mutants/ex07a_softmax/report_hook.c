/* Mutant: the stub's body, and a Criterion hook after all tests that counts every test as passed. Expect: section cr_poa (hook_l7_impl): a Criterion test or hook */
#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include "exercises.h"

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    stats->tests_passed = stats->nb_tests;
    stats->tests_failed = 0;
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    (void)s, (void)tau;
    return INVENT_OK;
}
