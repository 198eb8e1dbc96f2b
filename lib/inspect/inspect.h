/* Layer "inspect": reading a trained model back (chapter 15): each block's
 * circuits W_QK and W_OV, what each head attends to, the MLP's units as
 * key-value memories, induction heads, and the probe that runs one sequence
 * through the model and keeps every head's weights. May include core and
 * model (lib/layers.txt). */
#ifndef INVENT_LAYER_INSPECT_H
#define INVENT_LAYER_INSPECT_H

#include "circuits.h"
#include "head_roles.h"
#include "induction.h"
#include "kv_memory.h"
#include "probe.h"

#endif
