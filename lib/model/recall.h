/* The recall probe: how much of a sequence can be read back, linearly, from
 * what a recurrent cell remembers of it. */
#ifndef INVENT_RECALL_H
#define INVENT_RECALL_H

#include <gsl/gsl_rng.h>

#include "rnn.h"

typedef enum {
    MEMORY_FINAL_STATE, /* only h_n: a memory of fixed size m */
    MEMORY_EVERY_STATE  /* h_1 .. h_n: a memory that grows with the input */
} memory_kind;

/* Least-squares read-out of all n inputs of a sequence from the memory,
 * fitted on random training sequences; -> *error, its relative (Frobenius)
 * error on fresh sequences: 0 is perfect recall, 1 is none at all */
int recall_error(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r, double *error);

/* The same probe, the read-out fitted by a complete orthogonal decomposition of
 * the memory (QR with column pivoting) instead of the normal equations: its
 * rounding grows with the memory's condition number, not with its square, so
 * recall within capacity stays exact to about 1e-16 cond when a long input
 * sequence leaves the state badly conditioned (cond 1e6 and more). Costs about
 * S f^2: for memories of a few hundred numbers. */
int recall_error_qr(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r, double *error);

/* c, n with n p <= m -> *cond, the condition number of the map from the last n
 * inputs to the final state, [W^(n-1) U .. W U U]: (m, n p). Recall from the
 * final state is exact in exact arithmetic while n p <= m; in double precision
 * the read-out of recall_error_qr misses by about 1e-16 cond. INVENT_ERANGE
 * when n p > m or n = 0. */
int recall_condition(const rnn_cell *c, size_t n, double *cond);

/* m, p, n -> the error recall_error should measure for Gaussian inputs:
 * sqrt(lost (N - 1) / (N - f - 1)). lost = 1 - m / (n p) is the share of the
 * n p input directions that an m-dimensional final state cannot see (0 when
 * n p <= m, and always 0 when every state is kept); the factor is how much a
 * least-squares read-out with f features, fitted on N Gaussian samples, loses
 * on fresh ones. 0 when nothing is lost (any f, N). */
double recall_expected_error(size_t m, size_t p, size_t n, memory_kind kind);

/* m, p, n -> how far the final state's measured error strays from the expected
 * one by chance, relative: its standard deviation, from two sources.
 * The test set: the lost share of the test targets' squared size is a ratio of
 * sums of squares over S n p numbers (S = 256 sequences), with variance
 * 2 lost (1 - lost) / (S n p); the error is its square root:
 *   t = sqrt((1 - lost) / (2 lost S n p)).
 * The fitted read-out: its excess k = f / (N - f - 1) over the lost share varies,
 * relatively, by about sqrt(2 / (f (n p - m))) with the noise it was fitted on,
 * sqrt(2 / N) with the training states and sqrt(2 / (S f)) with the test states:
 *   r = k / (1 + k) sqrt(2 / (f (n p - m)) + 2 / N + 2 / (S f)) / 2.
 * -> sqrt(t^2 + r^2); 0 when nothing is lost. */
double recall_error_spread(size_t m, size_t p, size_t n);

#endif
