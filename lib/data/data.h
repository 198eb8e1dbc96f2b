/* Layer "data": the text and the models on disk: a corpus read whole under
 * a size limit, with its alphabet and held-out split, and the --corpus option
 * that loads it before any work; the counting models (bigram, trigram) a
 * trained model must beat; checkpoints, saved atomically and checked when read;
 * and the opening that chapters learning from a text share. May include core,
 * runtime and model (lib/layers.txt). */
#ifndef INVENT_LAYER_DATA_H
#define INVENT_LAYER_DATA_H

#include "checkpoint.h"
#include "corpus.h"
#include "corpus_option.h"
#include "ngram.h"
#include "text_chapter.h"

#endif
