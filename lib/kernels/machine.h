/* The machine's two limits, measured in the same run as the kernels they
 * judge: the peak multiply-add rate of the vector path in use (simd.h) and
 * the rate at which memory delivers a buffer far larger than the caches.
 * A kernel's share of the first says how close its arithmetic comes to the
 * hardware; a decode step's share of the second, how close it comes to
 * reading its cache at memory speed. */
#ifndef INVENT_MACHINE_H
#define INVENT_MACHINE_H

#include <stddef.h>

/* seconds -> gflops: the best rate of a register-only loop of independent
 * multiply-adds on every worker thread (vectors of the path in use), in
 * GFLOP/s, 2 FLOP per multiply-add, over batches run for about `seconds`.
 * INVENT_ERANGE for seconds outside (0, 60] or a bad environment;
 * INVENT_ENOMEM. */
int machine_fma_peak(double seconds, double *gflops);

/* buf: (n) floats, repeats -> bytes_per_s: the best of `repeats` passes
 * that read buf once with every worker thread, each taking the next part
 * (a STREAM-like read). Measures memory only when buf is far larger than
 * the caches (cpu_caches.h). INVENT_ERANGE for n or repeats of 0 or a bad
 * environment; INVENT_ENOMEM. */
int machine_read_bandwidth(const float *buf, size_t n, int repeats, double *bytes_per_s);

#endif
