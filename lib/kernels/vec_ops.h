/* The small vector operations the kernels' bodies (tile_body.h,
 * sparse_body.h, decode_body.h) share, for the vector type vf of VW floats
 * that the including path defines, with vf_sum(v) (the sum of the lanes).
 * The attention bodies keep each score as a raw dot product times the
 * scale's sign (exact), subtract the maximum, and only then multiply by
 * attn_score_factor (attn_kernels.h). */
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

/* The shuffle indices of vtranspose's stage h (rows 0..3: h = 8, 4, 2, 1;
 * the first VW entries of a row): position p of the lower row takes a[p]
 * or b[p - h], of the upper row a[p + h] or b[p] (b's entries are VW..) */
#define TR_LO(p, h) ((p) & (h) ? VW + (p) - (h) : (p))
#define TR_HI(p, h) ((p) & (h) ? VW + (p) : (p) + (h))
#define TR_ROW(F, h)                                                                   \
    {F(0, h),  F(1, h),  F(2, h),  F(3, h),  F(4, h),  F(5, h),  F(6, h),  F(7, h),     \
     F(8, h),  F(9, h),  F(10, h), F(11, h), F(12, h), F(13, h), F(14, h), F(15, h)}
static const unsigned vtranspose_lo[4][16] = {TR_ROW(TR_LO, 8), TR_ROW(TR_LO, 4),
                                              TR_ROW(TR_LO, 2), TR_ROW(TR_LO, 1)};
static const unsigned vtranspose_hi[4][16] = {TR_ROW(TR_HI, 8), TR_ROW(TR_HI, 4),
                                              TR_ROW(TR_HI, 2), TR_ROW(TR_HI, 1)};

/* rows: (VW) vectors, a VW x VW block -> its transpose, in log2(VW) stages
 * that swap the off-diagonal h x h blocks of every 2h x 2h block (h = VW/2,
 * VW/4, ..., 1), each a two-vector shuffle; vu is the path's unsigned
 * vector of VW lanes (VW at most 16) */
INLINE void vtranspose(vf rows[VW])
{
#pragma GCC unroll 4
    for (int stage = VW == 16 ? 0 : VW == 8 ? 1 : 2; stage < 4; stage++) { /* h = VW / 2 first */
        int h = 8 >> stage;
        vu lo, hi;
        memcpy(&lo, vtranspose_lo[stage], sizeof lo);
        memcpy(&hi, vtranspose_hi[stage], sizeof hi);
#pragma GCC unroll 16
        for (int i = 0; i < VW; i++)
            if (!(i & h)) {
                vf a = rows[i], b = rows[i + h];
                rows[i] = __builtin_shuffle(a, b, lo);
                rows[i + h] = __builtin_shuffle(a, b, hi);
            }
    }
}

/* s: (n) -> 2^(factor (s - shift)) in place (vf_exp2 on whole vectors,
 * exp2f on the tail), the shift subtracted before the factor multiplies;
 * -> their sum */
INLINE float vexp2_shifted_scaled(float *s, size_t n, float shift, float factor)
{
    vf total = {0}, f = vsplat(factor);
    size_t i = 0;
    for (; i + VW <= n; i += VW) {
        vf e = vf_exp2(f * (vload(s + i) - shift));
        vstore(s + i, e);
        total += e;
    }
    float sum = vf_sum(total);
    for (; i < n; i++) {
        s[i] = exp2f(factor * (s[i] - shift));
        sum += s[i];
    }
    return sum;
}

/* s: (n) -> 2^(s - shift) in place; -> their sum (factor 1: exact) */
INLINE float vexp2_shifted(float *s, size_t n, float shift)
{
    return vexp2_shifted_scaled(s, n, shift, 1.0f);
}

#endif
