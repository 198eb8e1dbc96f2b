/* Your file: write the part marked TODO. Grade it: make exercise7b
 * To start over: make reset 7b (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 7b (chapter 7): causal attention in matrix form.
 *
 * Every position t attends to the positions 0..t only (it may not see the
 * future). Written as matrices, for all positions at once:
 *
 *     S   = scale * Q K^T                   (T, T) scores
 *     S  += M,  M[t][i] = -INFINITY for i > t, else 0
 *     W   = softmax of every row of S       (T, T) weights
 *     out = W V                             (T, dv)
 *
 * Contract of ex07b_causal_attention(Q, K, V, scale, out):
 *   - Q: (T, dk), K: (T, dk), V: (T, dv), out: (T, dv); writes the output
 *     above into out and returns INVENT_OK;
 *   - returns INVENT_ESHAPE when the shapes do not fit (Q and K of different
 *     widths or lengths, V not of T rows, out not (T, dv));
 *   - frees whatever it allocates, on every path, and keeps nothing from one
 *     call to the next; Q, K and V are only read (const);
 *   - Q, K, V and out may be views whose rows lie further apart than their
 *     width (a tda).
 * Use the library: gsl_blas_dgemm for both products, mask_causal, softmax_rows.
 * Write it yourself: the grade refuses calls to attn_sum_form and attn_weights;
 * and to every library function that does the same work
 * (found by walking the library's call graph: each calls one of them, or is one
 * of them wrapped): ablated_batch_forward, ablated_forward, attn_forward,
 * block_forward, gpt_batch_forward, gpt_forward, gpt_gradcheck, gpt_probe_run,
 * learn_block_pass, learn_recall_attention, mha_forward.
 * Grade: make exercise7b   Hints: make hint 7b (then LEVEL=2, LEVEL=3) */
#include <gsl/gsl_blas.h>

#include "exercises.h"

int ex07b_causal_attention(const gsl_matrix *Q, const gsl_matrix *K, const gsl_matrix *V,
                           double scale, gsl_matrix *out)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)Q; (void)K; (void)V; (void)scale; (void)out;
    return INVENT_OK;
}
