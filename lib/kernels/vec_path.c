#include "vec_path.h"

#include "status.h"

const vec_path *vec_path_current(int *status)
{
    simd_level level;
    *status = simd_current(&level);
    if (*status != INVENT_OK)
        return NULL;
    if (level == SIMD_AVX512 && vec_path_avx512.panel)
        return &vec_path_avx512;
    if (level >= SIMD_AVX2 && vec_path_avx2.panel)
        return &vec_path_avx2;
    return &vec_path_portable;
}
