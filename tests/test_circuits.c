/* Unit tests: a head's W_QK and W_OV, and the effective ranks of a spectrum. */
#include <criterion/criterion.h>
#include <math.h>

#include "circuits.h"
#include "jacobi_svd.h"
#include "linalg.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(circuits, effective_rank_of_equal_values_is_their_count)
{
    double v[] = {2, 2, 2, 0, 0};
    gsl_vector_view s = gsl_vector_view_array(v, 5);
    cr_assert_float_eq(effective_rank(&s.vector), 3.0, 1e-12);
    double u[] = {1, 0.5, 0.25};
    gsl_vector_view t = gsl_vector_view_array(u, 3);
    double e = effective_rank(&t.vector);
    cr_assert(e > 1.0 && e < 3.0, "spread values: between 1 and 3, got %g", e);
}

Test(circuits, energy_rank_counts_the_leading_values)
{
    double v[] = {4, 3, 0}; /* squares 16, 9: 64% and 100% */
    gsl_vector_view s = gsl_vector_view_array(v, 3);
    cr_assert_eq(energy_rank(&s.vector, 0.5), 1);
    cr_assert_eq(energy_rank(&s.vector, 0.64), 1);
    cr_assert_eq(energy_rank(&s.vector, 0.9), 2);
    cr_assert_eq(energy_rank(&s.vector, 1.0), 2);
}

/* head j's W_QK and W_OV from the weights' blocks, of rank at most dk */
Test(circuits, head_circuits_are_the_block_products)
{
    gsl_rng *r = rng_new(4);
    size_t d = 6, H = 3, dk = 2;
    mha_weights *w = mha_new(d, H, dk, dk, r);
    gsl_matrix *QK = gsl_matrix_alloc(d, d), *OV = gsl_matrix_alloc(d, d);
    gsl_vector *s = gsl_vector_alloc(d);
    cr_assert_eq(circuit_qk(w, 1, QK), INVENT_OK);
    cr_assert_eq(circuit_ov(w, 1, OV), INVENT_OK);
    for (size_t a = 0; a < d; a++)
        for (size_t b = 0; b < d; b++) {
            double qk = 0, ov = 0;
            for (size_t k = 0; k < dk; k++) {
                qk += gsl_matrix_get(w->Wq, dk + k, a) * gsl_matrix_get(w->Wk, dk + k, b);
                ov += gsl_matrix_get(w->Wo, a, dk + k) * gsl_matrix_get(w->Wv, dk + k, b);
            }
            cr_assert_float_eq(gsl_matrix_get(QK, a, b), qk, 1e-14);
            cr_assert_float_eq(gsl_matrix_get(OV, a, b), ov, 1e-14);
        }
    cr_assert_eq(jacobi_singular_values(QK, s), INVENT_OK);
    cr_assert_eq(linalg_rank(s, 1e-10), dk);
    cr_assert_eq(circuit_qk(w, H, QK), INVENT_ESHAPE);
    mha_free(w);
    gsl_matrix_free(QK);
    gsl_matrix_free(OV);
    gsl_vector_free(s);
    gsl_rng_free(r);
}
