/* The models chapter 14 trains, as lm_run (lm_run.h) takes them: the float32
 * GPT with one choice of the derivation taken out (ablation32.h) and the
 * float32 recurrent cells (recurrent32.h). Each keeps its own model; the
 * lm_model only points at it. */
#ifndef INVENT_LM_MODELS_H
#define INVENT_LM_MODELS_H

#include "ablation32.h"
#include "lm_run.h"
#include "recurrent32.h"

/* m -> the model as lm_run trains it: m->training's pass, always causal when evaluated */
lm_model lm_model_gpt(ablated32 *m);

/* m -> the recurrent cell as lm_run trains it */
lm_model lm_model_cell(recurrent32 *m);

#endif
