/* Mutant: resets the state before checking n and dh, so a refused call changes it. Expect: a refused call changed the state */
#include <math.h>

#include "exercises.h"

int ex11_online_update(size_t n, size_t dh, const float *s, const float *V, float *m, float *l,
                       float *acc)
{
    float top = *m;
    for (size_t i = 0; i < n; i++)
        top = fmaxf(top, s[i]);
    float rescale = expf(*m - top);
    *l *= rescale;
    *m = top;
    if (n == 0 || dh == 0)
        return INVENT_ERANGE;
    for (size_t j = 0; j < dh; j++)
        acc[j] *= rescale;
    for (size_t i = 0; i < n; i++) {
        float p = expf(s[i] - top);
        *l += p;
        for (size_t j = 0; j < dh; j++)
            acc[j] += p * V[i * dh + j];
    }
    return INVENT_OK;
}
