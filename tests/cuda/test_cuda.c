/* CUDA tests: the GPU kernels against the CPU kernels, on the shapes of
 * tests/test_kernels.c. Every test is skipped, with a message, on a machine
 * without a usable GPU. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "attn_cuda.h"
#include "attn_kernels.h"
#include "status.h"

#define REL_TOL 1e-5

static void need_gpu(void)
{
    if (attn_cuda_devices() < 1)
        cr_skip_test("no CUDA GPU present: CUDA kernel test skipped");
}

static float *random_array(size_t n, unsigned seed)
{
    float *f = malloc(n * sizeof *f);
    cr_assert_not_null(f);
    srand(seed);
    for (size_t i = 0; i < n; i++)
        f[i] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
    return f;
}

/* a GPU kernel: the CPU kernels' arguments but for the workspace (the
 * device's memory is its own) */
typedef int (*gpu_kernel)(const attn_shape *s, const float *Q, const float *K, const float *V,
                          float *out, attn_cost *cost);

/* both GPU kernels against the CPU's naive kernel on one shape */
static void compare(size_t T, size_t H, size_t dh, size_t window, float scale_factor)
{
    attn_shape s = {T, H, dh, window, scale_factor / sqrtf((float)dh)};
    size_t n = T * H * dh;
    float *q = random_array(n, 1), *k = random_array(n, 2), *v = random_array(n, 3);
    float *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    cr_assert(want && got);
    attn_work work;
    cr_assert_eq(attn_work_for(attn_naive_work, &s, &work), INVENT_OK);
    cr_assert_eq(attn_naive(&s, q, k, v, want, &work, NULL), INVENT_OK);
    attn_work_free(&work);
    gpu_kernel gpu[2] = {attn_cuda_naive, attn_cuda_tiled};
    const char *name[2] = {"cuda naive", "cuda tiled"};
    for (int g = 0; g < 2; g++) {
        cr_assert_eq(gpu[g](&s, q, k, v, got, NULL), INVENT_OK, "%s failed", name[g]);
        double e = attn_rel_diff(got, want, n);
        cr_assert(e <= REL_TOL, "%s vs CPU naive, T=%zu H=%zu dh=%zu w=%zu: %.3g", name[g], T,
                  H, dh, window, e);
    }
    free(q), free(k), free(v), free(want), free(got);
}

Test(cuda, kernels_match_the_cpu_on_odd_and_ragged_shapes)
{
    need_gpu();
    const size_t T[] = {1, 7, 31, 32, 33, 200};
    const size_t dh[] = {1, 24, 64, 128};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 4; j++)
            compare(T[i], 3, dh[j], 0, 1.0f);
}

Test(cuda, kernels_match_the_cpu_with_a_window_and_large_scores)
{
    need_gpu();
    compare(300, 2, 64, 17, 1.0f);
    compare(1024, 12, 64, 0, 1.0f);
    compare(257, 2, 16, 0, 3000.0f); /* scores far outside the range of exp */
}

Test(cuda, kernels_refuse_heads_larger_than_the_limit)
{
    float x[4] = {0};
    attn_shape s = {1, 1, ATTN_CUDA_MAX_DH + 1, 0, 1.0f};
    cr_assert_eq(attn_cuda_naive(&s, x, x, x, x, NULL), INVENT_ERANGE);
    cr_assert_eq(attn_cuda_tiled(&s, x, x, x, x, NULL), INVENT_ERANGE);
}
