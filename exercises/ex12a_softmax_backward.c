/* Your file: write the part marked TODO. Grade it: make exercise12a
 * To start over: make reset 12a (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
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
    /* TODO: replace this placeholder with your code (contract above). */
    (void)W; (void)dW; (void)dS;
    return INVENT_OK;
}
