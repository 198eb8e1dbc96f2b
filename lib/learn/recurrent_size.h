/* The recurrent baselines sized to the GPT they are compared with, as Kaplan
 * et al. (2020) count a model: by its non-embedding parameters and by its
 * forward compute per token, the embeddings and the read-out left out on both
 * sides (their size is set by the vocabulary, not by the model's capacity).
 *   GPT (gpt.h), L layers of width d, context T:
 *     N_gpt = every learned number but tok_emb (V d), pos_emb (T d), Wout (V d)
 *             and bout (V): the blocks and the final norm, about 12 L d^2
 *     C_gpt = 2 N_gpt + 2 L d (T + 1) multiply-add FLOPs per token: each weight
 *             once, and attention's scores and weighted values, 4 t d a layer
 *             at position t (t keys), averaged over t = 1..T
 *   recurrent cell (recurrent32.h) with input width e and state m:
 *     Elman: N = m e + m^2 + m            (U, W, b)
 *     GRU:   N = 3 m e + 3 m^2 + 6 m      (U, W, bx, bh; gates r, z, n)
 *     C = 2 N per token (its pointwise part, O(m), left out)
 * The state for equal parameters solves N(m) = N_gpt; for equal compute
 * 2 N(m) = C_gpt, N(m) = N_gpt + L d (T + 1): the two differ by the
 * attention's share, which grows with the context. */
#ifndef INVENT_RECURRENT_SIZE_H
#define INVENT_RECURRENT_SIZE_H

#include <stddef.h>

#include "gpt.h"
#include "recurrent32.h"

/* s -> N_gpt, the GPT's non-embedding parameters */
size_t recurrent_gpt_params(const gpt_shape *s);

/* s -> C_gpt, its forward FLOPs per token at its full context */
double recurrent_gpt_flops(const gpt_shape *s);

/* cell, e, m -> N, the cell's parameters (the recurrent model's non-embedding ones) */
size_t recurrent_cell_params(recurrent_cell cell, size_t e, size_t m);

/* cell, e, target -> the state m >= 1 whose N(m) is nearest to target */
size_t recurrent_state_for(recurrent_cell cell, size_t e, size_t target);

/* The states that match a GPT. */
typedef struct {
    size_t params;  /* m with N(m) nearest N_gpt */
    size_t compute; /* m with 2 N(m) nearest C_gpt */
} recurrent_match;

/* cell, e, s -> both states for the GPT of shape s */
recurrent_match recurrent_match_gpt(recurrent_cell cell, size_t e, const gpt_shape *s);

#endif
