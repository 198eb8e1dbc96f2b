/* Exercise 2 (chapter 2): a weight generator that breaks the symmetry.
 *
 * A dynamic layer generates the weight from source token i into receiving
 * unit j with a score function a. If a sees the source alone, a(s_i), every
 * unit receives the same weight from token i, and all units compute the same
 * weighted sum (claim D1). Letting a also see the receiver's own residual
 * input r_j makes the weights differ from unit to unit (claim D2):
 *
 *     W[j][i] = a(s_i, r_j) = v . tanh(W1 s_i + W2 r_j)
 *
 * Contract of ex02_receiver_weights(a, S, R, W):
 *   - a: an additive score (a->W1, a->W2: (h, d), a->v: (h)), see lib/model/score.h;
 *   - S: (T, d), row i is the source s_i; R: (T, d), row j is the receiver's
 *     input r_j; W: (T, T) receives W[j][i] = a(s_i, r_j) for every j, i;
 *   - returns INVENT_ESHAPE when S and R differ in shape, W is not (T, T), or
 *     the score's width is not d; otherwise INVENT_OK.
 *   - S, R, W and the score's matrices may be views whose rows lie further
 *     apart than their width (a tda), and a->v a view with a stride.
 * Use attn_additive_score (lib/model/score.h) for each weight; do not copy the rows.
 * Write it yourself: the grade refuses calls to dw_weights.
 * Grade: make exercise2   Hints: make hint 2 (then LEVEL=2, LEVEL=3) */
#include "exercises.h"

int ex02_receiver_weights(const attn_additive *a, const gsl_matrix *S, const gsl_matrix *R,
                          gsl_matrix *W)
{
    /* BEGIN SOLUTION */
    /* stub: (void)a; (void)S; (void)R; (void)W; */
    /* stub: return INVENT_OK; */
    size_t T = S->size1;
    if (R->size1 != T || R->size2 != S->size2 || W->size1 != T || W->size2 != T)
        return INVENT_ESHAPE;
    for (size_t j = 0; j < T; j++)
        for (size_t i = 0; i < T; i++) {
            gsl_vector_const_view s = gsl_matrix_const_row(S, i);
            gsl_vector_const_view r = gsl_matrix_const_row(R, j);
            double w;
            int status = attn_additive_score(a->W1, a->W2, a->v, &s.vector, &r.vector, &w);
            if (status != INVENT_OK)
                return status;
            gsl_matrix_set(W, j, i, w);
        }
    return INVENT_OK;
    /* END SOLUTION */
}
