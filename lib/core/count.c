#include "count.h"
#include "status.h"

int count_mul(uint64_t a, uint64_t b, uint64_t *out)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return INVENT_EOVERFLOW;
    *out = r;
    return INVENT_OK;
}

int count_add(uint64_t a, uint64_t b, uint64_t *out)
{
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return INVENT_EOVERFLOW;
    *out = r;
    return INVENT_OK;
}

int count_product(const uint64_t *factors, int n, uint64_t *out)
{
    uint64_t r = 1;
    for (int i = 0; i < n; i++)
        if (count_mul(r, factors[i], &r) != INVENT_OK)
            return INVENT_EOVERFLOW;
    *out = r;
    return INVENT_OK;
}
