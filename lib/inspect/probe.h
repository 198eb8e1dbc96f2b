/* One sequence through a trained model with every intermediate kept, to read
 * the model rather than to train it: X_0 = E[ids] + P, then each block with
 * its trace (the attention weights of every head, the MLP's activations). */
#ifndef INVENT_PROBE_H
#define INVENT_PROBE_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

#include "gpt.h"

typedef struct {
    size_t T, L;
    gsl_matrix **X;    /* L + 1 of (T, d): the stream before each block, and after the last */
    block_trace **blk; /* L: block l's intermediates over the sequence */
} gpt_probe;

/* w, T <= T_max -> room for one sequence of T tokens, or NULL */
gpt_probe *gpt_probe_new(const gpt_weights *w, size_t T);
void gpt_probe_free(gpt_probe *p);

/* ids: (T) -> p filled: the streams and every block's trace (each block with its own mask flag) */
int gpt_probe_run(const gpt_weights *w, const size_t *ids, gpt_probe *p);

/* p after a run, block l, head j -> view (T, T): row t holds query t's weights
 * (GSL's public const view; on the pragma, see heads.h) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
gsl_matrix_const_view gpt_probe_attention(const gpt_probe *p, size_t l, size_t j);
#pragma GCC diagnostic pop

#endif
