/* Generation, one token at a time, with a key-value cache: every layer keeps
 * the keys and values of the tokens seen so far, so each new token costs
 * one row of projections and one row of scores per layer instead of a
 * whole forward pass over the prefix (chapter 5's cache, now per layer and
 * head, for keys and values). The step honours every variant gpt_forward
 * computes: each head scores as the forward pass does (mha_head_weights: the
 * scaled product or the additive score, heads of any size), and each block's
 * norms and skips are where its flags put them. It is always causal, as
 * evaluation is: a block told to see the future (an ablation's training)
 * cannot, since the future is not generated yet. */
#ifndef INVENT_SAMPLE_H
#define INVENT_SAMPLE_H

#include <stddef.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "gpt.h"

typedef struct {
    gpt_shape shape;      /* the sizes of the model it was made for */
    size_t len;           /* tokens cached so far (at most T_max) */
    gsl_matrix **K, **V;  /* per layer (T_max, H dk), (T_max, H dv): row i holds token i's
                           * keys or values, head j in column block j */
    gsl_matrix *x, *h, *a, *f; /* (1, d) rows: one token's scratch */
    gsl_matrix *q, *heads; /* (1, H dk) its queries, (1, H dv) its heads' outputs side by side */
    mlp_trace *mlp;       /* (1, m): the MLP's hidden units for that token */
    gsl_vector *weights;  /* (T_max): one head's attention weights */
} gpt_cache;

/* K, V: (n, dk) one head's cached keys and values, the new token's in row n - 1; q: (dk)
 * its query; s: (n) room for the weights -> out: (dk) = sum_i w_i v_i with
 * w = softmax(K q / sqrt(dk)) (left in s); INVENT_ESHAPE when a size differs. One
 * scaled-product head's step, written out as chapter 13 derives it and exercise 13
 * asks for it (its grader's reference); gpt_cache_step scores through
 * mha_head_weights instead, so that every variant's score is the forward pass's. */
int cache_attend(const gsl_matrix *K, const gsl_matrix *V, const gsl_vector *q, gsl_vector *s,
                 gsl_vector *out);

/* w -> an empty cache for up to T_max tokens, sized for w's heads, or NULL */
gpt_cache *gpt_cache_new(const gpt_weights *w);
void gpt_cache_free(gpt_cache *c);

/* token at position c->len -> logits: (V) for the token after it, those of
 * gpt_forward's row c->len on the tokens so far; the token's keys and values
 * join the cache. Refused before anything is written: INVENT_ESHAPE when c was
 * made for a model of other sizes (its shape, or any layer's heads), INVENT_ERANGE
 * when the cache is full or a block of w sees the future (set by a no-mask
 * ablation while it trains: ablated_prepare(m, 0) first) */
int gpt_cache_step(const gpt_weights *w, gpt_cache *c, size_t token, gsl_vector *logits);

/* logits: (V), temperature > 0, top_k (0: all V), r -> a token drawn from
 * softmax(logits / temperature) restricted to the top_k largest logits */
size_t sample_token(const gsl_vector *logits, double temperature, size_t top_k, gsl_rng *r);

/* seq: (len >= 1) tokens, c holding those before seq[len - 1] since its last refill ->
 * logits: (V) for the token after seq[len - 1], which joins the cache; when the cache
 * is full, it is refilled with the last T_max / 2 tokens instead (positions are learned
 * per index, so keys cannot be shifted). INVENT_ERANGE when len is 0 */
int gpt_generate_next(const gpt_weights *w, gpt_cache *c, const size_t *seq, size_t len,
                      gsl_vector *logits);

/* prompt: (n_prompt >= 1) tokens -> out: (n) tokens that follow it, each drawn
 * from the logits of gpt_generate_next (a prompt longer than T_max starts
 * the cache at its last T_max / 2 tokens). */
int gpt_generate(const gpt_weights *w, gpt_cache *c, const size_t *prompt, size_t n_prompt,
                 size_t n, double temperature, size_t top_k, gsl_rng *r, size_t *out);

#endif
