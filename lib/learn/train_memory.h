/* The memory a training run of the chapter-13 model takes, computed from
 * its sizes before any of it is allocated, so that chapters 13 and 14 and
 * bench-train refuse the size combinations that would not fit (as chapters
 * 9 and 11 and the kernels' benchmark do) instead of running out of memory
 * halfway. */
#ifndef INVENT_TRAIN_MEMORY_H
#define INVENT_TRAIN_MEMORY_H

#include <stddef.h>

#include "cli.h"
#include "gpt.h"

/* The most a run may take (4 GiB): the defaults and --full take under
 * 0.2 GiB; the largest sizes each option allows, together, over 40 GiB. */
#define TRAIN_MEMORY_BUDGET ((size_t)4 << 30)

/* shape, B sequences of T tokens, `copies` full sets of the weights
 * (weights, gradients, moments, clones) and `traces` forward/backward
 * traces -> an upper bound on the bytes, in float64: per token and layer
 * the stream, its norms, q k v, the attention output and its projection,
 * the MLP's two hidden layers (16 d + 3 m) and three rows of T scores per
 * head; per token the logits and their gradient; SIZE_MAX on overflow */
size_t train_memory_bytes(const gpt_shape *shape, size_t B, size_t T, size_t copies,
                          size_t traces);

/* o, shape, B, T, copies, traces as above, who: "the chapter" -> CLI_RUN while
 * the run fits TRAIN_MEMORY_BUDGET, else exit code 2 after one line naming
 * the sizes (cli_fail) */
int train_memory_refuse(const invent_opts *o, const gpt_shape *shape, size_t B, size_t T,
                        size_t copies, size_t traces, const char *who);

#endif
