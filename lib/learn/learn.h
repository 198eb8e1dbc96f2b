/* Layer "learn": learning: parameters, gradients, finite-difference checks,
 * Adam, training loops and the synthetic tasks of chapter 12. May include
 * core, runtime and model. */
#ifndef INVENT_LAYER_LEARN_H
#define INVENT_LAYER_LEARN_H

#include "adam.h"
#include "fdcheck.h"
#include "grad_activation.h"
#include "grad_attention.h"
#include "grad_heads.h"
#include "grad_layernorm.h"
#include "grad_linear.h"
#include "grad_rnn.h"
#include "grad_softmax.h"
#include "grad_xent.h"
#include "gradcheck.h"
#include "learn_bilinear.h"
#include "learn_recall.h"
#include "learn_score.h"
#include "params.h"
#include "tasks.h"
#include "train.h"

#endif
