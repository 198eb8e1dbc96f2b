#include "sparse_measure.h"

#include <math.h>
#include <stdlib.h>

#include "attn_sparse.h"
#include "rng.h"
#include "status.h"
#include "stopwatch.h"

#define MAX_ROUNDS 64

/* the problem, its dense output, one fraction's patterns and a workspace
 * for every kernel on them */
typedef struct {
    const attn_shape *s;
    float *q, *k, *v, *dense, *out;
    attn_key_list keys;
    attn_block_list blocks;
    attn_work work;
} sparse_problem;

/* kernel 0 (dense, into p->dense), 1 (key lists), 2 (block lists) -> its
 * status, and the seconds of one run */
static int run_kernel(sparse_problem *p, int kernel, double *sec)
{
    double t0 = stopwatch_now();
    attn_work *w = &p->work;
    int status = kernel == 0   ? attn_tiled(p->s, p->q, p->k, p->v, p->dense, w, NULL)
                 : kernel == 1 ? attn_sparse_keys(p->s, &p->keys, p->q, p->k, p->v, p->out, w,
                                                  NULL)
                               : attn_sparse_blocks(p->s, &p->blocks, p->q, p->k, p->v, p->out,
                                                    w, NULL);
    *sec = stopwatch_now() - t0;
    return status;
}

/* -> the largest relative difference of both sparse kernels from the dense one */
static int sparse_vs_dense(sparse_problem *p, double *diff)
{
    size_t n = p->s->T * p->s->H * p->s->dh;
    double sec;
    *diff = 0.0;
    for (int k = 1; k < 3; k++) {
        int status = run_kernel(p, k, &sec);
        if (status != INVENT_OK)
            return status;
        *diff = fmax(*diff, attn_rel_diff(p->out, p->dense, n));
    }
    return INVENT_OK;
}

/* the patterns of fraction f -> its point, timed over interleaved rounds
 * after a warm-up round */
static int measure_point(sparse_problem *p, double f, int rounds, sparse_point *pt)
{
    double t[3][MAX_ROUNDS], warm;
    int status = INVENT_OK;
    for (int r = -1; r < rounds && status == INVENT_OK; r++)
        for (int k = 0; k < 3 && status == INVENT_OK; k++)
            status = run_kernel(p, k, r >= 0 ? &t[k][r] : &warm);
    double visible = (double)attn_visible_pairs(p->s), heads = (double)p->s->H;
    double pairs[3] = {visible, (double)attn_key_list_pairs(&p->keys),
                       (double)attn_block_list_pairs(&p->blocks, p->s->T)};
    double ms[3], ns[3];
    for (int k = 0; k < 3 && status == INVENT_OK; k++) {
        ms[k] = 1e3 * stopwatch_median(t[k], (size_t)rounds);
        ns[k] = 1e6 * ms[k] / (pairs[k] * heads);
    }
    if (status == INVENT_OK)
        *pt = (sparse_point){f, pairs[1] / visible, pairs[2] / visible, ms[0], ms[1], ms[2],
                             ns[0], ns[1], ns[2]};
    return status;
}

/* p -> its arrays, patterns and workspace freed */
static void problem_free(sparse_problem *p)
{
    free(p->q), free(p->k), free(p->v), free(p->dense), free(p->out);
    attn_key_list_free(&p->keys);
    attn_block_list_free(&p->blocks);
    attn_work_free(&p->work);
}

/* p's patterns of fraction f, drawn from r, and a workspace for them */
static int patterns_new(sparse_problem *p, double f, gsl_rng *r)
{
    attn_key_list_free(&p->keys);
    attn_block_list_free(&p->blocks);
    attn_work_free(&p->work);
    size_t tiled, keys;
    int status = attn_key_list_random(p->s->T, f, r, &p->keys);
    if (status == INVENT_OK)
        status = attn_block_list_random(p->s->T, f, r, &p->blocks);
    if (status == INVENT_OK)
        status = attn_tiled_work(p->s, &tiled);
    if (status == INVENT_OK)
        status = attn_sparse_keys_work(p->s, &p->keys, &keys);
    return status == INVENT_OK ? attn_work_new(tiled > keys ? tiled : keys, &p->work) : status;
}

/* s, r -> p with uniform Q, K, V on [-1, 1) and room for the outputs */
static int problem_new(const attn_shape *s, gsl_rng *r, sparse_problem *p)
{
    size_t n = s->T * s->H * s->dh;
    *p = (sparse_problem){s, malloc(n * sizeof(float)), malloc(n * sizeof(float)),
                          malloc(n * sizeof(float)), malloc(n * sizeof(float)),
                          malloc(n * sizeof(float)), {0}, {0}, {0}};
    if (!p->q || !p->k || !p->v || !p->dense || !p->out)
        return INVENT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        p->q[i] = (float)(2.0 * gsl_rng_uniform(r) - 1.0);
        p->k[i] = (float)(2.0 * gsl_rng_uniform(r) - 1.0);
        p->v[i] = (float)(2.0 * gsl_rng_uniform(r) - 1.0);
    }
    return INVENT_OK;
}

/* the arguments -> INVENT_OK when they can be measured */
static int measure_args_check(const attn_shape *s, const double *fractions, size_t n,
                              int rounds)
{
    if (attn_shape_check(s) != INVENT_OK || s->window || n == 0 || rounds < 1 ||
        rounds > MAX_ROUNDS || s->T > UINT32_MAX)
        return INVENT_ERANGE;
    for (size_t i = 0; i < n; i++)
        if (!(fractions[i] > 0.0 && fractions[i] <= 1.0))
            return INVENT_ERANGE;
    return INVENT_OK;
}

int sparse_measure(const attn_shape *s, const double *fractions, size_t n, int rounds,
                   unsigned long seed, sparse_point *points, double *worst_diff)
{
    int status = measure_args_check(s, fractions, n, rounds);
    if (status != INVENT_OK)
        return status;
    gsl_rng *r = rng_new(seed);
    sparse_problem p = {0};
    status = r ? problem_new(s, r, &p) : INVENT_ENOMEM;
    *worst_diff = NAN;
    for (size_t i = 0; i < n && status == INVENT_OK; i++) {
        status = patterns_new(&p, fractions[i], r);
        if (status == INVENT_OK)
            status = measure_point(&p, fractions[i], rounds, &points[i]);
        double diff;
        if (status == INVENT_OK && fractions[i] == 1.0 &&
            (status = sparse_vs_dense(&p, &diff)) == INVENT_OK)
            *worst_diff = isnan(*worst_diff) ? diff : fmax(*worst_diff, diff);
    }
    problem_free(&p);
    gsl_rng_free(r);
    return status;
}
