/* Unit tests: the sinusoidal position encoding. */
#include <criterion/criterion.h>
#include <math.h>

#include "mat.h"
#include "position.h"
#include "status.h"

Test(position, first_rows_by_hand)
{
    gsl_matrix *E = gsl_matrix_alloc(3, 4);
    position_sinusoidal(E);
    /* d = 4: frequencies 1 and 10000^(-1/2) = 0.01 */
    cr_assert_eq(gsl_matrix_get(E, 0, 0), 0.0);
    cr_assert_eq(gsl_matrix_get(E, 0, 1), 1.0);
    cr_assert_float_eq(gsl_matrix_get(E, 2, 0), sin(2.0), 1e-15);
    cr_assert_float_eq(gsl_matrix_get(E, 2, 1), cos(2.0), 1e-15);
    cr_assert_float_eq(gsl_matrix_get(E, 2, 2), sin(0.02), 1e-15);
    cr_assert_float_eq(gsl_matrix_get(E, 2, 3), cos(0.02), 1e-15);
    gsl_matrix_free(E);
}

Test(position, dot_products_depend_on_the_offset_alone)
{
    gsl_matrix *E = gsl_matrix_alloc(40, 16);
    position_sinusoidal(E);
    gsl_matrix *G = mat_product(E, CblasNoTrans, E, CblasTrans);
    double spread = NAN;
    cr_assert_eq(position_offset_spread(G, &spread), INVENT_OK);
    cr_assert_leq(spread, 1e-12);
    cr_assert_float_eq(gsl_matrix_get(G, 5, 5), 8.0, 1e-12, "|E_t|^2 = d / 2");
    /* without the cosines the products depend on t + s as well */
    for (size_t j = 1; j < 16; j += 2) {
        gsl_vector_view c = gsl_matrix_column(E, j);
        gsl_vector_set_zero(&c.vector);
    }
    gsl_matrix_free(G);
    G = mat_product(E, CblasNoTrans, E, CblasTrans);
    cr_assert_eq(position_offset_spread(G, &spread), INVENT_OK);
    cr_assert_geq(spread, 0.1);
    gsl_matrix_free(E);
    gsl_matrix_free(G);
}

Test(position, spread_of_a_small_matrix_and_bad_shapes)
{
    /* diagonals of [[1, 2], [5, 3]]: {5}, {1, 3}, {2}: largest spread 2 */
    double g[] = {1, 2, 5, 3};
    gsl_matrix_view G = gsl_matrix_view_array(g, 2, 2);
    double spread = 0.0;
    cr_assert_eq(position_offset_spread(&G.matrix, &spread), INVENT_OK);
    cr_assert_eq(spread, 2.0);
    g[3] = NAN;
    cr_assert_eq(position_offset_spread(&G.matrix, &spread), INVENT_OK);
    cr_assert(isnan(spread), "a NaN is not hidden");
    gsl_matrix *wide = gsl_matrix_calloc(2, 3);
    cr_assert_eq(position_offset_spread(wide, &spread), INVENT_ESHAPE);
    gsl_matrix_free(wide);
}
