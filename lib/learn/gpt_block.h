/* One block of the stacked model, forward and backward over one sequence,
 * in either arrangement of the layer norms:
 *   post-norm (Vaswani et al., 2017; chapter 10):
 *     R1 = X + MHA(X), H = LN1(R1), R2 = H + MLP(H), Y = LN2(R2)
 *   pre-norm (Xiong et al., 2020; GPT-2 and nanoGPT):
 *     H = LN1(X), R1 = X + MHA(H), N = LN2(R1), Y = R1 + MLP(N)
 * The backward pass is composed from the library's pieces: grad_mha,
 * grad_layernorm, grad_linear and grad_relu. */
#ifndef INVENT_GPT_BLOCK_H
#define INVENT_GPT_BLOCK_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "block.h"

typedef enum { NORM_PRE, NORM_POST } norm_place;

/* What the backward pass needs of one forward pass over T tokens. */
typedef struct {
    mha_trace *attn;        /* Q, K, V, weights, heads side by side */
    gsl_matrix *N1, *A, *R1; /* (T, d): LN1's output, MHA's output, the first sum */
    gsl_matrix *N2, *Z, *F; /* (T, d) LN2's output, (T, m) MLP pre-activations and ReLU(Z) */
    gsl_matrix *M, *R2;     /* (T, d): MLP output, the second sum (post-norm) */
    gsl_vector *mean1, *rstd1, *mean2, *rstd2; /* (T): the norms' statistics */
} gblock_trace;

/* Scratch of the backward pass, shared by every block of one width. */
typedef struct {
    gsl_matrix *dA, *dN, *dR, *dZ; /* (T, d), (T, d), (T, d), (T, m) */
} gblock_scratch;

gblock_trace *gblock_trace_new(size_t T, const block_weights *w);
void gblock_trace_free(gblock_trace *tr);
gblock_scratch *gblock_scratch_new(size_t T, const block_weights *w);
void gblock_scratch_free(gblock_scratch *s);

/* X: (T, d) -> Y: (T, d), tr: every intermediate */
int gblock_forward(const block_weights *w, norm_place place, const gsl_matrix *X,
                   gblock_trace *tr, gsl_matrix *Y);

/* after gblock_forward(w, place, X, tr, .): dY: (T, d) -> g: gradients with
 * the shapes of w (added to), dX: (T, d) (overwritten) */
int gblock_backward(const block_weights *w, norm_place place, const gsl_matrix *X,
                    const gblock_trace *tr, const gsl_matrix *dY, gblock_scratch *s,
                    block_weights *g, gsl_matrix *dX);

#endif
