/* The portable path: the vector kernels' bodies in plain C, compiled for
 * the compiler's baseline (SSE2 on x86-64), 4 floats a vector; the tiled
 * kernel's two products go to cblas_sgemm on whole tiles, which chooses its
 * own instructions. */
#include <gsl/gsl_cblas.h>

#include "vec_path.h"

typedef float vf __attribute__((vector_size(16)));
typedef unsigned vu __attribute__((vector_size(16)));
#define VW 4
#include "vec_generic_body.h"
#define TILE_BLAS
#define TILE_ROWS 1
#define TILE_COLS (ATTN_TILE / VW)
#define TILE_ITEM tile_item_portable
#include "tile_body.h"
#define SPARSE_ITEM sparse_item_portable
#include "sparse_body.h"
#define DECODE_HEADS 2
#define DECODE_ITEM decode_item_portable
#include "decode_body.h"
#define FMA_CHAINS 8
#define FMA_ITEM fma_item_portable
#define READ_ITEM read_item_portable
#include "machine_body.h"
#define GEMM_MR 4
#define GEMM_NV 2
#define GEMM_MICRO gemm_micro_portable
#define GEMM_ITEM gemm_item_portable
#include "gemm32_body.h"
#define TRAIN_FORWARD_ITEM train_forward_item_portable
#define TRAIN_BACKWARD_ITEM train_backward_item_portable
#include "attn_train_body.h"

const vec_path vec_path_portable = {
    .level = SIMD_PORTABLE, .panel = PANEL, .tile_item = tile_item_portable,
    .sparse_item = sparse_item_portable, .decode_item = decode_item_portable,
    .fma_item = fma_item_portable, .fma_lanes = FMA_CHAINS * VW, .read_item = read_item_portable,
    .train_forward_item = train_forward_item_portable,
    .train_backward_item = train_backward_item_portable,
    .gemm_item = gemm_item_portable, .gemm_nr = GEMM_NV * VW};
