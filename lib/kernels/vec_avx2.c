/* The AVX2 path: the vector kernels' bodies compiled for 8 floats a vector,
 * 16 registers and fused multiply-adds. mk/kernels.mk builds this file alone
 * with -mavx2 -mfma; nothing here runs unless simd.h found those on the CPU. */
#include "vec_path.h"

#if defined(__AVX2__) && defined(__FMA__)
typedef float vf __attribute__((vector_size(32)));
typedef unsigned vu __attribute__((vector_size(32)));
#define VW 8
#include "vec_generic_body.h"
#define TILE_ROWS 6 /* a register block of 6 x 2 vectors, and 2 loaded, fits the registers */
#define TILE_PACK 0 /* a panel of 16 queries: the copy costs more than it saves */
#define TILE_COLS 2
#define TILE_ITEM tile_item_avx2
#include "tile_body.h"
#define SPARSE_ITEM sparse_item_avx2
#include "sparse_body.h"
#define DECODE_HEADS 2
#define DECODE_ITEM decode_item_avx2
#include "decode_body.h"
#define FMA_CHAINS 12
#define FMA_ITEM fma_item_avx2
#define READ_ITEM read_item_avx2
#include "machine_body.h"
#define GEMM_MR 6
#define GEMM_NV 2
#define GEMM_MICRO gemm_micro_avx2
#define GEMM_ITEM gemm_item_avx2
#include "gemm32_body.h"
#define TRAIN_FORWARD_ITEM train_forward_item_avx2
#define TRAIN_BACKWARD_ITEM train_backward_item_avx2
#include "attn_train_body.h"

const vec_path vec_path_avx2 = {
    .level = SIMD_AVX2, .panel = PANEL, .tile_item = tile_item_avx2,
    .sparse_item = sparse_item_avx2, .decode_item = decode_item_avx2,
    .fma_item = fma_item_avx2, .fma_lanes = FMA_CHAINS * VW, .read_item = read_item_avx2,
    .train_forward_item = train_forward_item_avx2,
    .train_backward_item = train_backward_item_avx2,
    .gemm_item = gemm_item_avx2, .gemm_nr = GEMM_NV * VW};
#else
const vec_path vec_path_avx2 = {.level = SIMD_AVX2}; /* not built for this target */
#endif
