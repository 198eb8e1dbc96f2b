/* One Transformer block (lib/model/block.h) with a linear read-out at chosen
 * positions, trained with Adam on whole sequences: the learner of chapter
 * 10's T2. Any tensor can be frozen at the value the caller gives it (W_o
 * held at the identity, W_q at zero, W2 at zero), and the block's own
 * flags (the mask, the skips) set before training, so that each part of
 * the block can be taken out and the rest trained without it. */
#ifndef INVENT_LEARN_BLOCK_H
#define INVENT_LEARN_BLOCK_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

#include "block.h"

typedef struct learn_block learn_block;

/* d, heads (dividing d), hidden units, classes, Adam's rate -> a block from
 * block_new with a read-out W_out: (classes, d) ~ N(0, 1/d), b_out = 0; NULL on no
 * memory or sizes that do not fit */
learn_block *learn_block_new(size_t d, size_t heads, size_t hidden, size_t classes, double rate,
                             gsl_rng *r);
void learn_block_free(learn_block *m);

/* -> the block's weights, to set values or flags before training */
block_weights *learn_block_weights(learn_block *m);

/* tensor k of block_tensors' order (0: W_q, 1: W_k, 2: W_v, 3: W_o, ..., 8: W2, 9: b2)
 * -> held at its present value from now on; INVENT_ERANGE for k >= BLOCK_TENSORS */
int learn_block_freeze(learn_block *m, size_t k);

/* X: (T, d), at: n positions, y: n classes -> *loss: mean cross-entropy of the read-out
 * at those positions, *right: how many have the right class on top (either may be
 * NULL); train: the gradients are added to the ones held for the next step */
int learn_block_pass(learn_block *m, const gsl_matrix *X, const size_t *at, const size_t *y,
                     size_t n, int train, double *loss, size_t *right);

/* one Adam step along the gradients held (frozen tensors stay), which are then zeroed */
int learn_block_step(learn_block *m);

#endif
