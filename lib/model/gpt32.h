/* Chapter 13's GPT (gpt.h) on the float32 training path, laid out as llm.c
 * lays out GPT-2 (Karpathy, 2024): every weight in one buffer and every
 * gradient in another, in gpt_layout's order (so that tensor k of the one
 * list names the same numbers in both paths); activations as (B, T, C)
 * arrays sized once for a batch; every layer's forward and backward pass
 * over the whole batch at once (layers32.h; attention fused, attn_train.h);
 * gradients always added; nothing allocated after gpt32_new. The same model
 * as the float64 path: pre- or post-norm blocks, ReLU MLPs, causal heads
 * (or none, see_future), a final norm and a read-out. A variant changes the
 * blocks as chapter 14's ablations do (ablation32.h): queries and keys of
 * another head size, another score scale, no MLP, the additive score
 * (additive32.h) with its b and v listed after gpt_layout's tensors. */
#ifndef INVENT_GPT32_H
#define INVENT_GPT32_H

#include <stddef.h>

#include "gpt.h"
#include "tensors.h"

typedef struct gpt32_acts gpt32_acts;

/* How the blocks score a query against a key. */
typedef enum {
    GPT32_DOT,      /* scale q . k (Vaswani et al., 2017) */
    GPT32_ADDITIVE, /* v . tanh(q + k + b) (Bahdanau et al., 2015), additive32.h */
} gpt32_score;

/* The blocks' attention and MLP; all 0: chapter 13's model. */
typedef struct {
    gpt32_score score;
    size_t dk;   /* head size of the queries and keys; 0: dim / heads (the values' size) */
    float scale; /* the dot score's scale; 0: 1/sqrt(dk) */
    int no_mlp;  /* 1: every block's MLP is left out (its output 0, as with zero weights) */
} gpt32_variant;

typedef struct {
    gpt_shape shape;
    size_t B, T;       /* the batch the activations hold */
    size_t count;      /* tensors: gpt_tensor_count, + 2 L with the additive score */
    tensor_ref *t;     /* gpt_layout's list, then with the additive score l<l>.add_b and
                        * l<l>.add_v (H, dh) of each block (ablation.h's names); value32
                        * and grad32 into params and grads */
    size_t n;          /* numbers learned */
    float *params;     /* (n) */
    float *grads;      /* (n) */
    float eps;         /* the norms' epsilon (block_new's; gpt32_from64 copies w's) */
    int see_future;    /* 0: causal attention; 1: none (chapter 14's ablation) */
    gpt32_variant v;   /* the blocks' variant: v.dk fixed by gpt32_new_variant, v.scale and
                          v.no_mlp free to change between passes */
    int workers;       /* threads of the layers (workers.h); may be changed between passes */
    gpt32_acts *a;
} gpt32;

/* shape, B, T <= T_max -> the model with every number 0 and room for one batch,
 * or NULL (no memory, sizes gpt_new refuses, a bad INVENT_THREADS) */
gpt32 *gpt32_new(const gpt_shape *shape, size_t B, size_t T);

/* shape, v, B, T -> as gpt32_new, with the blocks of variant v: W_q and W_k
 * are then (H dk, dim) each (gpt_layout's shapes otherwise); NULL also for a
 * negative or infinite scale, or an additive score with a scale or dk other
 * than dim / heads */
gpt32 *gpt32_new_variant(const gpt_shape *shape, const gpt32_variant *v, size_t B, size_t T);
void gpt32_free(gpt32 *m);

/* w: float64 weights of m's shape (and tensor sizes, and an additive score
 * where m has one) -> m's weights, each rounded to float32, and m's epsilon
 * w's; INVENT_ERANGE when w's norms have different epsilons (m holds one) */
int gpt32_from64(gpt32 *m, const gpt_weights *w);

/* m -> w: float64 weights of m's shape, each m's number exactly (w's epsilons,
 * kept in double, are left as they are) */
int gpt32_to64(const gpt32 *m, gpt_weights *w);

/* x: (B*T) tokens, y: (B*T) next tokens or NULL -> the logits (gpt32_logits)
 * and, with y, *loss: the mean cross-entropy */
int gpt32_forward(gpt32 *m, const size_t *x, const size_t *y, double *loss);

/* -> (B*T, V) the logits of the last forward pass */
const float *gpt32_logits(const gpt32 *m);

/* -> (B*T) each position's cross-entropy in the last forward pass given next tokens */
const double *gpt32_token_losses(const gpt32 *m);

/* right after gpt32_forward(m, x, y, .): m->grads += the gradient of the loss */
int gpt32_backward(gpt32 *m, const size_t *x, const size_t *y);

/* model: a gpt32 -> gpt32_forward, gpt32_backward, as train_step (train_step.h) takes them */
int gpt32_train_forward(void *model, const size_t *x, const size_t *y, double *loss);
int gpt32_train_backward(void *model, const size_t *x, const size_t *y);

#endif
