/* Layer "learn": training and reading the language models of chapters 13-15:
 * the one training step and its optimiser (AdamW) and schedule, the memory a
 * run takes, generation with a key-value cache, the whole model's gradient
 * check, chapter 14's ablations, recurrent baselines, runs, paired verdicts
 * and compute shares, and chapter 15's readings of a trained model (circuits,
 * head roles, induction, key-value memories, probes). May include core,
 * runtime, model, kernels and data (lib/layers.txt). */
#ifndef INVENT_LAYER_LEARN_H
#define INVENT_LAYER_LEARN_H

#include "ablation.h"
#include "ablation32.h"
#include "adamw.h"
#include "budget_share.h"
#include "circuits.h"
#include "gpt_clone.h"
#include "gpt_gradcheck.h"
#include "head_roles.h"
#include "induction.h"
#include "kv_memory.h"
#include "lm_models.h"
#include "lm_run.h"
#include "paired.h"
#include "probe.h"
#include "recurrent32.h"
#include "recurrent_size.h"
#include "rnn_lm.h"
#include "sample.h"
#include "schedule.h"
#include "train_memory.h"
#include "train_step.h"

#endif
