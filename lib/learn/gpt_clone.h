/* A deep copy of a model's weights, to keep a trained model after the run
 * that trained it has been freed (chapter 14 reads its trained models back). */
#ifndef INVENT_GPT_CLONE_H
#define INVENT_GPT_CLONE_H

#include "gpt.h"

/* w -> a copy with w's tensor shapes (also a free-A model's widened heads) and
 * each block's flags, or NULL when out of memory */
gpt_weights *gpt_clone(const gpt_weights *w);

#endif
