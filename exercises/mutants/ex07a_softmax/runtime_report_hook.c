/* Mutant: report_hook.c past the symbol check: its hook makes the count say every test passed. Expect: a hook that rewrote the count */
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
