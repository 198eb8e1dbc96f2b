/* Mutant: asks malloc for 20 GB of scratch space and uses it unchecked. Expect: through a NULL pointer: did an allocation fail; a test may use at most 2048 MB? */
#include <math.h>
#include <stdlib.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    if (!(tau > 0.0))
        return INVENT_ERANGE;
    for (size_t i = 0; i < s->size; i++)
        if (isnan(gsl_vector_get(s, i)) || gsl_vector_get(s, i) == INFINITY)
            return INVENT_ERANGE;
    double top = gsl_vector_max(s), sum = 0.0;
    if (top == -INFINITY) {
        gsl_vector_set_zero(s);
        return INVENT_OK;
    }
    double *e = malloc((size_t)20 << 30);
    for (size_t i = 0; i < s->size; i++) {
        double v = gsl_vector_get(s, i);
        e[i] = v == -INFINITY ? 0.0 : exp((v - top) / tau);
        sum += e[i];
    }
    for (size_t i = 0; i < s->size; i++)
        gsl_vector_set(s, i, e[i] / sum);
    free(e);
    return INVENT_OK;
}
