/* Layer "model": the pieces of the derivation in double precision: the recurrent
 * cell, scores, weights made on the fly, the bilinear form and its factors,
 * softmax and mask, attention, heads, the MLP, layer norm, the block, and the
 * GPT that stacks it (gpt.h) with its list of named tensors (tensors.h); and
 * the same GPT in float32 for training (gpt32.h), on the kernels' products and
 * fused attention. May include core and kernels (lib/layers.txt). */
#ifndef INVENT_LAYER_MODEL_H
#define INVENT_LAYER_MODEL_H

#include "activation.h"
#include "additive.h"
#include "attention.h"
#include "bilinear.h"
#include "block.h"
#include "decode.h"
#include "dynamic_weights.h"
#include "embedding.h"
#include "factor.h"
#include "gpt.h"
#include "gpt32.h"
#include "heads.h"
#include "kvcache.h"
#include "layernorm.h"
#include "linear.h"
#include "mask.h"
#include "mlp.h"
#include "permute.h"
#include "position.h"
#include "recall.h"
#include "rnn.h"
#include "score.h"
#include "softmax.h"
#include "softmax_jacobian.h"
#include "tensors.h"
#include "weight_family.h"
#include "xent.h"

#endif
