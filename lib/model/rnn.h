/* The recurrent cell: a state of fixed size m that every input of size p
 * is folded into, one step at a time (Elman, 1990). */
#ifndef INVENT_RNN_H
#define INVENT_RNN_H

#include <stdint.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

typedef enum { RNN_LINEAR, RNN_TANH } rnn_activation;

typedef struct {
    gsl_matrix *W;   /* (m, m): state to state */
    gsl_matrix *U;   /* (m, p): input to state */
    rnn_activation activation;
} rnn_cell;

/* m, p -> a cell with W a random rotation (no decay, no blow-up) and U
 * Gaussian with variance 1/p; NULL when out of memory */
rnn_cell *rnn_cell_new(size_t m, size_t p, rnn_activation act, gsl_rng *r);
void rnn_cell_free(rnn_cell *c);

/* h: (m), x: (p) -> h_next: (m) = act(W h + U x); h_next must not alias h */
int rnn_step(const rnn_cell *c, const gsl_vector *h, const gsl_vector *x, gsl_vector *h_next);

/* X: (n, p), one input per row, starting from h_0 = 0 -> H: (n, m), row t = h_t;
 * allocates nothing */
int rnn_unroll(const rnn_cell *c, const gsl_matrix *X, gsl_matrix *H);

/* Back-propagation through time (Werbos, 1990): the gradient flows back from
 * every state through W, one step at a time. X: (n, p), H: (n, m) from
 * rnn_unroll(c, X, H), dH: (n, m) the loss gradient at every state ->
 * dW: (m, m) +=, dU: (m, p) +=, dX: (n, p) += or NULL (added, as in
 * linear.h); work: (2, m) scratch. Allocates nothing. */
int rnn_unroll_backward(const rnn_cell *c, const gsl_matrix *X, const gsl_matrix *H,
                        const gsl_matrix *dH, gsl_matrix *dW, gsl_matrix *dU, gsl_matrix *dX,
                        gsl_matrix *work);

/* Which cells a cell (l, t) of an L-layer stack over N tokens waits for. */
typedef enum {
    STEPS_RECURRENT,      /* (l-1, t) and (l, t-1): a recurrent stack, run as a wavefront */
    STEPS_STACKED,        /* all of layer l-1 at once: a stack without recurrence */
    STEPS_LAYER_BY_LAYER, /* all of layer l-1 and (l, t-1): a recurrent stack whose
                           * layers are run one after the other (no wavefront) */
    STEPS_GENERATED       /* layer l-1 up to token t, and (0, t) waits for (L-1, t-1): a
                           * stack without recurrence that produces its own next input */
} step_rule;

/* Longest chain of dependent steps through the grid of (layer, token) cells
 * under `rule`; -> *steps. INVENT_ERANGE when tokens or layers is 0. */
int sequential_steps(uint64_t tokens, uint64_t layers, step_rule rule, uint64_t *steps);

#endif
