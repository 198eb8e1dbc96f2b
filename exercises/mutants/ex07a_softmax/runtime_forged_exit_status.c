/* Mutant: ends every test's process with the pass status, 86, before any work. Expect: never reached its last line */
#include <unistd.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    (void)s, (void)tau;
    _exit(86);
}
