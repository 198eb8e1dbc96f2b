#include "workers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "status.h"

typedef struct {
    size_t n;
    size_t next;   /* the next item nobody has taken (atomic) */
    int status;    /* first failure (atomic compare-and-swap) */
    workers_fn fn;
    void *ctx;
} job;

typedef struct {
    job *job;
    int worker;
} seat;

static void *work(void *arg)
{
    seat *s = arg;
    job *j = s->job;
    for (;;) {
        size_t item = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (item >= j->n)
            break;
        int status = j->fn(j->ctx, item, s->worker);
        int ok = INVENT_OK;
        if (status != INVENT_OK)
            __atomic_compare_exchange_n(&j->status, &ok, status, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED);
    }
    return NULL;
}

/* text -> its value when it is a whole number 1..WORKERS_MAX written in
 * decimal digits alone, else 0 */
static int thread_count_of(const char *text)
{
    long n = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9' || n > WORKERS_MAX)
            return 0;
        n = 10 * n + (*c - '0');
    }
    return n >= 1 && n <= WORKERS_MAX ? (int)n : 0;
}

int workers_env_check(char *msg, size_t size)
{
    const char *env = getenv("INVENT_THREADS");
    if (!env || thread_count_of(env) > 0)
        return INVENT_OK;
    snprintf(msg, size, "INVENT_THREADS='%s' must be a whole number from 1 to %d", env,
             WORKERS_MAX);
    return INVENT_ERANGE;
}

int workers_get(int *count)
{
    const char *env = getenv("INVENT_THREADS");
    if (env) {
        *count = thread_count_of(env);
        return *count > 0 ? INVENT_OK : INVENT_ERANGE;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    *count = online < 1 ? 1 : online > WORKERS_MAX ? WORKERS_MAX : (int)online;
    return INVENT_OK;
}

int workers_count(void)
{
    int count;
    return workers_get(&count) == INVENT_OK ? count : 1;
}

int workers_run(size_t n, int workers, workers_fn fn, void *ctx)
{
    if (workers < 1 || workers > WORKERS_MAX)
        return INVENT_ERANGE;
    job j = {n, 0, INVENT_OK, fn, ctx};
    seat seats[WORKERS_MAX];
    pthread_t threads[WORKERS_MAX];
    int started = 0;
    for (int w = 1; w < workers && (size_t)w < n; w++) {
        seats[w] = (seat){&j, w};
        if (pthread_create(&threads[started], NULL, work, &seats[w]) != 0)
            break; /* fewer threads: the items still all run */
        started++;
    }
    seats[0] = (seat){&j, 0};
    work(&seats[0]);
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    return j.status;
}
