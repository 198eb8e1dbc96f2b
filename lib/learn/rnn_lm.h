/* A recurrent character model, the baseline that chapter 14 sets against
 * chapter 13's GPT: chapter 1's cell (Elman, 1990) run over each sequence
 * from a zero state, read out at every step:
 *   x_t = E[id_t]                       (embedding, width m)
 *   h_t = tanh(W h_{t-1} + U x_t)       (rnn.h, h_{-1} = 0)
 *   Z_t = W_out h_t + b_out             (logits over the V symbols)
 *   loss = mean over the B*T positions of -log softmax(Z)[next token]
 * Back-propagation through time over the whole sequence (rnn.h). */
#ifndef INVENT_RNN_LM_H
#define INVENT_RNN_LM_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "rnn.h"
#include "tensors.h"

#define RNN_LM_TENSORS 5

typedef struct {
    size_t vocab;     /* V */
    gsl_matrix *E;    /* (V, m), N(0, 1) as gpt.h's */
    rnn_cell *cell;   /* W: (m, m) a random rotation, U: (m, m), tanh */
    gsl_matrix *Wout; /* (V, m), N(0, 0.02^2) as gpt.h's */
    gsl_vector *bout; /* (V), 0 */
} rnn_lm;

/* V, m, r -> a model drawn from r; NULL on no memory, r NULL or a size 0 */
rnn_lm *rnn_lm_new(size_t vocab, size_t state, gsl_rng *r);

/* V, m -> a model with every entry 0 (room for gradients); NULL on no memory or a size 0 */
rnn_lm *rnn_lm_zeros(size_t vocab, size_t state);
void rnn_lm_free(rnn_lm *w);

/* V, m -> how many numbers the model learns: 2 V m + 2 m^2 + V */
size_t rnn_lm_param_count(size_t vocab, size_t state);

/* V, n -> the state size m whose model has the count nearest to n (at least 1) */
size_t rnn_lm_state_for(size_t vocab, size_t n);

/* w, g: a model and its gradients (g may be NULL) -> out: (RNN_LM_TENSORS) named
 * entries tok_emb, rnn.W, rnn.U, Wout, bout, value from w and grad from g */
void rnn_lm_tensors(rnn_lm *w, rnn_lm *g, tensor_ref *out);

/* Every intermediate of a pass over B sequences of T tokens. */
typedef struct rnn_lm_trace rnn_lm_trace;

/* w, B, T -> room for a pass, or NULL */
rnn_lm_trace *rnn_lm_trace_new(const rnn_lm *w, size_t B, size_t T);
void rnn_lm_trace_free(rnn_lm_trace *tr);

/* x: (B*T) tokens, y: (B*T) the next tokens -> *loss, the mean cross-entropy */
int rnn_lm_forward(const rnn_lm *w, const size_t *x, const size_t *y, rnn_lm_trace *tr,
                   double *loss);

/* right after rnn_lm_forward(w, x, y, tr, .): g += the gradient of the loss */
int rnn_lm_backward(const rnn_lm *w, const size_t *x, const size_t *y, rnn_lm_trace *tr,
                    rnn_lm *g);

/* The recurrent model as train_step (train_step.h) takes it. */
typedef struct {
    rnn_lm *w, *g;
    rnn_lm_trace *tr;
} rnn_lm_batch;

/* model: an rnn_lm_batch -> rnn_lm_forward, rnn_lm_backward */
int rnn_lm_batch_forward(void *model, const size_t *x, const size_t *y, double *loss);
int rnn_lm_batch_backward(void *model, const size_t *x, const size_t *y);

#endif
