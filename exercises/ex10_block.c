/* Your file: write the part marked TODO. Grade it: make exercise10
 * To start over: make reset 10 (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 10 (chapter 10): one block of the Transformer.
 *
 * Every piece is now in the library; the block only wires them together, as
 * Vaswani et al. (2017) did, for an autoregressive model:
 *
 *     A = MHA_causal(X)          multi-head causal attention with W_o
 *     H = LN1(X + A)             first skip connection, then layer norm
 *     M = MLP(H)                 the key-value memory, position by position
 *     Y = LN2(H + M)             second skip connection, then layer norm
 *
 * Contract of ex10_block(w, X, Y):
 *   - w: the weights of lib/model/block.h (w->attn, w->mlp, w->gamma1/beta1,
 *     w->gamma2/beta2, w->eps); X: (T, d); Y: (T, d);
 *   - writes Y above and returns INVENT_OK; returns INVENT_ESHAPE when Y is
 *     not of X's shape (or a library call's status when it fails, X's width
 *     not the weights' d for one); frees all it allocates, on every path;
 *   - X and Y may be views whose rows lie further apart than their width (a tda).
 * Use mha_forward and mlp_forward, each with a trace for T tokens that you
 * allocate (mha_trace_new, mlp_trace_new: the library's forward passes
 * allocate nothing), layernorm_forward (NULL for the statistics you do not
 * need) and gsl_matrix_add for the skips.
 * Write it yourself: the grade refuses calls to block_forward; and to every
 * library function that does the same work (found by walking the library's call
 * graph: each calls one of them, or is one of them wrapped):
 * ablated_batch_forward, ablated_forward, gpt_batch_forward, gpt_forward,
 * gpt_gradcheck, gpt_probe_run, learn_block_pass.
 * Grade: make exercise10   Hints: make hint 10 (then LEVEL=2, LEVEL=3) */
#include "exercises.h"

int ex10_block(const block_weights *w, const gsl_matrix *X, gsl_matrix *Y)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)w; (void)X; (void)Y;
    return INVENT_OK;
}
