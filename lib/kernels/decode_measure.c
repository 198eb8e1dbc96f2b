#include "decode_measure.h"

#include <stdlib.h>

#include "machine.h"
#include "status.h"
#include "stopwatch.h"

#define MAX_ROUNDS 64

/* one sample: a token through every layer's cache -> seconds per layer */
static int decode_layers(const attn_decode_shape *s, int shared, const float *arena,
                         size_t layers, const float *q, float *out, attn_work *work,
                         double *sec)
{
    size_t cache = s->T * s->Hkv * s->dh; /* floats of K (or of K = V) */
    size_t per_layer = shared ? cache : 2 * cache;
    double t0 = stopwatch_now();
    int status = INVENT_OK;
    for (size_t l = 0; l < layers && status == INVENT_OK; l++) {
        const float *K = arena + l * per_layer, *V = shared ? K : K + cache;
        status = attn_decode(s, q, K, V, out, work, NULL);
    }
    *sec = (stopwatch_now() - t0) / (double)layers;
    return status;
}

int decode_measure(const attn_decode_shape *s, int shared, const float *arena, size_t n,
                   int rounds, decode_point *point)
{
    if (attn_decode_check(s) != INVENT_OK || rounds < 1 || rounds > MAX_ROUNDS)
        return INVENT_ERANGE;
    size_t per_layer = (shared ? 1 : 2) * s->T * s->Hkv * s->dh, layers = n / per_layer;
    if (layers == 0)
        return INVENT_ERANGE;
    float *q = malloc(s->H * s->dh * sizeof *q), *out = malloc(s->H * s->dh * sizeof *out);
    attn_work work = {NULL, 0};
    size_t work_bytes;
    int status = q && out ? attn_decode_work(s, &work_bytes) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = attn_work_new(work_bytes, &work);
    for (size_t i = 0; q && i < s->H * s->dh; i++)
        q[i] = (float)((i * 37 % 101) / 50.0 - 1.0);
    double t[MAX_ROUNDS], bw[MAX_ROUNDS], share[MAX_ROUNDS], warm;
    double bytes = (double)attn_decode_bytes(s, shared);
    if (status == INVENT_OK)
        status = decode_layers(s, shared, arena, layers, q, out, &work, &warm);
    for (int r = 0; r < rounds && status == INVENT_OK; r++) {
        status = machine_read_bandwidth(arena, n, 1, &bw[r]);
        if (status == INVENT_OK)
            status = decode_layers(s, shared, arena, layers, q, out, &work, &t[r]);
        if (status == INVENT_OK)
            share[r] = bytes / t[r] / bw[r];
    }
    free(q), free(out);
    attn_work_free(&work);
    if (status != INVENT_OK)
        return status;
    double ms = 1e3 * stopwatch_median(t, (size_t)rounds);
    *point = (decode_point){layers, ms, bytes, bytes / ms / 1e6,
                            stopwatch_median(bw, (size_t)rounds) / 1e9,
                            stopwatch_median(share, (size_t)rounds)};
    return INVENT_OK;
}
