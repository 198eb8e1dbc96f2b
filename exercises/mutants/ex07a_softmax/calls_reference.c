/* Mutant: calls the library's softmax instead of writing one. Expect: calls softmax_vector */
#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    return softmax_vector(s, tau);
}
