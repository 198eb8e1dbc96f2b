#include "attn_kernels.h"

#include <math.h>
#include <stdlib.h>

#include "simd.h"
#include "status.h"
#include "workers.h"

const attn_kernel attn_kernels[] = {
    {"naive", attn_naive, attn_naive_work,
     "textbook loops, one query at a time, heads shared between threads"},
    {"blas", attn_blas, attn_blas_work,
     "masked matrix form with cblas_sgemm, T x T scores per head"},
    {"tiled", attn_tiled, attn_tiled_work,
     "query/key tiles, online softmax, no T x T matrix, all cores, AVX-512/AVX2/portable"},
};
const int attn_kernels_count = (int)(sizeof attn_kernels / sizeof attn_kernels[0]);

int attn_kernels_work(const attn_shape *s, size_t *bytes)
{
    *bytes = 0;
    for (int k = 0; k < attn_kernels_count; k++) {
        size_t need;
        int status = attn_kernels[k].work(s, &need);
        if (status != INVENT_OK)
            return status;
        *bytes = need > *bytes ? need : *bytes;
    }
    return INVENT_OK;
}

int attn_work_new(size_t bytes, attn_work *w)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    *w = (attn_work){rounded >= bytes ? aligned_alloc(64, rounded ? rounded : 64) : NULL, rounded};
    return w->base ? INVENT_OK : INVENT_ENOMEM;
}

void attn_work_free(attn_work *w)
{
    free(w->base);
    *w = (attn_work){NULL, 0};
}

int attn_work_for(attn_work_fn size, const attn_shape *s, attn_work *w)
{
    size_t bytes;
    int status = size(s, &bytes);
    *w = (attn_work){NULL, 0};
    return status == INVENT_OK ? attn_work_new(bytes, w) : status;
}

int attn_env_check(char *msg, size_t size)
{
    int status = workers_env_check(msg, size);
    return status == INVENT_OK ? simd_env_check(msg, size) : status;
}

int attn_shape_check(const attn_shape *s)
{
    if (s->T == 0 || s->H == 0 || s->dh == 0 || !isfinite(s->scale))
        return INVENT_ERANGE;
    size_t limit = (size_t)PTRDIFF_MAX / sizeof(float);
    if (s->H > limit / s->dh || s->T > limit / (s->H * s->dh))
        return INVENT_ERANGE;
    return INVENT_OK;
}

size_t attn_first_key(const attn_shape *s, size_t t)
{
    return s->window && t + 1 > s->window ? t + 1 - s->window : 0;
}

uint64_t attn_visible_pairs(const attn_shape *s)
{
    uint64_t T = s->T, w = s->window && s->window < s->T ? s->window : s->T;
    /* rows 0..w-1 see t+1 keys, the other T-w rows see w */
    return w * (w + 1) / 2 + (T - w) * w;
}

uint64_t attn_useful_madds(const attn_shape *s)
{
    return 2 * (uint64_t)s->dh * s->H * attn_visible_pairs(s);
}

double attn_rel_diff(const float *got, const float *want, size_t n)
{
    double diff = 0.0, size = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(got[i]))
            return INFINITY;
        diff = fmax(diff, fabs((double)got[i] - (double)want[i]));
        size = fmax(size, fabs((double)want[i]));
    }
    return size > 0.0 ? diff / size : diff;
}
