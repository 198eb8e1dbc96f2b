#include "cpu_caches.h"

#include <unistd.h>

size_t cpu_cache_bytes(int level)
{
    static const size_t fallback[3] = {32u << 10, 1u << 20, 32u << 20};
    if (level < 1 || level > 3)
        return 0;
    long reported = -1;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && \
    defined(_SC_LEVEL3_CACHE_SIZE)
    const int name[3] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE};
    reported = sysconf(name[level - 1]);
#endif
    return reported > 0 ? (size_t)reported : fallback[level - 1];
}
