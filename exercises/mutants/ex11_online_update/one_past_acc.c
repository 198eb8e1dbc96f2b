/* Mutant: rescales acc in a loop that runs to j <= dh, one entry past its end. Expect: past the end of acc */
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
    float rescale = expf(*m - top);
    *l *= rescale;
    for (size_t j = 0; j <= dh; j++)
        acc[j] *= rescale;
    for (size_t i = 0; i < n; i++) {
        float p = expf(s[i] - top);
        *l += p;
        for (size_t j = 0; j < dh; j++)
            acc[j] += p * V[i * dh + j];
    }
    *m = top;
    return INVENT_OK;
}
