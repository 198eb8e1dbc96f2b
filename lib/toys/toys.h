/* Layer "toys": the small learners of chapters 10 and 12, trained from
 * scratch on seeded tasks: parameters kept as a list of matrices, Adam, the
 * training loop with its curves, the tasks, the models that learn a score, a
 * bilinear form, recall and one block; and the finite-difference check of
 * every hand-written backward pass of the model layer. May include core,
 * runtime and model (lib/layers.txt).
 * Its training loop is not lib/learn's, on purpose: these learners take a
 * minibatch one example (a matrix) per forward pass, with held-out curves and
 * early stopping, and step with Adam as Kingma and Ba (2015) write it, the form
 * exercise 12b asks for; lib/learn's train_step takes batches of tokens and
 * steps with AdamW in PyTorch's order of operations, with clipping, a schedule
 * and float32 moments. Without decay the two optimisers are one method, and a
 * unit test holds them to rounding of each other (test_adamw.c). */
#ifndef INVENT_LAYER_TOYS_H
#define INVENT_LAYER_TOYS_H

#include "adam.h"
#include "fdcheck.h"
#include "gradcheck.h"
#include "learn_bilinear.h"
#include "learn_block.h"
#include "learn_recall.h"
#include "learn_score.h"
#include "params.h"
#include "tasks.h"
#include "train.h"

#endif
