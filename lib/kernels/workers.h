/* Both cores (or all of them): run n independent work items on a few POSIX
 * threads that take the next item from a shared counter, so items of uneven
 * cost balance themselves. The calling thread works too. The helper threads
 * are started by the first run that needs them and kept asleep between
 * runs (workers.c). */
#ifndef INVENT_WORKERS_H
#define INVENT_WORKERS_H

#include <stddef.h>

#define WORKERS_MAX 64

/* One work item: ctx is shared, item in 0..n-1, worker in 0..workers-1
 * (index per-worker scratch with it). Returns an INVENT_* status. */
typedef int (*workers_fn)(void *ctx, size_t item, int worker);

/* count <- how many workers the kernels use: INVENT_THREADS when it is set
 * (a whole number 1..WORKERS_MAX, nothing else), else the online CPUs (at
 * most WORKERS_MAX); INVENT_ERANGE for any other INVENT_THREADS */
int workers_get(int *count);

/* INVENT_THREADS -> INVENT_OK, or INVENT_ERANGE with a one-line reason in
 * msg (size bytes), for a program to refuse it before any work */
int workers_env_check(char *msg, size_t size);

/* -> workers_get's count, or 1 when INVENT_THREADS is bad (the kernels then
 * refuse to run; workers_env_check says why) */
int workers_count(void);

/* Runs fn on items 0..n-1 with `workers` threads (the caller included);
 * returns the first non-OK status any item returned (the others still run). */
int workers_run(size_t n, int workers, workers_fn fn, void *ctx);

#endif
