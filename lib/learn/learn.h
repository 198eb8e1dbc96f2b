/* Layer "learn": learning: parameters, finite-difference checks of the
 * backward passes (which live beside their forward passes in the model layer),
 * Adam, training loops and the synthetic tasks of chapter 12. May include
 * core, runtime and model. */
#ifndef INVENT_LAYER_LEARN_H
#define INVENT_LAYER_LEARN_H

#include "ablation.h"
#include "ablation32.h"
#include "adam.h"
#include "adamw.h"
#include "budget_share.h"
#include "checkpoint.h"
#include "circuits.h"
#include "corpus.h"
#include "corpus_option.h"
#include "fdcheck.h"
#include "gpt_clone.h"
#include "gpt_gradcheck.h"
#include "gradcheck.h"
#include "head_roles.h"
#include "induction.h"
#include "kv_memory.h"
#include "learn_bilinear.h"
#include "lm_models.h"
#include "lm_run.h"
#include "learn_block.h"
#include "learn_recall.h"
#include "learn_score.h"
#include "ngram.h"
#include "paired.h"
#include "params.h"
#include "probe.h"
#include "recurrent32.h"
#include "recurrent_size.h"
#include "rnn_lm.h"
#include "sample.h"
#include "schedule.h"
#include "tasks.h"
#include "text_chapter.h"
#include "train.h"
#include "train_memory.h"
#include "train_step.h"

#endif
