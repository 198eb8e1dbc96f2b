/* The graders' inputs and comparisons (grade.h). The process-level guards,
 * the crash messages and the scoreboard's result file are in grade-guard.c. */
#include "grade.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mat.h"
#include "rng.h"
#include "status.h"

/* matrices up to this many rows and columns are shown whole in a message */
enum { SHOW_MAX = 6 };

gsl_rng *grade_rng(unsigned long seed)
{
    gsl_rng *r = rng_new(seed);
    cr_assert(r != NULL, "grader: out of memory");
    return r;
}

gsl_matrix *grade_gaussian(size_t rows, size_t cols, double sigma, gsl_rng *r)
{
    gsl_matrix *m = mat_gaussian(rows, cols, sigma, r);
    cr_assert(m != NULL, "grader: out of memory");
    return m;
}

gsl_matrix *grade_nan(size_t rows, size_t cols)
{
    gsl_matrix *m = gsl_matrix_alloc(rows, cols);
    cr_assert(m != NULL, "grader: out of memory");
    gsl_matrix_set_all(m, NAN);
    return m;
}

/* n slots -> a block of n canaries; fails the test when out of memory */
static gsl_block *canary_block(size_t n)
{
    gsl_block *b = gsl_block_alloc(n);
    cr_assert(b != NULL, "grader: out of memory");
    for (size_t i = 0; i < n; i++)
        b->data[i] = GRADE_CANARY;
    return b;
}

/* Every block under a view made here, kept for the whole test (each test
 * is a process of its own) so that its canaries can be checked after every
 * comparison and at the test's end: inputs too, whose padding the student's
 * code only sees through a const view. */
enum { GUARDED_MAX = 4096 };
typedef struct {
    const gsl_block *block;
    size_t step, used, end; /* the view: `used` slots of every `step`, up to slot `end` */
} guarded;
static guarded views[GUARDED_MAX];
static size_t n_views;

/* block, the view's geometry -> 1 when kept in views (the view then must
 * not own it: freeing the view leaves the block for the checks) */
static int guard(const gsl_block *b, size_t step, size_t used, size_t end)
{
    if (n_views == GUARDED_MAX)
        return 0;
    views[n_views++] = (guarded){b, step, used, end};
    return 1;
}

gsl_vector *grade_strided(const gsl_vector *v)
{
    size_t n = v->size;
    gsl_vector *s = malloc(sizeof *s);
    cr_assert(s != NULL, "grader: out of memory");
    gsl_block *b = canary_block((n + 1) * GRADE_STRIDE);
    int kept = guard(b, GRADE_STRIDE, 1, n * GRADE_STRIDE);
    *s = (gsl_vector){
        .size = n, .stride = GRADE_STRIDE, .data = b->data, .block = b, .owner = !kept};
    gsl_vector_memcpy(s, v);
    return s;
}

gsl_matrix *grade_padded(const gsl_matrix *m)
{
    size_t rows = m->size1, cols = m->size2, tda = cols + GRADE_PAD;
    gsl_matrix *p = malloc(sizeof *p);
    cr_assert(p != NULL, "grader: out of memory");
    gsl_block *b = canary_block(rows * tda + GRADE_PAD);
    int kept = guard(b, tda, cols, rows * tda);
    *p = (gsl_matrix){
        .size1 = rows, .size2 = cols, .tda = tda, .data = b->data, .block = b, .owner = !kept};
    gsl_matrix_memcpy(p, m);
    return p;
}

gsl_vector *grade_nan_strided(size_t n)
{
    gsl_vector *v = gsl_vector_alloc(n);
    cr_assert(v != NULL, "grader: out of memory");
    gsl_vector_set_all(v, NAN);
    grade_restride(&v);
    return v;
}

gsl_matrix *grade_nan_padded(size_t rows, size_t cols)
{
    gsl_matrix *m = grade_nan(rows, cols);
    grade_repad(&m);
    return m;
}

void grade_restride(gsl_vector **v)
{
    gsl_vector *copy = grade_strided(*v);
    gsl_vector_free(*v);
    *v = copy;
}

void grade_repad(gsl_matrix **m)
{
    gsl_matrix *copy = grade_padded(*m);
    gsl_matrix_free(*m);
    *m = copy;
}

/* block b under a view that uses the first `used` slots of every `step`,
 * up to slot view_end -> the first slot outside the view whose canary
 * changed, or b->size when none did */
static size_t first_dead_canary(const gsl_block *b, size_t step, size_t used, size_t view_end)
{
    for (size_t k = 0; k < b->size; k++) {
        int in_view = k < view_end && k % step < used;
        if (!in_view && b->data[k] != GRADE_CANARY)
            return k;
    }
    return b->size;
}

int grade_canaries_ok(char *msg, size_t size, const char *what, const gsl_vector *v)
{
    size_t k = first_dead_canary(v->block, v->stride, 1, v->size * v->stride);
    if (k == v->block->size)
        return 1;
    snprintf(msg, size,
             "%s: your code wrote outside the vector: slot %zu of its memory, %s, now holds "
             "%g.\nHint: the vector is a view with stride %zu, so entry i is at data[i * "
             "stride]; use gsl_vector_get/gsl_vector_set, and stop at i < size",
             what, k, k >= v->size * v->stride ? "past its last entry" : "between two entries",
             v->block->data[k], v->stride);
    return 0;
}

int grade_padding_ok(char *msg, size_t size, const char *what, const gsl_matrix *m)
{
    size_t k = first_dead_canary(m->block, m->tda, m->size2, m->size1 * m->tda);
    if (k == m->block->size)
        return 1;
    snprintf(msg, size,
             "%s: your code wrote outside the matrix: slot %zu of its memory, %s, now holds "
             "%g.\nHint: the matrix is a view whose rows are tda = %zu apart, more than its "
             "width %zu, so entry (i, j) is at data[i * tda + j]; use gsl_matrix_get/set or "
             "row views, and stop at the last row and column",
             what, k, k >= m->size1 * m->tda ? "past its last row" : "beyond the end of a row",
             m->block->data[k], m->tda, m->size2);
    return 0;
}

int grade_views_ok(char *msg, size_t size, const char *what)
{
    for (size_t i = 0; i < n_views; i++) {
        const guarded *g = &views[i];
        size_t k = first_dead_canary(g->block, g->step, g->used, g->end);
        if (k == g->block->size)
            continue;
        snprintf(msg, size,
                 "%s: your code wrote into the padding of a view it was given (an input, or an "
                 "output outside its entries): slot %zu of the memory under view %zu of this "
                 "test, %s, now holds %g.\nHint: only the entries of a view are yours; what "
                 "lies between its rows or past them (in a multi-head view, the next head's "
                 "columns) belongs to someone else; write only into outputs, within size1 x "
                 "size2",
                 what, k, i + 1, k >= g->end ? "past its last entry" : "between two rows or entries",
                 g->block->data[k]);
        return 0;
    }
    return 1;
}

/* appends m to buf as rows of numbers */
static void show(char *buf, size_t size, const char *label, const gsl_matrix *m)
{
    size_t used = strlen(buf);
    used += (size_t)snprintf(buf + used, size - used, "  %s:\n", label);
    for (size_t i = 0; i < m->size1 && used < size; i++) {
        used += (size_t)snprintf(buf + used, size - used, "   ");
        for (size_t j = 0; j < m->size2 && used < size; j++)
            used += (size_t)snprintf(buf + used, size - used, " %11.5g", gsl_matrix_get(m, i, j));
        if (used < size)
            used += (size_t)snprintf(buf + used, size - used, "\n");
    }
}

/* -> the largest |x| in m, NaN and infinities skipped */
static double largest(const gsl_matrix *m)
{
    double top = 0.0;
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            if (isfinite(gsl_matrix_get(m, i, j)))
                top = fmax(top, fabs(gsl_matrix_get(m, i, j)));
    return top;
}

/* -> |got - want|; equal infinities agree, and NaN agrees only with NaN */
static double gap(double got, double want)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want) ? 0.0 : INFINITY;
    if (got == want)
        return 0.0;
    return fabs(got - want);
}

/* got, want of one shape -> the largest gap, and where (*wi, *wj) */
static double worst_gap(const gsl_matrix *got, const gsl_matrix *want, size_t *wi, size_t *wj)
{
    double worst = -1.0;
    for (size_t i = 0; i < want->size1; i++)
        for (size_t j = 0; j < want->size2; j++) {
            double g = gap(gsl_matrix_get(got, i, j), gsl_matrix_get(want, i, j));
            if (g > worst) {
                worst = g;
                *wi = i;
                *wj = j;
            }
        }
    return worst;
}

/* got, want: (m, n) -> 1 when they agree within tol (relative to want's size) */
static int agrees(const gsl_matrix *got, const gsl_matrix *want, double tol)
{
    size_t i = 0, j = 0;
    if (got->size1 != want->size1 || got->size2 != want->size2)
        return 0;
    return worst_gap(got, want, &i, &j) <= tol * fmax(1.0, largest(want));
}

/* -> 1 when m holds a NaN */
static int has_nan(const gsl_matrix *m)
{
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            if (isnan(gsl_matrix_get(m, i, j)))
                return 1;
    return 0;
}

/* -> the mistake among the n known ones whose result got matches, or NULL;
 * a result with a NaN in it is no evidence (an output never written is NaN) */
static const char *recognise(const gsl_matrix *got, double tol, const grade_mistake *known,
                             size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!has_nan(known[k].result) && agrees(got, known[k].result, tol))
            return known[k].mistake;
    return NULL;
}

/* got, want -> 1 when they agree (as grade_matrix_ok says) */
static int matrix_agrees(char *msg, size_t size, const char *what, const gsl_matrix *got,
                         const gsl_matrix *want, double tol, const char *hint,
                         const grade_mistake *known, size_t n);

int grade_matrix_ok(char *msg, size_t size, const char *what, const gsl_matrix *got,
                    const gsl_matrix *want, double tol, const char *hint,
                    const grade_mistake *known, size_t n)
{
    return matrix_agrees(msg, size, what, got, want, tol, hint, known, n) &&
           grade_views_ok(msg, size, what);
}

static int matrix_agrees(char *msg, size_t size, const char *what, const gsl_matrix *got,
                         const gsl_matrix *want, double tol, const char *hint,
                         const grade_mistake *known, size_t n)
{
    if (got->size1 != want->size1 || got->size2 != want->size2) {
        snprintf(msg, size, "%s: expected shape (%zu, %zu), got (%zu, %zu)\nHint: %s", what,
                 want->size1, want->size2, got->size1, got->size2, hint);
        return 0;
    }
    size_t wi = 0, wj = 0;
    double worst = worst_gap(got, want, &wi, &wj), bound = tol * fmax(1.0, largest(want));
    if (worst <= bound)
        return 1;
    char shown[GRADE_MSG / 2] = "";
    if (want->size1 <= SHOW_MAX && want->size2 <= SHOW_MAX) {
        show(shown, sizeof shown, "expected", want);
        show(shown, sizeof shown, "got", got);
    }
    const char *mistake = recognise(got, tol, known, n);
    snprintf(msg, size,
             "%s: wrong value at [%zu][%zu]: expected %.10g, got %.10g "
             "(off by %.3g, tolerance %.3g)\n%sHint: %s%s",
             what, wi, wj, gsl_matrix_get(want, wi, wj), gsl_matrix_get(got, wi, wj), worst, bound,
             shown, mistake ? "your result is exactly what this mistake gives: " : "",
             mistake ? mistake : hint);
    return 0;
}

int grade_vector_ok(char *msg, size_t size, const char *what, const gsl_vector *got,
                    const gsl_vector *want, double tol, const char *hint,
                    const grade_mistake *known, size_t n)
{
    if (got->size != want->size) {
        snprintf(msg, size, "%s: expected length %zu, got %zu\nHint: %s", what, want->size,
                 got->size, hint);
        return 0;
    }
    gsl_matrix *g = gsl_matrix_alloc(1, got->size), *w = gsl_matrix_alloc(1, want->size);
    cr_assert(g && w, "grader: out of memory");
    gsl_vector_view gr = gsl_matrix_row(g, 0), wr = gsl_matrix_row(w, 0);
    gsl_vector_memcpy(&gr.vector, got);
    gsl_vector_memcpy(&wr.vector, want);
    int ok = grade_matrix_ok(msg, size, what, g, w, tol, hint, known, n);
    gsl_matrix_free(g), gsl_matrix_free(w);
    return ok;
}

int grade_status_ok(char *msg, size_t size, const char *what, int got, int want, const char *hint)
{
    if (got == want)
        return 1;
    snprintf(msg, size, "%s: expected status %d (%s), got %d (%s)\nHint: %s", what, want,
             invent_strerror(want), got, invent_strerror(got), hint);
    return 0;
}

size_t grade_heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
