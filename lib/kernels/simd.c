#include "simd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_checks.h"
#include "status.h"

simd_level simd_best(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return SIMD_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return SIMD_AVX2;
#endif
    return SIMD_PORTABLE;
}

const char *simd_name(simd_level level)
{
    return level == SIMD_AVX512 ? "avx512" : level == SIMD_AVX2 ? "avx2" : "portable";
}

/* name -> its level, or -1 when it names none */
static int level_named(const char *name)
{
    for (int level = SIMD_PORTABLE; level <= SIMD_AVX512; level++)
        if (strcmp(name, simd_name((simd_level)level)) == 0)
            return level;
    return -1;
}

int simd_env_check(char *msg, size_t size)
{
    const char *env = getenv("INVENT_SIMD");
    if (!env)
        return INVENT_OK;
    int level = level_named(env);
    if (level < 0) {
        snprintf(msg, size, "INVENT_SIMD='%s' names no vector path (use portable, avx2 or "
                            "avx512)", env);
        return INVENT_ERANGE;
    }
    if (level > (int)simd_best()) {
        snprintf(msg, size, "INVENT_SIMD=%s: this CPU cannot run it (best: %s)", env,
                 simd_name(simd_best()));
        return INVENT_ERANGE;
    }
    return INVENT_OK;
}

int simd_current(simd_level *level)
{
    char msg[160];
    if (simd_env_check(msg, sizeof msg) != INVENT_OK)
        return INVENT_ERANGE;
    const char *env = getenv("INVENT_SIMD");
    *level = env ? (simd_level)level_named(env) : simd_best();
    return INVENT_OK;
}

/* every program linking this file refuses a bad INVENT_SIMD when it parses its flags,
 * before any work (a chapter would otherwise find it in its first kernel
 * call, after its outputs were made) */
__attribute__((constructor)) static void register_env_check(void)
{
    env_checks_add(simd_env_check);
}
