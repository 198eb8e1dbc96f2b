/* Both cores (or all of them): run n independent work items on a few POSIX
 * threads that take the next item from a shared counter, so items of uneven
 * cost balance themselves. The calling thread works too. */
#ifndef INVENT_WORKERS_H
#define INVENT_WORKERS_H

#include <stddef.h>

/* One work item: ctx is shared, item in 0..n-1, worker in 0..workers-1
 * (index per-worker scratch with it). Returns an INVENT_* status. */
typedef int (*workers_fn)(void *ctx, size_t item, int worker);

/* -> how many workers to use: the online CPUs, or INVENT_THREADS if set (1..64) */
int workers_count(void);

/* Runs fn on items 0..n-1 with `workers` threads (the caller included);
 * returns the first non-OK status any item returned (the others still run). */
int workers_run(size_t n, int workers, workers_fn fn, void *ctx);

#endif
