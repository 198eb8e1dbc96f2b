/* Layer "stats": the statistics of an experiment over paired seeds (chapter
 * 14): the paired mean difference with its Student-t interval and a verdict
 * against a margin fixed in advance, and the compute equivalent read off a
 * model trained on parts of its budget. May include core (lib/layers.txt). */
#ifndef INVENT_LAYER_STATS_H
#define INVENT_LAYER_STATS_H

#include "budget_share.h"
#include "paired.h"

#endif
