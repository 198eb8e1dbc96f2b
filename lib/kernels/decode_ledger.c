#include "decode_ledger.h"

#include <math.h>

#include "status.h"

attn_decode_shape decode_ledger_shape(size_t T, int cache)
{
    const size_t Hkv[LEDGER_CACHES] = {LEDGER_FUNCS, LEDGER_FUNCS, 1};
    const size_t dh[LEDGER_CACHES] = {LEDGER_D, LEDGER_R, LEDGER_D};
    return (attn_decode_shape){T, LEDGER_FUNCS, Hkv[cache], dh[cache],
                               (float)(1.0 / sqrt((double)dh[cache]))};
}

int decode_ledger_shared(int cache)
{
    return cache == 2;
}

size_t decode_ledger_floats(size_t T)
{
    return 2 * T * LEDGER_FUNCS * LEDGER_D;
}

int decode_ledger_measure(size_t T, const float *arena, size_t n, int rounds,
                          attn_decode_shape s[LEDGER_CACHES], decode_point pt[LEDGER_CACHES])
{
    int status = INVENT_OK;
    for (int i = 0; i < LEDGER_CACHES && status == INVENT_OK; i++) {
        s[i] = decode_ledger_shape(T, i);
        status = decode_measure(&s[i], decode_ledger_shared(i), arena, n, rounds, &pt[i]);
    }
    return status;
}

double decode_ledger_flop(const attn_decode_shape *s)
{
    return 4.0 * (double)s->T * (double)(s->H * s->dh);
}

double decode_ledger_bound_ms(const attn_decode_shape *s, const decode_point *p, double peak)
{
    return 1e3 * fmax(p->bytes / (p->bandwidth_gbps * 1e9), decode_ledger_flop(s) / (peak * 1e9));
}

const char *decode_ledger_regime(double intensity, double balance)
{
    return intensity >= balance ? "above it, so the peak multiply-add rate, not memory, bounds it"
                                : "below it, so memory bounds it";
}
