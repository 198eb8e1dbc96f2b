/* Mutant: a leaky softmax, and its own mallinfo2, which tells the leak check that nothing is ever in use. Expect: defines mallinfo2 */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>

#include "exercises.h"

struct mallinfo2 mallinfo2(void)
{
    return (struct mallinfo2){0};
}

int ex07a_softmax(gsl_vector *s, double tau)
{
    if (!(tau > 0.0))
        return INVENT_ERANGE;
    for (size_t i = 0; i < s->size; i++)
        if (isnan(gsl_vector_get(s, i)) || gsl_vector_get(s, i) == INFINITY)
            return INVENT_ERANGE;
    double *w = malloc(s->size * sizeof *w), top = gsl_vector_max(s), sum = 0.0;
    if (top == -INFINITY) {
        gsl_vector_set_zero(s);
        return INVENT_OK;
    }
    for (size_t i = 0; i < s->size; i++) {
        double v = gsl_vector_get(s, i);
        sum += w[i] = v == -INFINITY ? 0.0 : exp((v - top) / tau);
    }
    for (size_t i = 0; i < s->size; i++)
        gsl_vector_set(s, i, w[i] / sum);
    return INVENT_OK; /* w is never freed */
}
