/* Mutant: keeps the tile's weights in a stack array of 64, too small for a tile of 1000 keys. Expect: crashed */
#include <math.h>

#include "exercises.h"

int ex11_online_update(size_t n, size_t dh, const float *s, const float *V, float *m, float *l,
                       float *acc)
{
    if (n == 0 || dh == 0)
        return INVENT_ERANGE;
    float top = *m;
    for (size_t i = 0; i < n; i++)
        top = fmaxf(top, s[i]);
    float p[64];
    float rescale = expf(*m - top);
    *l *= rescale;
    for (size_t j = 0; j < dh; j++)
        acc[j] *= rescale;
    for (size_t i = 0; i < n; i++) {
        p[i] = expf(s[i] - top);
        *l += p[i];
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < dh; j++)
            acc[j] += p[i] * V[i * dh + j];
    *m = top;
    return INVENT_OK;
}
