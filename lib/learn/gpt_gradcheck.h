/* The whole model's backward pass against central finite differences: for
 * every tensor of the model, nudge its entries (all, or those of largest
 * gradient, as many drawn at random, and one entry in every row of the two
 * embeddings) by +-h, run the forward pass,
 * and compare (L(p+h) - L(p-h)) / 2h with the gradient that gpt_backward
 * returned. */
#ifndef INVENT_GPT_GRADCHECK_H
#define INVENT_GPT_GRADCHECK_H

#include <gsl/gsl_rng.h>

#include "gpt.h"

/* w, the batch x, y: (B*T) that tr was made for, g: the gradient gpt_backward
 * gave at w, samples: how many entries per tensor of largest |g| (they set the
 * scale), as many drawn at random from r, and one random entry in every row of
 * tok_emb and pos_emb (position 0 and every symbol included; samples 0: every
 * entry of every tensor, r unused),
 * h -> the worst, over tensors, of ||g - g_fd|| / max(||g||, ||g_fd||) on the
 * entries checked (0 when both vanish); NaN if a forward pass fails. w is
 * restored exactly; the same r state picks the same entries. */
double gpt_gradcheck(gpt_weights *w, gpt_weights *g, const size_t *x, const size_t *y,
                     gpt_trace *tr, size_t samples, double h, gsl_rng *r);

#endif
