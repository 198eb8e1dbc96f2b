/* The lane operations of a path without instructions of its own for them,
 * written with GCC vector extensions alone (the AVX2 and portable paths):
 * maximum, sum of lanes, and 2^x (vexp2_body.h). The including file defines
 * vf, vu and VW. */
#ifndef INVENT_VEC_GENERIC_BODY_H
#define INVENT_VEC_GENERIC_BODY_H

#include "vexp2_body.h"

static inline __attribute__((always_inline)) vf vf_max(vf a, vf b)
{
    return (vf)(((vu)(a > b) & (vu)a) | (~(vu)(a > b) & (vu)b));
}

/* the sum of v's lanes */
static inline __attribute__((always_inline)) float vf_sum(vf v)
{
    float sum = 0.0f;
    for (int lane = 0; lane < VW; lane++)
        sum += v[lane];
    return sum;
}

#define vf_exp2 vf_exp2_generic

#endif
