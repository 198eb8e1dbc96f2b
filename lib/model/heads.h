/* Many heads: H attention heads side by side, each with its own query, key
 * and value matrices, and the output matrix W_o that mixes what they found
 * back into the model's d dimensions (Vaswani et al., 2017).
 *
 * Convention (the same as the claims and as PyTorch's nn.Linear): a weight
 * maps inputs to outputs as (out, in), tokens are rows, so Q = X W_q^T.
 * Head j owns rows j*dk .. (j+1)*dk-1 of W_q and W_k, rows j*dv .. of W_v,
 * and columns j*dv .. (j+1)*dv-1 of W_o, the block W_o^(j). */
#ifndef INVENT_HEADS_H
#define INVENT_HEADS_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

#include "additive.h"
#include "attention.h"

typedef struct {
    size_t heads;   /* H */
    gsl_matrix *Wq; /* (H*dk, d): head j's queries are X (W_q^(j))^T */
    gsl_matrix *Wk; /* (H*dk, d) */
    gsl_matrix *Wv; /* (H*dv, d): V_j of the claims is head j's row block */
    gsl_matrix *Wo; /* (d, H*dv): column block j is W_o^(j) */
    additive_score *additive; /* NULL (mha_new's): the scaled product score; else head j
                               * scores with the additive score of row j (additive.h),
                               * on the same Q and K; freed by mha_free */
} mha_weights;

/* What one forward pass leaves behind, for a backward pass or a figure. */
typedef struct {
    gsl_matrix *Q, *K; /* (T, H*dk): projections, head j in column block j */
    gsl_matrix *V;     /* (T, H*dv) */
    gsl_matrix *A;     /* (H*T, T): head j's attention weights in rows j*T .. j*T+T-1 */
    gsl_matrix *C;     /* (T, H*dv): the head outputs side by side, before W_o */
} mha_trace;

/* What the backward pass needs besides the trace: scratch sized once for T
 * tokens and one set of weights, reused by every call. */
typedef struct {
    gsl_matrix *dC;     /* (T, H*dv): gradient at the concatenated heads */
    gsl_matrix *dQ, *dK; /* (T, H*dk): gradients at the projections */
    gsl_matrix *dV;     /* (T, H*dv) */
    gsl_matrix *attn;   /* (2T, T): one head's scratch (attn_backward's work) */
} mha_work;

/* d, H, dk, dv -> weights with N(0, 1/fan_in) entries, or NULL (no memory, a size 0) */
mha_weights *mha_new(size_t d, size_t heads, size_t dk, size_t dv, gsl_rng *r);
void mha_free(mha_weights *w);

/* The const variants return GSL's public gsl_matrix_const_view, whose const C
 * drops from a return type (GCC's -Wignored-qualifiers says so; the pragma
 * quiets it here and where they are defined, nowhere else). */
/* M: (rows, H*n) -> view (rows, n) of column block j (no copy) */
gsl_matrix_view heads_columns(gsl_matrix *M, size_t heads, size_t j);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
gsl_matrix_const_view heads_const_columns(const gsl_matrix *M, size_t heads, size_t j);
#pragma GCC diagnostic pop

/* M: (H*n, cols) -> view (n, cols) of row block j (no copy) */
gsl_matrix_view heads_rows(gsl_matrix *M, size_t heads, size_t j);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
gsl_matrix_const_view heads_const_rows(const gsl_matrix *M, size_t heads, size_t j);
#pragma GCC diagnostic pop

/* O[0..H-1]: (T, dv) each -> C: (T, H*dv), the head outputs side by side */
int heads_concat(const gsl_matrix *const *O, size_t heads, gsl_matrix *C);

/* T, weights -> a trace with room for T tokens, or NULL */
mha_trace *mha_trace_new(size_t T, const mha_weights *w);
void mha_trace_free(mha_trace *tr);

/* T, weights -> a workspace for mha_backward over T tokens, or NULL */
mha_work *mha_work_new(size_t T, const mha_weights *w);
void mha_work_free(mha_work *work);

/* Qj: (T, dk), Kj: (T', dk), head j's queries and keys -> Aj: (T, T'), its attention
 * weights as the forward pass scores them: softmax(Qj Kj^T / sqrt(dk) + M), or the
 * additive score's (w->additive); the one place a head's score is chosen, shared by
 * mha_forward and generation's one-token step (sample.h) */
int mha_head_weights(const mha_weights *w, size_t j, const gsl_matrix *Qj,
                     const gsl_matrix *Kj, attn_mask mask, gsl_matrix *Aj);

/* X: (T, d) -> out: (T, d) = C W_o^T, where column block j of C is
 * attn(X W_q^(j)T, X W_k^(j)T, X W_v^(j)T) with scale 1/sqrt(dk) and the mask;
 * tr: a trace for T tokens (mha_trace_new) that receives every intermediate;
 * NULL is refused (INVENT_ERANGE). Allocates nothing. */
int mha_forward(const mha_weights *w, const gsl_matrix *X, attn_mask mask, mha_trace *tr,
                gsl_matrix *out);

/* The forward pass read in reverse: back through W_o, through every head's
 * attention (attn_backward), then through the three projections, whose
 * gradients at X add up. w, X: (T, d), tr: the trace mha_forward(w, X, ., tr, .)
 * filled, dOut: (T, d) -> g: gradients with the shapes of w, += (g->heads ==
 * w->heads; g->additive set when w->additive is); dX: (T, d) += , or NULL; work: from mha_work_new(T, w).
 * Allocates nothing. */
int mha_backward(const mha_weights *w, const gsl_matrix *X, const mha_trace *tr,
                 const gsl_matrix *dOut, mha_weights *g, gsl_matrix *dX, mha_work *work);

#endif
