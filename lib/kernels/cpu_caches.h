/* The sizes of this machine's data caches, which set the kernels' tile
 * sizes and how large a buffer must be to measure memory, not a cache. */
#ifndef INVENT_CPU_CACHES_H
#define INVENT_CPU_CACHES_H

#include <stddef.h>

/* level 1, 2 or 3 -> bytes of that data cache as the C library reports it
 * (L1 and L2 per core, L3 shared), or a common size when it reports none:
 * 32 KiB, 1 MiB, 32 MiB; 0 for any other level */
size_t cpu_cache_bytes(int level);

#endif
