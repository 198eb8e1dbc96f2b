/* A square grid of points (x1, x3) on [-a, a]^2, for looking at a score of
 * two scalars as a landscape: its values, and how many separate regions of
 * large output it has (chapter 4). */
#ifndef INVENT_GRID_H
#define INVENT_GRID_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

/* a, n >= 2 points per axis, k < n -> the k-th coordinate, -a + 2a k / (n - 1) */
double grid_coord(double a, size_t n, size_t k);

/* A function of two scalars, e.g. a score s(x1, x3). */
typedef double (*grid_fn)(double x1, double x3, const void *params);

/* f, a -> G: (n, n), G[r][c] = f(x1 = grid_coord(c), x3 = grid_coord(r));
 * INVENT_ESHAPE unless G is square with n >= 2 */
int grid_fill(gsl_matrix *G, double a, grid_fn f, const void *params);

/* G: (rows, cols), threshold -> *regions: how many separate regions (cells joined
 * through their four neighbours) have G >= threshold */
int grid_regions(const gsl_matrix *G, double threshold, size_t *regions);

#endif
