/* Mutant: exponentiates the scores as they are, which overflows for large ones. Expect: exp overflowed to inf */
#include <math.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    if (!(tau > 0.0))
        return INVENT_ERANGE;
    for (size_t i = 0; i < s->size; i++)
        if (isnan(gsl_vector_get(s, i)) || gsl_vector_get(s, i) == INFINITY)
            return INVENT_ERANGE;
    if (gsl_vector_max(s) == -INFINITY) {
        gsl_vector_set_zero(s);
        return INVENT_OK;
    }
    double sum = 0.0;
    for (size_t i = 0; i < s->size; i++) {
        double w = exp(gsl_vector_get(s, i) / tau);
        gsl_vector_set(s, i, w);
        sum += w;
    }
    gsl_vector_scale(s, 1.0 / sum);
    return INVENT_OK;
}
