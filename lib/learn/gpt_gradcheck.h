/* The whole model's backward pass against central finite differences: for
 * every tensor of the model, nudge its entries (all, or those of largest
 * gradient, as many drawn at random, and one entry in every row of the two
 * embeddings) by +-h, run the forward pass,
 * and compare (L(p+h) - L(p-h)) / 2h with the gradient that gpt_backward
 * returned; entries where the step h crosses a ReLU's kink are left out. */
#ifndef INVENT_GPT_GRADCHECK_H
#define INVENT_GPT_GRADCHECK_H

#include <gsl/gsl_rng.h>

#include "gpt.h"

/* How gpt_gradcheck nudges and judges. */
typedef struct {
    size_t samples; /* entries per tensor of largest |g| (they set the scale), as many drawn
                     * at random, and one random entry in every row of tok_emb and pos_emb
                     * (position 0 and every symbol included); 0: every entry of every tensor */
    double h;       /* the step of the central differences */
    double tol;     /* the relative error the caller will accept (> 0) */
    double noise;   /* a central difference's rounding noise per entry (>= 0) */
} gpt_fd_opts;

/* w, the batch x, y: (B*T) that tr was made for, g: the gradient gpt_backward
 * gave at w, o, r (unused when o->samples is 0) -> the worst, over tensors, of
 *     ||g - g_fd|| / max(||g||, ||g_fd||, sqrt(m) o->noise / o->tol)
 * on the m entries compared (0 when all vanish): a tensor whose gradient is as
 * small as the rounding noise is measured against the noise, where a relative
 * error would mean nothing. An entry whose differences at h and h/2 disagree
 * by more than o->tol (relative, or the noise) straddles a ReLU's kink: the
 * loss is not smooth there, it is left out and counted in *kinks. NaN if a
 * forward pass fails. w is restored exactly; the same r state picks the same
 * entries. */
double gpt_gradcheck(gpt_weights *w, gpt_weights *g, const size_t *x, const size_t *y,
                     gpt_trace *tr, const gpt_fd_opts *o, gsl_rng *r, size_t *kinks);

#endif
