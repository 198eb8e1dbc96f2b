#include "machine.h"

#include <stdlib.h>

#include "attn_kernels.h"
#include "machine_job.h"
#include "status.h"
#include "stopwatch.h"
#include "vec_path.h"
#include "workers.h"

/* the path's loops and the worker count, or an error status */
static int machine_setup(const vec_path **path, int *workers)
{
    char why[160];
    int status = attn_env_check(why, sizeof why);
    *path = status == INVENT_OK ? vec_path_current(&status) : NULL;
    return status == INVENT_OK ? workers_get(workers) : status;
}

int machine_fma_peak(double seconds, double *gflops)
{
    const vec_path *path;
    int workers, status = machine_setup(&path, &workers);
    if (status == INVENT_OK && !(seconds > 0.0 && seconds <= 60.0))
        status = INVENT_ERANGE;
    double *sink = status == INVENT_OK ? calloc((size_t)workers, sizeof *sink) : NULL;
    if (status != INVENT_OK || !sink)
        return status != INVENT_OK ? status : INVENT_ENOMEM;
    fma_job j = {1u << 14, 0.999999f, 1e-7f, sink};
    size_t items = 4 * (size_t)workers;
    double start = stopwatch_now(), best = 0.0;
    while (status == INVENT_OK && stopwatch_now() - start < seconds) {
        double t0 = stopwatch_now();
        status = workers_run(items, workers, path->fma_item, &j);
        double madds = (double)items * (double)j.rounds * (double)path->fma_lanes;
        double rate = 2.0 * madds / (stopwatch_now() - t0) / 1e9;
        best = rate > best ? rate : best;
        if (stopwatch_now() - t0 < 0.005)
            j.rounds *= 2; /* batches of at least 5 ms */
    }
    free(sink);
    *gflops = best;
    return status;
}

int machine_read_bandwidth(const float *buf, size_t n, int repeats, double *bytes_per_s)
{
    const vec_path *path;
    int workers, status = machine_setup(&path, &workers);
    if (status == INVENT_OK && (n == 0 || repeats < 1))
        status = INVENT_ERANGE;
    double *sink = status == INVENT_OK ? calloc((size_t)workers, sizeof *sink) : NULL;
    if (status != INVENT_OK || !sink)
        return status != INVENT_OK ? status : INVENT_ENOMEM;
    read_job j = {buf, n, (size_t)1 << 20, sink}; /* parts of 4 MiB */
    size_t items = (n + j.part - 1) / j.part;
    double best = 0.0;
    for (int r = 0; r < repeats && status == INVENT_OK; r++) {
        double t0 = stopwatch_now();
        status = workers_run(items, workers, path->read_item, &j);
        double rate = (double)n * sizeof(float) / (stopwatch_now() - t0);
        best = rate > best ? rate : best;
    }
    free(sink);
    *bytes_per_s = best;
    return status;
}
