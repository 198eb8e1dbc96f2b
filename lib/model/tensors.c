#include "tensors.h"

size_t tensors_numbers(const tensor_ref *t, size_t count)
{
    size_t n = 0;
    for (size_t k = 0; k < count; k++)
        n += t[k].size;
    return n;
}
