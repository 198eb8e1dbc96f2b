#include "weight_family.h"

#include "count.h"
#include "status.h"

int family_score_params(uint64_t d, uint64_t h, uint64_t *out)
{
    uint64_t twice_d_plus_1;
    if (d == 0 || h == 0)
        return INVENT_ERANGE;
    if (count_mul(2, d, &twice_d_plus_1) || count_add(twice_d_plus_1, 1, &twice_d_plus_1))
        return INVENT_EOVERFLOW;
    return count_mul(h, twice_d_plus_1, out);
}

int family_functions(weight_family f, uint64_t d, uint64_t H, uint64_t *out)
{
    if (d == 0 || H == 0)
        return INVENT_ERANGE;
    switch (f) {
    case FAMILY_FULL:
        return count_mul(d, d, out);
    case FAMILY_DIAGONAL:
        *out = d;
        return INVENT_OK;
    case FAMILY_MIXTURE:
        *out = H;
        return INVENT_OK;
    }
    return INVENT_ERANGE;
}

int family_params(weight_family f, uint64_t d, uint64_t H, uint64_t h, uint64_t *out)
{
    uint64_t functions, per_function, total, matrices = 0;
    const uint64_t learned[] = {H, d, d};
    int status = family_functions(f, d, H, &functions);
    if (status == INVENT_OK)
        status = family_score_params(d, h, &per_function);
    if (status == INVENT_OK)
        status = count_mul(functions, per_function, &total);
    if (status == INVENT_OK && f == FAMILY_MIXTURE)
        status = count_product(learned, 3, &matrices);
    if (status == INVENT_OK)
        status = count_add(total, matrices, &total);
    if (status == INVENT_OK)
        *out = total;
    return status;
}
