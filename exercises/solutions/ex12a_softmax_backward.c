/* Exercise 12a (chapter 12): the backward pass of the softmax.
 *
 * Learning needs the gradient of the loss with respect to every score. For
 * one row, w = softmax(s), and dw the gradient arriving at the weights, the
 * chain rule through dw_k/ds_i = w_k (delta_ki - w_i) gives
 *
 *     ds_i = w_i (dw_i - sum_k dw_k w_k)
 *
 * the weight times how much its incoming gradient exceeds the weighted mean.
 * A masked entry (w_i = 0) gets gradient 0, as it should: it had no influence.
 *
 * Contract of ex12a_softmax_backward(W, dW, dS):
 *   - W: (T, T') the weights of softmax_rows (temperature 1), dW: (T, T') the
 *     incoming gradient; writes dS: (T, T') row by row as above and returns
 *     INVENT_OK;
 *   - dS may be the same matrix as dW (in place): read what you need first;
 *   - returns INVENT_ESHAPE when the three shapes differ; allocates nothing;
 *   - W, dW and dS may be views whose rows lie further apart than their
 *     width (a tda).
 * Write it yourself: the grade refuses calls to softmax_rows_backward and
 * attn_backward; and to every library function that does the same work (found
 * by walking the library's call graph: each calls one of them, or is one of
 * them wrapped): ablated_backward, ablated_batch_backward, additive_backward,
 * block_backward, gpt_backward, gpt_batch_backward, learn_block_pass,
 * learn_recall_attention, mha_backward.
 * Grade: make exercise12a   Hints: make hint 12a (then LEVEL=2, LEVEL=3) */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex12a_softmax_backward(const gsl_matrix *W, const gsl_matrix *dW, gsl_matrix *dS)
{
    /* BEGIN SOLUTION */
    /* stub: (void)W; (void)dW; (void)dS; */
    /* stub: return INVENT_OK; */
    if (W->size1 != dW->size1 || W->size2 != dW->size2 || W->size1 != dS->size1 ||
        W->size2 != dS->size2)
        return INVENT_ESHAPE;
    for (size_t i = 0; i < W->size1; i++) {
        gsl_vector_const_view w = gsl_matrix_const_row(W, i), dw = gsl_matrix_const_row(dW, i);
        gsl_vector_view ds = gsl_matrix_row(dS, i);
        double mean;
        gsl_blas_ddot(&dw.vector, &w.vector, &mean); /* read before dS's row is written */
        gsl_vector_memcpy(&ds.vector, &dw.vector);
        gsl_vector_add_constant(&ds.vector, -mean);
        gsl_vector_mul(&ds.vector, &w.vector);
    }
    return INVENT_OK;
    /* END SOLUTION */
}
