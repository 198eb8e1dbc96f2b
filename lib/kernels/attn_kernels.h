/* Causal multi-head attention in float32, the way real systems compute it,
 * in three kernels with one interface:
 *   naive  the textbook loops, one query at a time (the reference), the
 *          heads shared out between threads;
 *   blas   the masked matrix form softmax(scale Q K^T + M) V with
 *          cblas_sgemm, holding each head's T x T score matrix but skipping
 *          the blocks the mask removes;
 *   tiled  tiles of queries and keys with a running (online) maximum and sum
 *          (Milakov & Gimelshein, 2018; Dao et al., 2022): the T x T matrix
 *          is never stored, masked tiles are skipped, all cores work, and
 *          the tile products are register-blocked for the vector path the
 *          CPU has (AVX-512, AVX2 or portable, simd.h).
 * Layout: Q, K, V and out are (T, H, dh) arrays in C order, so the entry
 * (t, h, j) is at (t * H + h) * dh + j, the layout of a (T, d) activation
 * matrix with d = H * dh split into heads. */
#ifndef INVENT_ATTN_KERNELS_H
#define INVENT_ATTN_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t T;      /* tokens */
    size_t H;      /* heads */
    size_t dh;     /* size of one head */
    size_t window; /* 0: query t sees keys 0..t; w > 0: only the w most recent,
                      t-w+1..t (a sliding window) */
    float scale;   /* the scores are scale * q . k, usually 1/sqrt(dh) */
} attn_shape;

/* What one call did, counted as it ran (not predicted from a formula). */
typedef struct {
    uint64_t madds;         /* multiply-adds in the two products (scores, values) */
    uint64_t scratch_bytes; /* bytes of the workspace the call used */
} attn_cost;

/* A kernel's workspace: memory the caller allocates once (attn_work_new),
 * at the size the kernel's size function gives for the shape, and passes
 * to every call; no kernel allocates while it runs. */
typedef struct {
    void *base;   /* 64-byte aligned */
    size_t bytes;
} attn_work;

/* bytes -> w: a fresh workspace of at least that many bytes; INVENT_ENOMEM */
int attn_work_new(size_t bytes, attn_work *w);
/* w -> its memory freed, w emptied */
void attn_work_free(attn_work *w);

/* s -> bytes: the workspace a kernel needs for shape s with the threads the
 * environment asks for (INVENT_THREADS); the kernel's errors for a bad shape
 * or environment */
typedef int (*attn_work_fn)(const attn_shape *s, size_t *bytes);

/* size, s -> w: a fresh workspace of the size `size` gives for s; its
 * errors, or INVENT_ENOMEM */
int attn_work_for(attn_work_fn size, const attn_shape *s, attn_work *w);

/* Q, K, V: (T, H, dh), work -> out: (T, H, dh), causal (and windowed when
 * s->window > 0); cost may be NULL. INVENT_ERANGE for a zero size, a
 * non-finite scale, a count that overflows, a bad INVENT_THREADS or
 * INVENT_SIMD in the environment (attn_env_check says which), or a
 * workspace smaller than the kernel's size function asks for (or NULL). */
typedef int (*attn_kernel_fn)(const attn_shape *s, const float *Q, const float *K,
                              const float *V, float *out, attn_work *work, attn_cost *cost);

/* Q, K, V: (T, H, dh) -> out: (T, H, dh) by the textbook loops */
int attn_naive(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
               attn_work *work, attn_cost *cost);
/* s -> bytes: one row of T scores and a counter per thread */
int attn_naive_work(const attn_shape *s, size_t *bytes);
/* Q, K, V: (T, H, dh) -> out: (T, H, dh) by the masked matrix form */
int attn_blas(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
              attn_work *work, attn_cost *cost);
/* s -> bytes: one T x T score matrix */
int attn_blas_work(const attn_shape *s, size_t *bytes);

/* The tiled kernel's contract (what an exercise re-implements): for every
 * head and every tile of at most ATTN_TILE queries, visit the key tiles (at
 * most ATTN_TILE keys each) the mask leaves visible, left to right, keeping
 * for each query row a running maximum m, a running sum l of exp(score - m)
 * and an unnormalised output acc. A new tile with scores s raises m to m' = max(m, max s), rescales
 * l and acc by exp(m - m'), and adds exp(s - m') and exp(s - m') V. After
 * the last tile, out = acc / l (l > 0: every query sees at least itself).
 * (The kernel keeps m over the raw dot products times the scale's sign and
 * computes in base 2, 2^(|scale| log2(e) (sign q.k - m)), the same numbers:
 * the maximum is
 * subtracted before the scale's rounding, so exact scores stay exact.)
 * Extra memory: a few tiles per worker thread, independent of T (so within
 * O(T)). Same inputs, outputs and errors as every kernel. */
#define ATTN_TILE 64

/* scale -> its sign, -1, 0 or 1: a raw dot product times it is exact. The
 * tiled, sparse and decode kernels keep these signed raw scores and their
 * maximum, and scale only the differences (attn_score_factor). */
static inline float attn_score_sign(float scale)
{
    return (float)((scale > 0.0f) - (scale < 0.0f));
}

/* scale -> |scale| log2(e), from raw score differences to base-2
 * exponents; 1 at scale 0, where every signed score is 0 */
static inline float attn_score_factor(float scale)
{
    return scale != 0.0f ? fabsf(scale) * 1.44269504088896341f : 1.0f;
}
/* Q, K, V: (T, H, dh) -> out: (T, H, dh) by tiles and an online softmax */
int attn_tiled(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
               attn_work *work, attn_cost *cost);
/* s -> bytes: a few tiles and a counter per thread, the same for every T */
int attn_tiled_work(const attn_shape *s, size_t *bytes);

/* The kernels by name, in the order naive, blas, tiled. */
typedef struct {
    const char *name;
    attn_kernel_fn run;
    attn_work_fn work; /* the workspace run needs */
    const char *summary;
} attn_kernel;
extern const attn_kernel attn_kernels[];
extern const int attn_kernels_count;
/* s -> bytes: the largest workspace a kernel of attn_kernels asks for at s
 * (a workspace for all three); the kernels' errors */
int attn_kernels_work(const attn_shape *s, size_t *bytes);

/* INVENT_THREADS and INVENT_SIMD, the environment the kernels read ->
 * INVENT_OK, or INVENT_ERANGE with a one-line reason in msg (size bytes):
 * a program calls it first to refuse bad values before any work */
int attn_env_check(char *msg, size_t size);

/* -> INVENT_OK when the shape can be computed: every size >= 1, a finite
 * scale, T*H*dh floats addressable; INVENT_ERANGE otherwise */
int attn_shape_check(const attn_shape *s);

/* s -> query-key pairs the mask leaves visible: T(T+1)/2 when causal */
uint64_t attn_visible_pairs(const attn_shape *s);

/* s -> the useful multiply-adds, 2 * dh * H * visible pairs (scores and
 * values); a useful FLOP count is twice this */
uint64_t attn_useful_madds(const attn_shape *s);

/* visible key range of query t: keys attn_first_key(s, t)..t */
size_t attn_first_key(const attn_shape *s, size_t t);

/* got, want: (n) -> max |got - want| / max |want| (absolute when want = 0),
 * the measure behind "agrees to 1e-5 relative"; INFINITY when got holds a
 * NaN or an infinity */
double attn_rel_diff(const float *got, const float *want, size_t n);

#endif
