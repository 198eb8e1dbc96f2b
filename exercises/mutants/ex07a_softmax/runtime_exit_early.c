/* Mutant: ends the process with _exit(0) before any work. Expect: the test never reached its end */
#include <unistd.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    (void)s, (void)tau;
    _exit(0);
}
