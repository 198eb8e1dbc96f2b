/* The kernels' drivers take their buffers from the caller's workspace
 * (attn_work, attn_kernels.h) with a cursor: each buffer starts at the next
 * 64-byte boundary. A cursor without memory only counts, so one layout
 * function gives both a kernel's size function and its buffers. */
#ifndef INVENT_WORK_CURSOR_H
#define INVENT_WORK_CURSOR_H

#include <stddef.h>

#include "attn_kernels.h"

typedef struct {
    char *base;   /* NULL: count only */
    size_t used;  /* bytes taken so far, alignment included */
    size_t bytes; /* bytes there are */
} work_cursor;

/* w -> a cursor over its memory; NULL, or no memory, gives a cursor that
 * only counts (every buffer then missing: the kernel refuses the call) */
static inline work_cursor work_open(const attn_work *w)
{
    return w && w->base ? (work_cursor){w->base, 0, w->bytes} : (work_cursor){NULL, 0, 0};
}

/* bytes -> the next buffer of that size, or NULL when the cursor only
 * counts or the workspace is too small (the bytes are counted either way) */
static inline void *work_take(work_cursor *c, size_t bytes)
{
    size_t at = (c->used + 63) / 64 * 64;
    c->used = at + bytes;
    return c->base && c->used <= c->bytes ? c->base + at : NULL;
}

#endif
