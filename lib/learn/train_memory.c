#include "train_memory.h"

#include <stdint.h>

#include "count.h"
#include "status.h"

size_t train_memory_bytes(const gpt_shape *shape, size_t B, size_t T, size_t copies,
                          size_t traces)
{
    const gpt_shape *s = shape;
    uint64_t layer, token, trace, weights, total, tokens;
    int ok = count_mul(B, T, &tokens) == INVENT_OK &&
             count_mul(3 * (uint64_t)s->heads, T, &layer) == INVENT_OK &&
             (layer += 16 * (uint64_t)s->dim + 3 * (uint64_t)s->hidden, 1) &&
             count_mul(layer, s->layers, &token) == INVENT_OK &&
             (token += 3 * (uint64_t)s->vocab + 6 * (uint64_t)s->dim, 1) &&
             count_mul(token, tokens, &trace) == INVENT_OK &&
             count_mul(trace, traces, &trace) == INVENT_OK &&
             count_mul(gpt_param_count(s), copies, &weights) == INVENT_OK &&
             count_mul(trace + weights, sizeof(double), &total) == INVENT_OK;
    return ok && total <= SIZE_MAX ? (size_t)total : SIZE_MAX;
}

int train_memory_refuse(const invent_opts *o, const gpt_shape *shape, size_t B, size_t T,
                        size_t copies, size_t traces, const char *who)
{
    size_t bytes = train_memory_bytes(shape, B, T, copies, traces);
    if (bytes <= TRAIN_MEMORY_BUDGET)
        return CLI_RUN;
    return cli_fail(o, "--layers %zu --dim %zu --heads %zu --context %zu --batch %zu would take "
                       "about %.1f GiB, more than %s's %zu GiB: make some of them smaller",
                    shape->layers, shape->dim, shape->heads, T, B, (double)bytes / (1u << 30),
                    who, TRAIN_MEMORY_BUDGET >> 30);
}
