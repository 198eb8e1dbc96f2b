/* The naive and the tiled attention kernel on an NVIDIA GPU (CUDA), with
 * the interface of lib/kernels/attn_kernels.h: host arrays in, host array out; the
 * copies to and from the device are part of the call. Built only where
 * nvcc exists (make says when it skips them). */
#ifndef INVENT_ATTN_CUDA_H
#define INVENT_ATTN_CUDA_H

#ifdef __cplusplus
extern "C" {
#endif

#include "attn_kernels.h"

/* The largest head the CUDA kernels take (a query row's output lives in
 * registers). */
#define ATTN_CUDA_MAX_DH 128

/* -> how many CUDA devices this process can use (0 when none or no driver) */
int attn_cuda_devices(void);

/* Q, K, V: (T, H, dh) -> out: (T, H, dh), one GPU thread per (query, head)
 * running the textbook loops (max, sum of exponentials, weighted values).
 * cost->madds: the visible pairs' multiply-adds; scratch_bytes: 0.
 * INVENT_ERANGE for a bad shape or dh > ATTN_CUDA_MAX_DH; INVENT_EIO when
 * no device can be used or a CUDA call fails. */
int attn_cuda_naive(const attn_shape *s, const float *Q, const float *K, const float *V,
                    float *out, attn_cost *cost);

/* The same output, tiled: a thread block per (tile of queries, head) loads
 * tiles of keys and values into shared memory and keeps a running maximum,
 * sum and output per query (the contract of attn_tiled); no T x T matrix.
 * cost->madds: the multiply-adds of the visited tiles; scratch_bytes: the
 * shared memory of one block. Errors as attn_cuda_naive. */
int attn_cuda_tiled(const attn_shape *s, const float *Q, const float *K, const float *V,
                    float *out, attn_cost *cost);

#ifdef __cplusplus
}
#endif

#endif
