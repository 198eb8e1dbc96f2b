/* The assembled model of chapter 13, a character-level GPT (Radford et al.,
 * 2018) built from the library's pieces:
 *   X_0 = E[ids] + P                        (embedding.h)
 *   X_l = block_l(X_{l-1}),  l = 1..L       (block.h: causal MHA, MLP, skips, norms)
 *   Z = LN_f(X_L) W_out^T + b_out           (logits over the V symbols)
 *   loss = mean over the B*T positions of -log softmax(Z)[next token]
 * and its backward pass, which adds the gradient of the loss to a second
 * set of weights of the same shapes. */
#ifndef INVENT_GPT_H
#define INVENT_GPT_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "block.h"
#include "tensors.h"

typedef struct {
    size_t vocab;    /* V */
    size_t context;  /* T_max: the longest sequence (rows of P) */
    size_t dim;      /* d */
    size_t heads;    /* H, dividing d */
    size_t layers;   /* L */
    size_t hidden;   /* m: the MLP's hidden units */
    block_norm norm; /* pre-norm or post-norm blocks */
    int unit_positions; /* 1: positions drawn N(0, 1), as this library drew them before
                         * GPT-2's draw (chapter 14 keeps it as a row); 0: GPT-2's */
} gpt_shape;

typedef struct {
    gpt_shape shape;
    gsl_matrix *E, *P;           /* (V, d) token embedding, (T_max, d) positions */
    block_weights **blocks;      /* L blocks */
    gsl_vector *gamma, *beta;    /* (d): the final norm */
    double eps;                  /* the final norm's epsilon (each block keeps its own) */
    gsl_matrix *Wout;            /* (V, d) */
    gsl_vector *bout;            /* (V) */
} gpt_weights;

/* shape, r -> weights drawn as GPT-2 draws them (Radford et al., 2019): E, P, W_out and
 * every block's matrices ~ N(0, 0.02^2), except the residual projections W_o and W2 at
 * 0.02 / sqrt(2L) (P ~ N(0, 1) with unit_positions); zero biases, unit gains, every
 * norm's epsilon 1e-5; NULL on no memory, r NULL or sizes that do not fit */
gpt_weights *gpt_new(const gpt_shape *shape, gsl_rng *r);

/* shape -> weights of that shape with every entry 0 (room for gradients), or NULL
 * as gpt_new */
gpt_weights *gpt_zeros(const gpt_shape *shape);
void gpt_free(gpt_weights *w);

/* w, eps > 0 -> every norm's epsilon, the final one's and each block's, set to eps */
void gpt_set_eps(gpt_weights *w, double eps);

/* w -> 1 when every block's norms share the final norm's epsilon (what a checkpoint
 * or the float32 model, holding one, can keep), else 0 */
int gpt_one_eps(const gpt_weights *w);

/* -> how many tensors gpt_tensors lists for this shape: 2 + 12 L + 4 */
size_t gpt_tensor_count(const gpt_shape *shape);

/* shape -> out: (gpt_tensor_count) the list gpt_tensors makes, with its names,
 * shapes and decay flags but no numbers (every pointer NULL) */
void gpt_layout(const gpt_shape *shape, tensor_ref *out);

/* w, g: weights and gradients of one shape (g may be NULL) -> out: (gpt_tensor_count)
 * named entries, value from w and grad from g: tok_emb, pos_emb, then per
 * block l0.Wq, l0.Wk, l0.Wv, l0.Wo, l0.ln1_g, l0.ln1_b, l0.W1, l0.b1, l0.W2,
 * l0.b2, l0.ln2_g, l0.ln2_b, ..., then lnf_g, lnf_b, Wout, bout */
void gpt_tensors(gpt_weights *w, gpt_weights *g, tensor_ref *out);

/* -> how many numbers the model learns */
size_t gpt_param_count(const gpt_shape *shape);

/* Every intermediate of a forward pass over B sequences of T tokens. */
typedef struct gpt_trace gpt_trace;

/* w, B, T <= T_max -> room for a pass, or NULL */
gpt_trace *gpt_trace_new(const gpt_weights *w, size_t B, size_t T);
void gpt_trace_free(gpt_trace *tr);

/* gpt_backward's scratch for B sequences of T tokens: the gradients on
 * their way down the stack and the blocks' scratch (block_work), apart from
 * the forward pass's trace as block's are. */
typedef struct gpt_work gpt_work;

/* w, B, T <= T_max -> scratch for a backward pass, or NULL */
gpt_work *gpt_work_new(const gpt_weights *w, size_t B, size_t T);
void gpt_work_free(gpt_work *work);

/* x: (B*T) tokens, y: (B*T) the next tokens or NULL -> the logits, kept in tr
 * (gpt_logits), and *loss, the mean cross-entropy (when y is given) */
int gpt_forward(const gpt_weights *w, const size_t *x, const size_t *y, gpt_trace *tr,
                double *loss);

/* tr -> the logits Z: (B*T, V) of the last forward pass */
const gsl_matrix *gpt_logits(const gpt_trace *tr);

/* right after gpt_forward(w, x, y, tr, .), work: from gpt_work_new(w, B, T)
 * for tr's B and T -> g += the gradient of the loss; INVENT_ESHAPE when work
 * was made for another B or T */
int gpt_backward(const gpt_weights *w, const size_t *x, const size_t *y, const gpt_trace *tr,
                 gpt_weights *g, gpt_work *work);

#endif
