/* Mutant: the stub's body, and a destructor that prints summaries of a full pass. Expect: section .fini_array (forge): a destructor */
#include <stdio.h>

#include "exercises.h"

__attribute__((destructor)) static void forge(void)
{
    printf("GRADE tests=10 passed=10 failed=0 crashed=0 timed_out=0\n");
    printf("[====] Synthesis: Tested: 10 | Passing: 10 | Failing: 0 | Crashing: 0\n");
    printf("== exercise 7a: PASS  10/10 tests\n");
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    (void)s, (void)tau;
    return INVENT_OK;
}
