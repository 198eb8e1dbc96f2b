/* Layer "kernels": attention at speed, in float32: the naive, BLAS and
 * tiled kernels, the sparse kernels, the decode step, the measurements that
 * judge them (the machine's limits, sparse against dense, decoding at
 * memory speed), the training path's fused attention,
 * additive score, products and layers (attn_train.h, additive32.h, gemm32.h,
 * layers32.h), the vector paths and worker threads (CUDA versions in cuda/).
 * Not listed here: the kernels' own headers (a vector path's bodies, what a
 * driver hands them), and decode_ledger.h, whose short names (LEDGER_D, ...)
 * chapter 11 and the benchmark include by name. May include core (lib/layers.txt). */
#ifndef INVENT_LAYER_KERNELS_H
#define INVENT_LAYER_KERNELS_H

#include "additive32.h"
#include "attn_decode.h"
#include "attn_kernels.h"
#include "attn_sparse.h"
#include "attn_train.h"
#include "cpu_caches.h"
#include "decode_measure.h"
#include "gemm32.h"
#include "layers32.h"
#include "machine.h"
#include "simd.h"
#include "sparse_measure.h"
#include "vexp.h"
#include "workers.h"

#endif
