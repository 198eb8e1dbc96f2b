/* The vector paths of simd.h as tables of functions. Each path compiles the
 * same generic bodies (tile_body.h, sparse_body.h, decode_body.h,
 * machine_body.h) for its own vector width, in its own file with its own
 * compiler flags (vec_avx512.c, vec_avx2.c, vec_portable.c); the drivers
 * pick a table at run time. */
#ifndef INVENT_VEC_PATH_H
#define INVENT_VEC_PATH_H

#include <stddef.h>

#include "simd.h"
#include "workers.h"

typedef struct {
    simd_level level;
    size_t panel;        /* queries per tiled work item; 0: not built for this target */
    workers_fn tile_item; /* one (head, query panel) of the tiled kernel; ctx: tile_job */
    workers_fn sparse_item; /* one query of the key-list sparse kernel; ctx: sparse_job */
    workers_fn decode_item; /* one chunk of the decode kernel's cache; ctx: decode_job */
    workers_fn fma_item;  /* a burst of register-only multiply-adds; ctx: fma_job */
    size_t fma_lanes;     /* multiply-adds per accumulator round of fma_item */
    workers_fn read_item; /* one part of a buffer, read; ctx: read_job */
    workers_fn train_forward_item;  /* one (sequence, head) of attn_train_forward;
                                     * ctx: attn_train_job */
    workers_fn train_backward_item; /* one (sequence, head) of attn_train_backward */
    workers_fn gemm_item; /* one block of rows of gemm32's C; ctx: gemm32_job */
    size_t gemm_nr;       /* columns of its register block */
} vec_path;

extern const vec_path vec_path_avx512, vec_path_avx2, vec_path_portable;

/* -> the table of the path the kernels take now (simd_current), or NULL
 * with *status = INVENT_ERANGE when INVENT_SIMD is bad */
const vec_path *vec_path_current(int *status);

#endif
