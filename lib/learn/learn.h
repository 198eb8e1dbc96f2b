/* Layer "learn": learning: parameters, finite-difference checks of the
 * backward passes (which live beside their forward passes in the model layer),
 * Adam, training loops and the synthetic tasks of chapter 12. May include
 * core, runtime and model. */
#ifndef INVENT_LAYER_LEARN_H
#define INVENT_LAYER_LEARN_H

#include "adam.h"
#include "fdcheck.h"
#include "gradcheck.h"
#include "learn_bilinear.h"
#include "learn_recall.h"
#include "learn_score.h"
#include "params.h"
#include "tasks.h"
#include "train.h"

#endif
