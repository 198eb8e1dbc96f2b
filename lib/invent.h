/* Inventing the Transformer, in C: the core library, one header per concept.
 * A chapter includes this one header. */
#ifndef INVENT_H
#define INVENT_H

#include "activation.h"
#include "attention.h"
#include "bilinear.h"
#include "block.h"
#include "chapter.h"
#include "check.h"
#include "cli.h"
#include "count.h"
#include "dump.h"
#include "dynamic_weights.h"
#include "factor.h"
#include "grid.h"
#include "heads.h"
#include "kvcache.h"
#include "layernorm.h"
#include "linalg.h"
#include "linear.h"
#include "mask.h"
#include "mat.h"
#include "mlp.h"
#include "npy.h"
#include "permute.h"
#include "plot.h"
#include "recall.h"
#include "report.h"
#include "rng.h"
#include "rnn.h"
#include "score.h"
#include "softmax.h"
#include "status.h"
#include "weight_family.h"

#endif
