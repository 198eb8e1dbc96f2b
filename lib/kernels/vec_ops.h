/* The small vector operations the kernels' bodies (tile_body.h,
 * sparse_body.h, decode_body.h) share, for the vector type vf of VW floats
 * that the including path defines, with vf_sum(v) (the sum of the lanes). */
#ifndef INVENT_VEC_OPS_H
#define INVENT_VEC_OPS_H

#include <string.h>

#define INLINE static inline __attribute__((always_inline))

INLINE vf vload(const float *p)
{
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

INLINE void vstore(float *p, vf v) { memcpy(p, &v, sizeof v); }

INLINE vf vsplat(float x) { return (vf){0} + x; }

/* mask ? a : b, lane by lane, for a mask made by a vector comparison */
#define VSELECT(mask, a, b)                                                            \
    ((vf)(((mask) & (__typeof__(mask))(a)) | (~(mask) & (__typeof__(mask))(b))))

/* q, k: (n) -> q . k, whole vectors then the tail */
INLINE float vdot(const float *q, const float *k, size_t n)
{
    vf acc = {0};
    size_t d = 0;
    for (; d + VW <= n; d += VW)
        acc += vload(q + d) * vload(k + d);
    float sum = vf_sum(acc);
    for (; d < n; d++)
        sum += q[d] * k[d];
    return sum;
}

/* o: (n) += w v: (n) */
INLINE void vaxpy(float *o, float w, const float *v, size_t n)
{
    size_t d = 0;
    for (; d + VW <= n; d += VW)
        vstore(o + d, vload(o + d) + w * vload(v + d));
    for (; d < n; d++)
        o[d] += w * v[d];
}

/* o: (n) *= w */
INLINE void vscale(float *o, float w, size_t n)
{
    size_t d = 0;
    for (; d + VW <= n; d += VW)
        vstore(o + d, w * vload(o + d));
    for (; d < n; d++)
        o[d] *= w;
}

/* s: (n) -> 2^(s - shift) in place (vf_exp2 on whole vectors, exp2f on the
 * tail); -> their sum */
INLINE float vexp2_shifted(float *s, size_t n, float shift)
{
    vf total = {0};
    size_t i = 0;
    for (; i + VW <= n; i += VW) {
        vf e = vf_exp2(vload(s + i) - shift);
        vstore(s + i, e);
        total += e;
    }
    float sum = vf_sum(total);
    for (; i < n; i++) {
        s[i] = exp2f(s[i] - shift);
        sum += s[i];
    }
    return sum;
}

#endif
