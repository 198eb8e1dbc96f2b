#include "mask.h"

#include <math.h>

#include "status.h"

int mask_causal(gsl_matrix *S)
{
    if (S->size1 != S->size2)
        return INVENT_ESHAPE;
    for (size_t t = 0; t < S->size1; t++)
        for (size_t i = t + 1; i < S->size2; i++)
            gsl_matrix_set(S, t, i, -INFINITY);
    return INVENT_OK;
}

int mask_window(gsl_matrix *S, size_t w)
{
    if (S->size1 != S->size2)
        return INVENT_ESHAPE;
    if (w == 0)
        return INVENT_ERANGE;
    for (size_t t = 0; t < S->size1; t++)
        for (size_t i = 0; i < S->size2; i++)
            if (i > t || t - i >= w)
                gsl_matrix_set(S, t, i, -INFINITY);
    return INVENT_OK;
}
