/* Inventing the Transformer, in C: the core library, in nine layers (lowest
 * first). This header gathers every layer's public headers (each layer's
 * umbrella); a chapter, an exercise or a test includes it, and may also name a
 * header it leans on, for its reader. A file inside lib/ includes the headers
 * it needs, from its own layer or one that lib/layers.txt lets it include (the
 * compiler and scripts/check-layers.sh refuse any other). */
#ifndef INVENT_H
#define INVENT_H

/* ---- core: numbers and files --------------------------------------------- */
#include "core.h"

/* ---- stats: paired intervals and verdicts, compute shares ----------------- */
#include "stats.h"

/* ---- runtime: options, narration, claims, figures ------------------------ */
#include "runtime.h"

/* ---- kernels: float32 attention at speed --------------------------------- */
#include "kernels.h"

/* ---- model: the derivation's pieces -------------------------------------- */
#include "model.h"

/* ---- data: corpora, counting baselines, checkpoints ---------------------- */
#include "data.h"

/* ---- toys: the small learners of chapters 10 and 12, gradient checks ----- */
#include "toys.h"

/* ---- inspect: a trained model read back ------------------------------------ */
#include "inspect.h"

/* ---- learn: training the language models ---------------------------------- */
#include "learn.h"

#endif
