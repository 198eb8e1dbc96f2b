/* One block of the Transformer as Vaswani et al. (2017) built it, for an
 * autoregressive model: causal multi-head attention, a skip connection and
 * a layer normalisation, then the MLP, a second skip and a second norm:
 *   H = LN1(X + MHA(X)),   Y = LN2(H + MLP(H)). */
#ifndef INVENT_BLOCK_H
#define INVENT_BLOCK_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "heads.h"
#include "mlp.h"

typedef struct {
    mha_weights *attn;          /* H heads of size dk = dv = d/H */
    gsl_vector *gamma1, *beta1; /* (d): the norm after attention */
    mlp_weights *mlp;           /* d -> m -> d, ReLU */
    gsl_vector *gamma2, *beta2; /* (d): the norm after the MLP */
    double eps;                 /* added to the variance in both norms */
} block_weights;

/* Every intermediate of one forward pass over T tokens. */
typedef struct {
    mha_trace *attn; /* Q, K, V, attention weights, concatenated heads */
    gsl_matrix *A;   /* (T, d): MHA(X), after W_o */
    gsl_matrix *R1;  /* (T, d): X + A, the first skip */
    gsl_matrix *H;   /* (T, d): LN1(R1) */
    gsl_matrix *Z;   /* (T, m): MLP pre-activations H W1^T + b1 */
    gsl_matrix *M;   /* (T, d): MLP(H) */
    gsl_matrix *R2;  /* (T, d): H + M, the second skip */
} block_trace;

/* d, H (dividing d), m -> random weights, gamma = 1, beta = 0, eps = 1e-5; NULL on
 * no memory or sizes that do not fit */
block_weights *block_new(size_t d, size_t heads, size_t hidden, gsl_rng *r);
void block_free(block_weights *w);

/* T, weights -> room for every intermediate of T tokens, or NULL */
block_trace *block_trace_new(size_t T, const block_weights *w);
void block_trace_free(block_trace *tr);

/* X: (T, d) -> Y: (T, d) = LN2(H + MLP(H)), H = LN1(X + MHA_causal(X));
 * tr: a trace for T tokens that receives every intermediate, or NULL */
int block_forward(const block_weights *w, const gsl_matrix *X, block_trace *tr, gsl_matrix *Y);

#endif
