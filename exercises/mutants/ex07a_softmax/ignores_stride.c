/* Mutant: reads and writes s->data[i], as if the stride were always 1. Expect: stride */
#include <math.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    if (!(tau > 0.0))
        return INVENT_ERANGE;
    double top = -INFINITY;
    for (size_t i = 0; i < s->size; i++) {
        if (isnan(s->data[i]) || s->data[i] == INFINITY)
            return INVENT_ERANGE;
        top = fmax(top, s->data[i]);
    }
    if (top == -INFINITY) {
        for (size_t i = 0; i < s->size; i++)
            s->data[i] = 0.0;
        return INVENT_OK;
    }
    double sum = 0.0;
    for (size_t i = 0; i < s->size; i++) {
        s->data[i] = s->data[i] == -INFINITY ? 0.0 : exp((s->data[i] - top) / tau);
        sum += s->data[i];
    }
    for (size_t i = 0; i < s->size; i++)
        s->data[i] /= sum;
    return INVENT_OK;
}
