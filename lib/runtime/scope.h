/* A scope owns what a chapter section allocates, so that the section reads
 * as mathematics and checks, not as allocation and freeing. Matrices and
 * vectors are taken from the scope (or handed to it with their free
 * function); scope_close frees everything in the reverse order of arrival.
 *
 * For chapter programs only: running out of memory here is not returned to
 * the caller, it ends the program with one line on stderr and exit status 3
 * (the chapter's "something went wrong" status). The library proper keeps
 * returning INVENT_ENOMEM. */
#ifndef INVENT_SCOPE_H
#define INVENT_SCOPE_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

typedef struct scope scope;

/* The free function of an object handed to a scope. */
typedef void (*scope_free_fn)(void *);

/* -> an empty scope; exits 3 when out of memory */
scope *scope_open(void);

/* Frees every object of s, the newest first, then s itself. NULL is a no-op. */
void scope_close(scope *s);

/* -> a zeroed (rows, cols) matrix owned by s */
gsl_matrix *scope_matrix(scope *s, size_t rows, size_t cols);

/* -> a zeroed (n) vector owned by s */
gsl_vector *scope_vector(scope *s, size_t n);

/* m (rows, cols) -> m, now owned by s; a NULL m means an allocation failed */
gsl_matrix *scope_keep_matrix(scope *s, gsl_matrix *m);

/* v (n) -> v, now owned by s; NULL as for scope_keep_matrix */
gsl_vector *scope_keep_vector(scope *s, gsl_vector *v);

/* r -> r, now owned by s; NULL as for scope_keep_matrix */
gsl_rng *scope_keep_rng(scope *s, gsl_rng *r);

/* obj -> obj, freed by free_fn(obj) when s closes; NULL as above. Use
 * SCOPE_KEEP, which takes any library free function (kvcache_free, ...). */
void *scope_keep_object(scope *s, void *obj, scope_free_fn free_fn);

/* Any object with its own free function, e.g.
 *   mha_weights *w = SCOPE_KEEP(sc, mha_new(d, H, r, r, rng), mha_free);
 * The cast through void (*)(void) is the portable way to store a function
 * that takes a typed pointer where one that takes void * is expected. */
#define SCOPE_KEEP(s, obj, free_fn) \
    (__typeof__(obj))scope_keep_object((s), (obj), (scope_free_fn)(void (*)(void))(free_fn))

/* Names the program in the out-of-memory message ("ch08"); chapter_start
 * calls it. */
void scope_name_program(const char *name);

/* Ends a chapter program that ran out of memory: one line naming what was
 * being allocated, exit status 3. Buffered output is flushed first; the
 * process then ends with _exit, so no thread pool is waited for (an
 * OpenBLAS pool that was mid-shutdown could otherwise hang the exit). */
_Noreturn void scope_out_of_memory(const char *what);

#endif
