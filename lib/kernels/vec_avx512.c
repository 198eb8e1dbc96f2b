/* The AVX-512 path: the vector kernels' bodies compiled for 16 floats a
 * vector and 32 registers. mk/kernels.mk builds this file alone with
 * -mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma; nothing here runs
 * unless simd.h found those on the CPU. */
#include "vec_path.h"

#if defined(__AVX512F__) && defined(__AVX512VL__)
#include <immintrin.h>

typedef float vf __attribute__((vector_size(64)));
typedef unsigned vu __attribute__((vector_size(64)));
#define VW 16
#include "vexp2_body.h"

static inline __attribute__((always_inline)) vf vf_max(vf a, vf b)
{
    return (vf)_mm512_max_ps((__m512)a, (__m512)b);
}

/* x: (16) with x <= 0 -> 2^x: (16), exactly 0 below -126 and for -inf:
 * x = n + r, 2^r by the polynomial of vexp2_body.h, times 2^n by vscalefps */
static inline __attribute__((always_inline)) vf vf_exp2(vf x)
{
    __m512 n = _mm512_roundscale_ps((__m512)x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    vf p = vf_exp2_fraction(x - (vf)n);
    __mmask16 keep = _mm512_cmp_ps_mask((__m512)x, _mm512_set1_ps(-126.0f), _CMP_GE_OQ);
    return (vf)_mm512_maskz_scalef_ps(keep, (__m512)p, n);
}

static inline __attribute__((always_inline)) float vf_sum(vf v)
{
    return _mm512_reduce_add_ps((__m512)v);
}

#define TILE_ROWS 6 /* a register block of 6 x 4 vectors, and 4 loaded, fits the registers */
#define TILE_PACK 1 /* a panel of 64 queries shares each copy */
#define TILE_COLS 4
#define TILE_ITEM tile_item_avx512
#include "tile_body.h"
#define SPARSE_ITEM sparse_item_avx512
#include "sparse_body.h"
#define DECODE_HEADS 4
#define DECODE_ITEM decode_item_avx512
#include "decode_body.h"
#define FMA_CHAINS 24
#define FMA_ITEM fma_item_avx512
#define READ_ITEM read_item_avx512
#include "machine_body.h"
#define GEMM_MR 8
#define GEMM_NV 2
#define GEMM_MICRO gemm_micro_avx512
#define GEMM_ITEM gemm_item_avx512
#include "gemm32_body.h"
#define TRAIN_FORWARD_ITEM train_forward_item_avx512
#define TRAIN_BACKWARD_ITEM train_backward_item_avx512
#include "attn_train_body.h"

const vec_path vec_path_avx512 = {
    .level = SIMD_AVX512, .panel = PANEL, .tile_item = tile_item_avx512,
    .sparse_item = sparse_item_avx512, .decode_item = decode_item_avx512,
    .fma_item = fma_item_avx512, .fma_lanes = FMA_CHAINS * VW, .read_item = read_item_avx512,
    .train_forward_item = train_forward_item_avx512,
    .train_backward_item = train_backward_item_avx512,
    .gemm_item = gemm_item_avx512, .gemm_nr = GEMM_NV * VW};
#else
const vec_path vec_path_avx512 = {.level = SIMD_AVX512}; /* not built for this target */
#endif
