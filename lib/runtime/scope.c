#include "scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "report.h"

typedef struct {
    void *obj;
    scope_free_fn free_fn;
} entry;

struct scope {
    entry *items;
    size_t n, cap;
};

/* The program name for the one-line message, set by scope_name_program. */
static const char *program = "invent";

void scope_name_program(const char *name) { program = name; }

_Noreturn void scope_out_of_memory(const char *what)
{
    fflush(stdout);
    report_error(program, "out of memory (%s)", what);
    fflush(stderr);
    _exit(3);
}

scope *scope_open(void)
{
    scope *s = calloc(1, sizeof *s);
    if (!s)
        scope_out_of_memory("opening a scope");
    return s;
}

void scope_close(scope *s)
{
    if (!s)
        return;
    for (size_t i = s->n; i-- > 0;)
        s->items[i].free_fn(s->items[i].obj);
    free(s->items);
    free(s);
}

void *scope_keep_object(scope *s, void *obj, scope_free_fn free_fn)
{
    if (!obj)
        scope_out_of_memory("creating an object");
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        entry *grown = realloc(s->items, cap * sizeof *grown);
        if (!grown) {
            free_fn(obj);
            scope_out_of_memory("growing a scope");
        }
        s->items = grown;
        s->cap = cap;
    }
    s->items[s->n++] = (entry){obj, free_fn};
    return obj;
}

gsl_matrix *scope_keep_matrix(scope *s, gsl_matrix *m)
{
    return SCOPE_KEEP(s, m, gsl_matrix_free);
}

gsl_vector *scope_keep_vector(scope *s, gsl_vector *v)
{
    return SCOPE_KEEP(s, v, gsl_vector_free);
}

gsl_rng *scope_keep_rng(scope *s, gsl_rng *r) { return SCOPE_KEEP(s, r, gsl_rng_free); }

gsl_matrix *scope_matrix(scope *s, size_t rows, size_t cols)
{
    return scope_keep_matrix(s, gsl_matrix_calloc(rows, cols));
}

gsl_vector *scope_vector(scope *s, size_t n) { return scope_keep_vector(s, gsl_vector_calloc(n)); }
