/* One block of the Transformer for an autoregressive model: causal multi-head
 * attention and the MLP, each inside a skip connection, with a layer
 * normalisation in one of two places:
 *   post-norm (Vaswani et al., 2017):   H = LN1(X + MHA(X)),   Y = LN2(H + MLP(H))
 *   pre-norm (Xiong et al., 2020; GPT-2, nanoGPT):
 *                                       R = X + MHA(LN1(X)),   Y = R + MLP(LN2(R))
 * The pre-norm block leaves the skip path X -> Y free of any norm; a model
 * built of such blocks normalises once more after the last one.
 *
 * block_backward is block_forward read in reverse; it follows the convention
 * of linear.h (gradients are added to what the caller holds) and allocates
 * nothing: the trace keeps what it needs (every intermediate, and each norm's
 * mean and reciprocal deviation), the workspace holds its scratch, both sized
 * once for T tokens. */
#ifndef INVENT_BLOCK_H
#define INVENT_BLOCK_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "heads.h"
#include "mlp.h"

typedef enum {
    BLOCK_POST_NORM, /* the norm after each skip (the default, block_new's) */
    BLOCK_PRE_NORM   /* the norm before each sublayer, inside its branch */
} block_norm;

typedef struct {
    mha_weights *attn;          /* H heads of size dk = dv = d/H */
    gsl_vector *gamma1, *beta1; /* (d): the norm of the attention step */
    mlp_weights *mlp;           /* d -> m -> d, ReLU */
    gsl_vector *gamma2, *beta2; /* (d): the norm of the MLP step */
    double eps;                 /* added to the variance in both norms */
    block_norm norm;            /* where the norms sit */
    int see_future;             /* 0 (block_new's): causal attention; 1: no mask (an ablation) */
    int no_skips;               /* 0 (block_new's): both skips; 1: neither (an ablation) */
    int no_norms;               /* 0 (block_new's): both norms; 1: neither (an ablation) */
} block_weights;

/* Every intermediate of one forward pass over T tokens. */
typedef struct {
    mha_trace *attn;           /* Q, K, V, attention weights, concatenated heads */
    gsl_matrix *N;             /* (T, d): pre-norm only: LN1(X), the attention's input */
    gsl_matrix *A;             /* (T, d): MHA of the attention's input, after W_o */
    gsl_matrix *R1;            /* (T, d): X + A, the first skip */
    gsl_matrix *H;             /* (T, d): the MLP's input: LN1(R1) post-norm, LN2(R1) pre-norm */
    gsl_matrix *Z;             /* (T, m): MLP pre-activations H W1^T + b1 */
    gsl_matrix *F;             /* (T, m): MLP activations relu(Z) */
    gsl_matrix *M;             /* (T, d): MLP(H) */
    gsl_matrix *R2;            /* (T, d): the second skip: H + M post-norm, R1 + M = Y pre-norm */
    gsl_vector *mean1, *rstd1; /* (T): norm 1's statistics (over R1 post-norm, X pre-norm) */
    gsl_vector *mean2, *rstd2; /* (T): norm 2's (over R2 post-norm, R1 pre-norm) */
} block_trace;

/* Scratch of block_backward for T tokens. */
typedef struct {
    mha_work *attn;  /* mha_backward's */
    gsl_matrix *mlp; /* (2T, m): mlp_backward's */
    gsl_matrix *dR1; /* (T, d): gradient at R1 */
    gsl_matrix *dH;  /* (T, d): gradient at H */
    gsl_matrix *d3;  /* (T, d): gradient at R2 (post-norm) or at N (pre-norm) */
} block_work;

#define BLOCK_TENSORS 12

/* d, H (dividing d), m -> random weights, gamma = 1, beta = 0, eps = 1e-5,
 * post-norm (set w->norm for pre-norm); NULL on no memory or sizes that do not fit */
block_weights *block_new(size_t d, size_t heads, size_t hidden, gsl_rng *r);
void block_free(block_weights *w);

/* w from block_new -> v: its 12 tensors as flat views, every entry once, in the
 * order W_q, W_k, W_v, W_o, gamma1, beta1, W1, b1, W2, b2, gamma2, beta2 (one
 * loop then serves an optimiser, zeroing gradients or counting parameters) */
void block_tensors(block_weights *w, gsl_vector_view v[BLOCK_TENSORS]);

/* w -> every entry of every tensor 0 (gradients before a batch) */
void block_set_zero(block_weights *w);

/* T, weights -> room for every intermediate of T tokens, or NULL */
block_trace *block_trace_new(size_t T, const block_weights *w);
void block_trace_free(block_trace *tr);

/* T, weights -> block_backward's scratch for T tokens, or NULL */
block_work *block_work_new(size_t T, const block_weights *w);
void block_work_free(block_work *work);

/* The block's flags in one place, for block_forward and generation's one-token step
 * (sample.h). a, b: (T, d) -> out: (T, d) = a + b, or b when the block leaves its skips
 * out; out must not be a or b */
void block_skip(const block_weights *w, const gsl_matrix *a, const gsl_matrix *b,
                gsl_matrix *out);

/* X: (T, d) -> Y: (T, d) = LN(X) with this gain and shift and w's epsilon (mean, rstd:
 * (T) its statistics, or NULL), or Y = X when the block leaves its norms out */
int block_norm_forward(const block_weights *w, const gsl_matrix *X, const gsl_vector *gamma,
                       const gsl_vector *beta, gsl_matrix *Y, gsl_vector *mean,
                       gsl_vector *rstd);

/* X: (T, d) -> Y: (T, d), the block with w->norm's placement (see above);
 * tr: a trace for T tokens (block_trace_new) that receives every
 * intermediate; NULL is refused (INVENT_ERANGE). Allocates nothing. */
int block_forward(const block_weights *w, const gsl_matrix *X, block_trace *tr, gsl_matrix *Y);

/* w, X: (T, d), tr: the trace block_forward(w, X, tr, .) filled, dY: (T, d) ->
 * g: gradients with the shapes of w (from block_new, zeroed by block_set_zero), +=;
 * dX: (T, d) +=, or NULL; work: from block_work_new(T, w). Allocates nothing. */
int block_backward(const block_weights *w, const gsl_matrix *X, const block_trace *tr,
                   const gsl_matrix *dY, block_weights *g, gsl_matrix *dX, block_work *work);

#endif
