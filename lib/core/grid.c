#include "grid.h"

#include <stdlib.h>

#include "status.h"

double grid_coord(double a, size_t n, size_t k)
{
    return -a + 2.0 * a * (double)k / (double)(n - 1);
}

int grid_fill(gsl_matrix *G, double a, grid_fn f, const void *params)
{
    size_t n = G->size1;
    if (G->size2 != n || n < 2)
        return INVENT_ESHAPE;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++)
            gsl_matrix_set(G, r, c, f(grid_coord(a, n, c), grid_coord(a, n, r), params));
    return INVENT_OK;
}

/* Marks every cell of the region around `start` in seen, walking with a stack. */
static void flood(const gsl_matrix *G, double threshold, size_t start, unsigned char *seen,
                  size_t *stack)
{
    size_t rows = G->size1, cols = G->size2, top = 0;
    seen[start] = 1;
    stack[top++] = start;
    while (top > 0) {
        size_t cell = stack[--top], r = cell / cols, c = cell % cols;
        const size_t next[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (int k = 0; k < 4; k++) {
            size_t nr = next[k][0], nc = next[k][1], id = nr * cols + nc;
            if (nr >= rows || nc >= cols || seen[id] || !(gsl_matrix_get(G, nr, nc) >= threshold))
                continue;
            seen[id] = 1;
            stack[top++] = id;
        }
    }
}

int grid_regions(const gsl_matrix *G, double threshold, size_t *regions)
{
    size_t cells = G->size1 * G->size2;
    unsigned char *seen = calloc(cells, 1);
    size_t *stack = malloc(cells * sizeof *stack);
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return INVENT_ENOMEM;
    }
    size_t count = 0;
    for (size_t cell = 0; cell < cells; cell++)
        if (!seen[cell] && gsl_matrix_get(G, cell / G->size2, cell % G->size2) >= threshold) {
            flood(G, threshold, cell, seen, stack);
            count++;
        }
    free(seen);
    free(stack);
    *regions = count;
    return INVENT_OK;
}
