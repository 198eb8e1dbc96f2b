/* Unit tests for chapter 2's refit: the generator's features F, with F v equal
 * to the weighted sums W X of the layer the generator drives, for every kind. */
#include <criterion/criterion.h>

#include "dynamic_weights.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

Test(dw_features, f_times_v_is_the_weighted_sum_for_every_kind)
{
    const dw_kind kinds[] = {DW_SOURCE_ONLY, DW_SOURCE_AND_RECEIVER, DW_SELF_ONLY,
                             DW_SELF_AND_PREVIOUS};
    gsl_rng *r = rng_new(11);
    attn_additive *a = attn_additive_new(3, 5, 0.7, r);
    gsl_matrix *X = mat_gaussian(4, 3, 1.0, r), *S = mat_gaussian(4, 3, 1.0, r);
    gsl_matrix *W = gsl_matrix_alloc(4, 4), *sums = gsl_matrix_alloc(4, 3);
    gsl_matrix *F = gsl_matrix_alloc(12, 5), *Fv = gsl_matrix_alloc(12, 1);
    gsl_matrix_view v = gsl_matrix_view_vector(a->v, 5, 1);
    dw_work *w = dw_work_new(4, 3, 5), *short_work = dw_work_new(3, 3, 5);
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(dw_weights(a, kinds[k], S, X, w, W), INVENT_OK);
        cr_assert_eq(mat_mul(W, CblasNoTrans, X, CblasNoTrans, sums), INVENT_OK);
        cr_assert_eq(dw_features(a, kinds[k], S, X, X, w, F), INVENT_OK);
        cr_assert_eq(mat_mul(F, CblasNoTrans, &v.matrix, CblasNoTrans, Fv), INVENT_OK);
        gsl_matrix_view flat = gsl_matrix_view_array(sums->data, 12, 1);
        cr_assert_lt(mat_max_abs_diff(Fv, &flat.matrix), 1e-13, "kind %d", k);
    }
    cr_assert_eq(dw_features(a, DW_SELF_ONLY, S, X, X, w, Fv), INVENT_ESHAPE);
    cr_assert_eq(dw_features(a, DW_SELF_ONLY, S, X, X, short_work, F), INVENT_ESHAPE,
                 "a workspace for 3 tokens, 4 given");
    dw_work_free(w);
    dw_work_free(short_work);
    attn_additive_free(a);
    gsl_matrix_free(X);
    gsl_matrix_free(S);
    gsl_matrix_free(W);
    gsl_matrix_free(sums);
    gsl_matrix_free(F);
    gsl_matrix_free(Fv);
    gsl_rng_free(r);
}
