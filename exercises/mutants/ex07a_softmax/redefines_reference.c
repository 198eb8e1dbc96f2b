/* Mutant: its own softmax_vector, the reference's name, which replaces the library's: the grader would compare the stub with itself. Expect: defines softmax_vector, a global symbol */
#include "exercises.h"

int softmax_vector(gsl_vector *s, double tau)
{
    (void)s;
    return tau > 0.0 ? INVENT_OK : INVENT_ERANGE;
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    return softmax_vector(s, tau);
}
