/* A recurrent character model on the float32 training path, the baseline
 * that chapter 14 sets against the GPT at equal size (recurrent_size.h):
 *   x_t = E[id_t]                              (embedding, width e)
 *   Elman (1990), chapter 1's cell with a bias:
 *     h_t = tanh(U x_t + b + W h_{t-1})
 *   GRU (Cho et al., 2014), in the form PyTorch's nn.GRU and cuDNN compute
 *   (the reset gate applied after W_n, so that one product per step serves
 *   all three gates; rows of U, W, bx, bh in the order r, z, n):
 *     r_t = sigma(U_r x_t + bx_r + W_r h_{t-1} + bh_r)
 *     z_t = sigma(U_z x_t + bx_z + W_z h_{t-1} + bh_z)
 *     n_t = tanh(U_n x_t + bx_n + r_t * (W_n h_{t-1} + bh_n))
 *     h_t = (1 - z_t) * n_t + z_t * h_{t-1}
 *   Z_t = W_out h_t + b_out; loss = mean over the B*T positions of
 *   -log softmax(Z_t)[next token]
 * over B windows of T characters, each from h_{-1} = 0 (as the GPT's windows
 * start with nothing before them), back-propagated through time over the
 * whole window. Laid out as gpt32.h: every weight in one buffer, every
 * gradient in another, (B*T, width) activations sized once, the products on
 * gemm32 and the threads of workers.h, nothing allocated after
 * recurrent32_new. The step in time is sequential: each step is one product
 * W h_{t-1} for the B windows at once (and one dQ_t W on the way back); the
 * input projections, the read-out and the weight gradients are products over
 * all B*T positions at once.
 *
 * no_recurrence, the control without memory: h_{t-1} is taken as 0 at every
 * step, so W is 0 in effect (and stays 0 in the buffer, out of the trained
 * list); in the GRU this also drops the carry z_t * h_{t-1}, which with W = 0
 * alone would still remember (a gated running average of the inputs).
 *
 * The first draw (recurrent32_draw): E ~ N(0, 1) (as torch.nn.Embedding), U ~
 * N(0, 1/e) (unit variance into each unit from a unit-variance input), W a
 * random rotation per gate block (chapter 1's cell: no decay and no blow-up
 * of the state at the start; Saxe et al., 2014; Le et al., 2015), biases 0
 * but the GRU's update gate, bx_z = 1 (z near 0.73: the state is mostly
 * carried at the start, as Jozefowicz et al., 2015, bias an LSTM's forget
 * gate), W_out ~ N(0, 0.02^2) as the GPT's read-out. */
#ifndef INVENT_RECURRENT32_H
#define INVENT_RECURRENT32_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "tensors.h"

typedef enum { RECURRENT_ELMAN, RECURRENT_GRU } recurrent_cell;

typedef struct {
    recurrent_cell cell;
    size_t vocab;  /* V */
    size_t input;  /* e: the embedding's width */
    size_t state;  /* m */
} recurrent_shape;

/* The weights of the buffers, by name (values or gradients). */
typedef struct {
    float *E;     /* (V, e) */
    float *U;     /* (g m, e), g = 1 (Elman) or 3 (GRU: r, z, n) */
    float *bx;    /* (g m) */
    float *W;     /* (g m, m) */
    float *bh;    /* (3 m), GRU only (NULL for Elman) */
    float *Wout;  /* (V, m) */
    float *bout;  /* (V) */
} recurrent32_weights;

typedef struct recurrent32_acts recurrent32_acts;

typedef struct {
    recurrent_shape shape;
    size_t B, T;           /* the batch the activations hold */
    int no_recurrence;     /* 1: h_{t-1} = 0 at every step, W out of the list */
    size_t count;          /* tensors trained: 6 or 7, one fewer without recurrence */
    tensor_ref t[7];       /* tok_emb, U, bx, [W], [bh], Wout, bout; value32 and grad32 */
    size_t n;              /* numbers in the buffers (W included) */
    float *params, *grads; /* (n) each */
    recurrent32_weights w, g; /* the buffers, by name */
    int workers;           /* threads (workers.h); may be changed between passes */
    recurrent32_acts *a;
} recurrent32;

/* shape, B, T, no_recurrence -> the model with every number 0 and room for
 * one batch, or NULL (a size 0, no memory, a bad INVENT_THREADS) */
recurrent32 *recurrent32_new(const recurrent_shape *s, size_t B, size_t T, int no_recurrence);
void recurrent32_free(recurrent32 *m);

/* m, r -> m's weights drawn as the head comment says, W last (left 0 without
 * recurrence), so that one seed draws the same E, U and W_out for both */
int recurrent32_draw(recurrent32 *m, gsl_rng *r);

/* x: (B*T) tokens, y: (B*T) next tokens -> *loss: the mean cross-entropy;
 * INVENT_ERANGE for a token outside the vocabulary */
int recurrent32_forward(recurrent32 *m, const size_t *x, const size_t *y, double *loss);

/* -> (B*T, V) the logits of the last forward pass */
const float *recurrent32_logits(const recurrent32 *m);

/* -> (B*T) each position's loss in the last forward pass (window b, position t at b T + t) */
const double *recurrent32_token_loss(const recurrent32 *m);

/* right after recurrent32_forward(m, x, y, .): m->grads += the gradient of the loss */
int recurrent32_backward(recurrent32 *m, const size_t *x, const size_t *y);

/* model: a recurrent32 -> recurrent32_forward, recurrent32_backward, as train_step takes them */
int recurrent32_train_forward(void *model, const size_t *x, const size_t *y, double *loss);
int recurrent32_train_backward(void *model, const size_t *x, const size_t *y);

#endif
