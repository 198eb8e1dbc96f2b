/* CUDA versions of the naive and the tiled attention kernels. */
#include <math.h>
#include <cuda_runtime.h>

#include "attn_cuda.h"
#include "status.h"

#define CUDA_TILE 32 /* queries per block and keys per shared-memory tile */

/* first visible key of query t (as attn_first_key) */
__device__ static size_t first_key(size_t t, size_t window)
{
    return window && t + 1 > window ? t + 1 - window : 0;
}

/* one thread per (query t, head h): the textbook loops, in three passes */
__global__ static void naive_kernel(attn_shape s, const float *Q, const float *K,
                                    const float *V, float *out)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, h = blockIdx.y;
    if (t >= s.T)
        return;
    size_t ld = s.H * s.dh, lo = first_key(t, s.window);
    const float *q = Q + t * ld + h * s.dh;
    float *o = out + t * ld + h * s.dh;
    float max = -INFINITY;
    for (size_t i = lo; i <= t; i++) {
        float dot = 0.0f;
        for (size_t j = 0; j < s.dh; j++)
            dot += q[j] * K[i * ld + h * s.dh + j];
        max = fmaxf(max, s.scale * dot);
    }
    for (size_t j = 0; j < s.dh; j++)
        o[j] = 0.0f;
    float sum = 0.0f;
    for (size_t i = lo; i <= t; i++) {
        float dot = 0.0f;
        for (size_t j = 0; j < s.dh; j++)
            dot += q[j] * K[i * ld + h * s.dh + j];
        float w = expf(s.scale * dot - max);
        sum += w;
        for (size_t j = 0; j < s.dh; j++)
            o[j] += w * V[i * ld + h * s.dh + j];
    }
    for (size_t j = 0; j < s.dh; j++)
        o[j] /= sum;
}

/* a block per (query tile, head), one thread per query of the tile */
__global__ static void tiled_kernel(attn_shape s, const float *Q, const float *K,
                                    const float *V, float *out)
{
    extern __shared__ float tile[]; /* keys (CUDA_TILE, dh), then values */
    float *k_tile = tile, *v_tile = tile + CUDA_TILE * s.dh;
    size_t h = blockIdx.y, i0 = blockIdx.x * (size_t)CUDA_TILE, t = i0 + threadIdx.x;
    size_t ld = s.H * s.dh;
    float q[ATTN_CUDA_MAX_DH], acc[ATTN_CUDA_MAX_DH], m = -INFINITY, l = 0.0f;
    for (size_t j = 0; j < s.dh; j++) {
        q[j] = t < s.T ? Q[t * ld + h * s.dh + j] : 0.0f;
        acc[j] = 0.0f;
    }
    size_t last = i0 + CUDA_TILE - 1 < s.T ? i0 + CUDA_TILE - 1 : s.T - 1;
    for (size_t j0 = first_key(i0, s.window) / CUDA_TILE * CUDA_TILE; j0 <= last;
         j0 += CUDA_TILE) {
        __syncthreads();
        for (size_t e = threadIdx.x; e < CUDA_TILE * s.dh; e += blockDim.x) {
            size_t r = e / s.dh, c = e % s.dh, i = j0 + r;
            k_tile[e] = i < s.T ? K[i * ld + h * s.dh + c] : 0.0f;
            v_tile[e] = i < s.T ? V[i * ld + h * s.dh + c] : 0.0f;
        }
        __syncthreads();
        if (t >= s.T)
            continue;
        float score[CUDA_TILE], top = -INFINITY; /* this tile's scores, -inf if masked */
        for (size_t r = 0; r < CUDA_TILE; r++) {
            size_t i = j0 + r;
            score[r] = -INFINITY;
            if (i > t || (s.window && t - i >= s.window))
                continue;
            float dot = 0.0f;
            for (size_t j = 0; j < s.dh; j++)
                dot += q[j] * k_tile[r * s.dh + j];
            score[r] = s.scale * dot;
            top = fmaxf(top, score[r]);
        }
        if (top == -INFINITY)
            continue; /* nothing visible in this tile */
        float m_new = fmaxf(m, top), alpha = expf(m - m_new); /* the online step */
        l *= alpha;
        for (size_t j = 0; j < s.dh; j++)
            acc[j] *= alpha;
        for (size_t r = 0; r < CUDA_TILE; r++) {
            float p = expf(score[r] - m_new);
            l += p;
            for (size_t j = 0; j < s.dh; j++)
                acc[j] += p * v_tile[r * s.dh + j];
        }
        m = m_new;
    }
    if (t < s.T)
        for (size_t j = 0; j < s.dh; j++)
            out[t * ld + h * s.dh + j] = acc[j] / l;
}

extern "C" int attn_cuda_devices(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

/* the device copies of Q, K, V and out */
typedef struct {
    float *q, *k, *v, *out;
} device_arrays;

static void device_free(device_arrays *d)
{
    cudaFree(d->q), cudaFree(d->k), cudaFree(d->v), cudaFree(d->out);
}

static int device_upload(size_t n, const float *Q, const float *K, const float *V,
                         device_arrays *d)
{
    *d = (device_arrays){NULL, NULL, NULL, NULL};
    size_t bytes = n * sizeof(float);
    if (cudaMalloc(&d->q, bytes) != cudaSuccess || cudaMalloc(&d->k, bytes) != cudaSuccess ||
        cudaMalloc(&d->v, bytes) != cudaSuccess || cudaMalloc(&d->out, bytes) != cudaSuccess ||
        cudaMemcpy(d->q, Q, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(d->k, K, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(d->v, V, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        device_free(d);
        return INVENT_EIO;
    }
    return INVENT_OK;
}

typedef enum { RUN_NAIVE, RUN_TILED } which_kernel;

/* upload, launch, download; -> INVENT_OK or INVENT_EIO */
static int run_on_device(which_kernel which, const attn_shape *s, const float *Q,
                         const float *K, const float *V, float *out)
{
    if (attn_cuda_devices() < 1)
        return INVENT_EIO;
    size_t n = s->T * s->H * s->dh;
    device_arrays d;
    if (device_upload(n, Q, K, V, &d) != INVENT_OK)
        return INVENT_EIO;
    if (which == RUN_NAIVE) {
        dim3 grid((unsigned)((s->T + 127) / 128), (unsigned)s->H);
        naive_kernel<<<grid, 128>>>(*s, d.q, d.k, d.v, d.out);
    } else {
        dim3 grid((unsigned)((s->T + CUDA_TILE - 1) / CUDA_TILE), (unsigned)s->H);
        size_t shared = 2 * CUDA_TILE * s->dh * sizeof(float);
        tiled_kernel<<<grid, CUDA_TILE, shared>>>(*s, d.q, d.k, d.v, d.out);
    }
    int status = cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
                         cudaMemcpy(out, d.out, n * sizeof(float), cudaMemcpyDeviceToHost) ==
                             cudaSuccess
                     ? INVENT_OK
                     : INVENT_EIO;
    device_free(&d);
    return status;
}

/* multiply-adds of the tiles the tiled kernel visits (every key of a
 * visited tile is scored against every query of the block) */
static uint64_t tiled_madds(const attn_shape *s)
{
    uint64_t total = 0;
    for (size_t i0 = 0; i0 < s->T; i0 += CUDA_TILE) {
        size_t last = i0 + CUDA_TILE - 1 < s->T ? i0 + CUDA_TILE - 1 : s->T - 1;
        size_t first = attn_first_key(s, i0) / CUDA_TILE * CUDA_TILE;
        total += (uint64_t)(last / CUDA_TILE * CUDA_TILE + CUDA_TILE - first) * (last - i0 + 1);
    }
    return 2 * total * s->dh * s->H;
}

/* checks the shape, runs one kernel, fills cost */
static int attn_cuda_run(which_kernel which, const attn_shape *s, const float *Q,
                         const float *K, const float *V, float *out, attn_cost *cost)
{
    int status = attn_shape_check(s);
    if (status == INVENT_OK && (s->dh > ATTN_CUDA_MAX_DH || s->H > 65535))
        status = INVENT_ERANGE;
    if (status == INVENT_OK)
        status = run_on_device(which, s, Q, K, V, out);
    if (status == INVENT_OK && cost)
        *cost = which == RUN_NAIVE
                    ? (attn_cost){attn_useful_madds(s), 0}
                    : (attn_cost){tiled_madds(s), 2 * CUDA_TILE * s->dh * sizeof(float)};
    return status;
}

extern "C" int attn_cuda_naive(const attn_shape *s, const float *Q, const float *K,
                               const float *V, float *out, attn_cost *cost)
{
    return attn_cuda_run(RUN_NAIVE, s, Q, K, V, out, cost);
}

extern "C" int attn_cuda_tiled(const attn_shape *s, const float *Q, const float *K,
                               const float *V, float *out, attn_cost *cost)
{
    return attn_cuda_run(RUN_TILED, s, Q, K, V, out, cost);
}
