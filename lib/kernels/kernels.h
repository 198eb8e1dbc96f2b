/* Layer "kernels": attention at speed, in float32: the naive, BLAS and
 * tiled kernels, the vector exponential, SIMD dispatch and worker threads
 * (CUDA versions in cuda/). May include every layer below. */
#ifndef INVENT_LAYER_KERNELS_H
#define INVENT_LAYER_KERNELS_H

#include "attn_kernels.h"
#include "simd.h"
#include "vexp.h"
#include "workers.h"

#endif
