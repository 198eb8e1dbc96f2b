/* Mutant: the stub's body, and a constructor of priority 100 that runs before the grader's own. Expect: (ex07a_early): a constructor: code that runs before the grader */
#include "exercises.h"

#pragma GCC diagnostic ignored "-Wprio-ctor-dtor"

static int armed;

__attribute__((constructor(100))) static void ex07a_early(void)
{
    armed = 1; /* a constructor could rewrite anything here, before any check */
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    (void)s, (void)tau;
    return armed ? INVENT_OK : INVENT_ERANGE;
}
