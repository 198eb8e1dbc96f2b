/* The sparse-versus-dense comparison, measured: for each fraction f of the
 * scores, the dense tiled kernel and both sparse kernels (attn_sparse.h)
 * on the same random problem, timed in interleaved rounds so that a busy
 * machine slows all three alike. What `make bench` and chapter 11 show. */
#ifndef INVENT_SPARSE_MEASURE_H
#define INVENT_SPARSE_MEASURE_H

#include <stddef.h>

#include "attn_kernels.h"

typedef struct {
    double fraction;       /* f asked for */
    double key_fraction;   /* scores the random key lists compute / visible scores */
    double block_fraction; /* the same for the random block lists */
    double dense_ms, keys_ms, blocks_ms; /* medians over the rounds */
    double dense_ns, keys_ns, blocks_ns; /* time per computed score (per head) */
} sparse_point;

/* s (causal, window 0), fractions: (n) in (0, 1], rounds >= 1, seed ->
 * points: (n). Q, K, V are uniform on [-1, 1); each f gets its own random
 * key lists and block lists from seed. Also checks that the sparse kernels
 * at f = 1 agree with the dense one: *worst_diff, the largest relative
 * difference (NAN when no f is 1). INVENT_ERANGE for bad arguments or
 * environment; INVENT_ENOMEM. */
int sparse_measure(const attn_shape *s, const double *fractions, size_t n, int rounds,
                   unsigned long seed, sparse_point *points, double *worst_diff);

#endif
