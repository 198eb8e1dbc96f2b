/* Layer "learn": training the language models of chapters 13-15: the one
 * training step and its optimiser (AdamW) and schedule, the memory a run
 * takes, a run from its plan to its held-out loss, generation with a
 * key-value cache, the whole model's gradient check, and the models chapter
 * 14 trains beside the full one (its ablations, on the float64 and float32
 * paths, and the recurrent baselines at equal size). May include core,
 * runtime, model, kernels and data (lib/layers.txt). */
#ifndef INVENT_LAYER_LEARN_H
#define INVENT_LAYER_LEARN_H

#include "ablation.h"
#include "ablation32.h"
#include "adamw.h"
#include "gpt_clone.h"
#include "gpt_gradcheck.h"
#include "lm_models.h"
#include "lm_run.h"
#include "recurrent32.h"
#include "recurrent_size.h"
#include "rnn_lm.h"
#include "sample.h"
#include "schedule.h"
#include "train_memory.h"
#include "train_step.h"

#endif
