/* Mutant: leaves through quick_exit(0) before any work. Expect: your code called quick_exit() */
#include <stdlib.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    (void)s, (void)tau;
    quick_exit(0);
}
