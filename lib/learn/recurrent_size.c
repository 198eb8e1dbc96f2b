#include "recurrent_size.h"

#include <math.h>

size_t recurrent_gpt_params(const gpt_shape *s)
{
    size_t V = s->vocab, d = s->dim;
    return gpt_param_count(s) - (V * d + s->context * d + V * d + V);
}

double recurrent_gpt_flops(const gpt_shape *s)
{
    double attention = 2.0 * (double)(s->layers * s->dim) * (double)(s->context + 1);
    return 2.0 * (double)recurrent_gpt_params(s) + attention;
}

size_t recurrent_cell_params(recurrent_cell cell, size_t e, size_t m)
{
    return cell == RECURRENT_GRU ? 3 * m * e + 3 * m * m + 6 * m : m * e + m * m + m;
}

size_t recurrent_state_for(recurrent_cell cell, size_t e, size_t target)
{
    size_t m = 1;
    while (recurrent_cell_params(cell, e, m + 1) <= target)
        m++;
    size_t below = recurrent_cell_params(cell, e, m), above = recurrent_cell_params(cell, e, m + 1);
    return target > below && above - target < target - below ? m + 1 : m;
}

recurrent_match recurrent_match_gpt(recurrent_cell cell, size_t e, const gpt_shape *s)
{
    double half = 0.5 * recurrent_gpt_flops(s); /* 2 N(m) = C_gpt */
    return (recurrent_match){recurrent_state_for(cell, e, recurrent_gpt_params(s)),
                             recurrent_state_for(cell, e, (size_t)llround(half))};
}
