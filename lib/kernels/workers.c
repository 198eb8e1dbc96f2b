#include "workers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "env_checks.h"
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

/* The pool: helper threads started the first time a run needs them and
 * kept, each asleep until the next run, so that a call costs a wake-up, not
 * the start of a thread (30 to 100 microseconds here under load, a tenth
 * of a decode step at T = 1024). The caller works from the start; a helper
 * joins when it wakes, if items are left, and the caller waits only for the
 * helpers that joined. One run at a time uses the pool (run); a forked
 * child starts with none. */
typedef struct {
    pthread_mutex_t run;   /* held by the run that uses the pool */
    pthread_mutex_t lock;  /* guards the fields below */
    pthread_cond_t wake, done;
    int helpers;           /* started; helper i is worker i + 1 */
    int wanted;            /* helpers 0..wanted-1 may join this run */
    int busy;              /* helpers that joined it and are still working */
    unsigned long round;   /* counts runs; a helper waits for it to change */
    job *job;              /* the run's job while helpers may join, else NULL */
} worker_pool;

static worker_pool pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                           PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0,
                           NULL};

/* a helper: asleep until the next round; joins it when wanted and still open */
static void *helper(void *arg)
{
    int index = (int)(size_t)arg;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        while (pool.round == seen)
            pthread_cond_wait(&pool.wake, &pool.lock);
        seen = pool.round;
        job *j = index < pool.wanted ? pool.job : NULL;
        pool.busy += j != NULL;
        pthread_mutex_unlock(&pool.lock);
        if (!j)
            continue;
        seat s = {j, index + 1};
        work(&s);
        pthread_mutex_lock(&pool.lock);
        if (--pool.busy == 0)
            pthread_cond_signal(&pool.done);
        pthread_mutex_unlock(&pool.lock);
    }
    return NULL;
}

/* in a forked child: the parent's helpers do not exist there */
static void pool_forget(void)
{
    pool = (worker_pool){PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                         PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, NULL};
}

static void pool_register_fork(void) { pthread_atfork(NULL, NULL, pool_forget); }

/* want -> helpers started until there are want (fewer if a start fails);
 * -> how many there are, at most want. The caller holds pool.run. */
static int pool_grow(int want)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pool_register_fork);
    pthread_attr_t attr;
    if (pool.helpers < want && pthread_attr_init(&attr) == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_t t;
        while (pool.helpers < want &&
               pthread_create(&t, &attr, helper, (void *)(size_t)pool.helpers) == 0)
            pool.helpers++;
        pthread_attr_destroy(&attr);
    }
    return pool.helpers < want ? pool.helpers : want;
}

/* j, helpers 1..pool.helpers -> a new round: that many helpers may join j */
static void pool_start(job *j, int helpers)
{
    pthread_mutex_lock(&pool.lock);
    pool.job = j, pool.wanted = helpers;
    pool.round++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
}

/* the caller has found no item left -> no helper joins any more (one
 * that has not woken yet, on a loaded machine, is not waited for); returns
 * when those that joined have finished */
static void pool_wait(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.job = NULL;
    while (pool.busy > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
}

/* The same run on threads started for this call alone: what a call made
 * while the pool is busy (another thread's run, or an item's own call)
 * falls back to */
static int run_fresh(job *j, int workers)
{
    seat seats[WORKERS_MAX];
    pthread_t threads[WORKERS_MAX];
    int started = 0;
    for (int w = 1; w < workers && (size_t)w < j->n; w++) {
        seats[w] = (seat){j, w};
        if (pthread_create(&threads[started], NULL, work, &seats[w]) != 0)
            break; /* fewer threads: the items still all run */
        started++;
    }
    seats[0] = (seat){j, 0};
    work(&seats[0]);
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    return j->status;
}

int workers_run(size_t n, int workers, workers_fn fn, void *ctx)
{
    if (workers < 1 || workers > WORKERS_MAX)
        return INVENT_ERANGE;
    job j = {n, 0, INVENT_OK, fn, ctx};
    if (workers == 1 || n < 2) {
        seat alone = {&j, 0};
        work(&alone);
        return j.status;
    }
    if (pthread_mutex_trylock(&pool.run) != 0)
        return run_fresh(&j, workers);
    int helpers = pool_grow(workers - 1);
    if (helpers == 0) {
        pthread_mutex_unlock(&pool.run);
        return run_fresh(&j, workers);
    }
    pool_start(&j, (size_t)helpers < n - 1 ? helpers : (int)(n - 1));
    seat caller = {&j, 0};
    work(&caller);
    pool_wait();
    pthread_mutex_unlock(&pool.run);
    return j.status;
}

/* every program linking this file refuses a bad INVENT_THREADS when it parses its flags,
 * before any work (a chapter would otherwise find it in its first kernel
 * call, after its outputs were made) */
__attribute__((constructor)) static void register_env_check(void)
{
    env_checks_add(workers_env_check);
}
