/* Mutant: calls abort() on a temperature it does not like, instead of returning INVENT_ERANGE. Expect: abort() was called */
#include <math.h>
#include <stdlib.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    if (!(tau > 0.0))
        abort();
    for (size_t i = 0; i < s->size; i++)
        if (isnan(gsl_vector_get(s, i)) || gsl_vector_get(s, i) == INFINITY)
            return INVENT_ERANGE;
    double top = gsl_vector_max(s), sum = 0.0;
    if (top == -INFINITY) {
        gsl_vector_set_zero(s);
        return INVENT_OK;
    }
    for (size_t i = 0; i < s->size; i++) {
        double v = gsl_vector_get(s, i);
        double w = v == -INFINITY ? 0.0 : exp((v - top) / tau);
        gsl_vector_set(s, i, w);
        sum += w;
    }
    gsl_vector_scale(s, 1.0 / sum);
    return INVENT_OK;
}
