/* Unit tests: the square grid and its regions of large output. */
#include <criterion/criterion.h>

#include "grid.h"
#include "status.h"

static double product(double x1, double x3, const void *p)
{
    (void)p;
    return x1 * x3;
}

Test(grid, coordinates_and_fill)
{
    cr_assert_float_eq(grid_coord(3.0, 7, 0), -3.0, 1e-15);
    cr_assert_float_eq(grid_coord(3.0, 7, 6), 3.0, 1e-15);
    cr_assert_float_eq(grid_coord(3.0, 7, 4), 1.0, 1e-15);
    gsl_matrix *G = gsl_matrix_alloc(7, 7);
    cr_assert_eq(grid_fill(G, 3.0, product, NULL), INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(G, 1, 5), 2.0 * -2.0, 1e-15, "G[r][c] = f(x1 = c, x3 = r)");
    gsl_matrix_free(G);
    gsl_matrix *R = gsl_matrix_alloc(3, 4);
    cr_assert_eq(grid_fill(R, 1.0, product, NULL), INVENT_ESHAPE);
    gsl_matrix_free(R);
}

Test(grid, counts_separate_regions)
{
    /* two blobs touching only at a corner are two regions; a ring is one */
    double a[] = {1, 1, 0, 0,
                  1, 1, 0, 0,
                  0, 0, 1, 1,
                  0, 0, 1, 1};
    double ring[] = {1, 1, 1,
                     1, 0, 1,
                     1, 1, 1};
    gsl_matrix_view A = gsl_matrix_view_array(a, 4, 4), Ring = gsl_matrix_view_array(ring, 3, 3);
    size_t n = 0;
    cr_assert_eq(grid_regions(&A.matrix, 0.5, &n), INVENT_OK);
    cr_assert_eq(n, 2);
    cr_assert_eq(grid_regions(&Ring.matrix, 0.5, &n), INVENT_OK);
    cr_assert_eq(n, 1);
    cr_assert_eq(grid_regions(&Ring.matrix, 2.0, &n), INVENT_OK);
    cr_assert_eq(n, 0);
}
