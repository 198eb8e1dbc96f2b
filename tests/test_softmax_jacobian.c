/* Unit tests: the norm of the softmax's Jacobian. */
#include <criterion/criterion.h>
#include <math.h>

#include "softmax_jacobian.h"

/* ||diag(w) - w w^T||_F written out entry by entry */
static double by_entries(const double *w, size_t T)
{
    double sum = 0.0;
    for (size_t i = 0; i < T; i++)
        for (size_t j = 0; j < T; j++) {
            double J = (i == j ? w[i] : 0.0) - w[i] * w[j];
            sum += J * J;
        }
    return sqrt(sum);
}

Test(softmax_jacobian, agrees_with_the_matrix_written_out)
{
    double w[] = {0.5, 0.2, 0.2, 0.1};
    gsl_vector_view v = gsl_vector_view_array(w, 4);
    cr_assert_float_eq(softmax_jacobian_norm(&v.vector), by_entries(w, 4), 1e-15);
}

Test(softmax_jacobian, uniform_one_hot_and_nearly_one_hot)
{
    double u[] = {0.25, 0.25, 0.25, 0.25}, one[] = {0.0, 1.0, 0.0};
    gsl_vector_view vu = gsl_vector_view_array(u, 4), vo = gsl_vector_view_array(one, 3);
    cr_assert_float_eq(softmax_jacobian_norm(&vu.vector), sqrt(0.25 - 0.0625), 1e-15);
    cr_assert_eq(softmax_jacobian_norm(&vo.vector), 0.0);
    /* w = (1 - e, e): J = e (1 - e) [[1, -1], [-1, 1]], norm 2 e (1 - e) */
    double e = ldexp(1.0, -40), near[] = {1.0 - e, e}; /* both exact in binary */
    gsl_vector_view vn = gsl_vector_view_array(near, 2);
    cr_assert_float_eq(softmax_jacobian_norm(&vn.vector), 2.0 * e * (1.0 - e), 1e-27,
                       "no cancellation near one-hot");
}
