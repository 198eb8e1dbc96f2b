/* Layer "kernels": attention at speed, in float32: the naive, BLAS and
 * tiled kernels, the sparse kernels, the decode step, the measurements that
 * judge them (the machine's limits, sparse against dense, decoding at
 * memory speed), the vector paths and worker threads (CUDA versions in
 * cuda/). May include every layer below. */
#ifndef INVENT_LAYER_KERNELS_H
#define INVENT_LAYER_KERNELS_H

#include "attn_decode.h"
#include "attn_kernels.h"
#include "attn_sparse.h"
#include "attn_train.h"
#include "cpu_caches.h"
#include "decode_measure.h"
#include "gpt32.h"
#include "layers32.h"
#include "machine.h"
#include "simd.h"
#include "sparse_measure.h"
#include "vexp.h"
#include "workers.h"

#endif
