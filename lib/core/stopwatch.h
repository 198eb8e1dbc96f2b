/* Wall-clock timing for benchmarks: a monotonic clock and the median of
 * repeated measurements (robust to the odd run slowed by a busy machine). */
#ifndef INVENT_STOPWATCH_H
#define INVENT_STOPWATCH_H

#include <stddef.h>

/* -> seconds on a monotonic clock (only differences mean anything) */
double stopwatch_now(void);

/* -> CPU seconds used by this process, all its threads together: unlike
 * the wall clock, barely moved by other programs sharing the machine */
double stopwatch_cpu(void);

/* t: (n) times, n >= 1 -> their median; sorts t in place */
double stopwatch_median(double *t, size_t n);

#endif
