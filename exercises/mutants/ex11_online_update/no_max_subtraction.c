/* Mutant: sums expf(s_i) as they are, which overflows for scores past 88. Expect: subtract the running maximum */
#include <math.h>

#include "exercises.h"

int ex11_online_update(size_t n, size_t dh, const float *s, const float *V, float *m, float *l,
                       float *acc)
{
    if (n == 0 || dh == 0)
        return INVENT_ERANGE;
    for (size_t i = 0; i < n; i++) {
        float p = expf(s[i]);
        *l += p;
        *m = fmaxf(*m, s[i]);
        for (size_t j = 0; j < dh; j++)
            acc[j] += p * V[i * dh + j];
    }
    return INVENT_OK;
}
