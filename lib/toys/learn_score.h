/* Two score functions as classifiers of a pair (x_i, x_L) of scalars
 * (chapter 12, claim L3). Each reads its score s(x_i, x_L) as the logit of
 * class 1 against a constant 0 for class 0, plus a learned offset c:
 *  - product:  s = (W_q x_L) . (W_k x_i), W_q, W_k: (h, 1), the dot-product
 *              score of attention (lib/model/score.h, attn_product_score);
 *  - additive: s = v . tanh(W_1 x_i + W_2 x_L), W_1, W_2: (h, 1), v: (h), the
 *              additive score of Bahdanau et al. (2015) (attn_additive_score),
 *              an odd function of (x_i, x_L);
 *  - additive with a bias: s = v . tanh(W_1 x_i + W_2 x_L + b), b: (h), no
 *              longer odd;
 *  - self-product: s = (W_q x_L) . (W_k x_L), the product with both factors
 *              read from the receiver: a quadratic, but no interaction with x_i
 *              (the near miss of the product). */
#ifndef INVENT_LEARN_SCORE_H
#define INVENT_LEARN_SCORE_H

#include <gsl/gsl_rng.h>

#include "train.h"

typedef enum { SCORE_PRODUCT, SCORE_ADDITIVE, SCORE_ADDITIVE_BIAS, SCORE_SELF_PRODUCT } score_kind;

/* kind, h hidden units -> *out, a model of x: (1, 2) = (x_i, x_L) with logits
 * (0, s + c): 2h + 1 parameters (product, self-product), 3h + 1 (additive) or 4h + 1 (with
 * the bias) */
int learn_score(score_kind kind, size_t h, gsl_rng *r, train_model *out);

#endif
