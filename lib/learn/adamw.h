/* AdamW (Loshchilov and Hutter, 2019): Adam (Kingma and Ba, 2015) with the
 * weight decay taken out of the gradient and applied to the weights
 * directly, p <- p (1 - rate * lambda), before the Adam step; and gradient
 * clipping by the global norm (Pascanu et al., 2013). Both are written as
 * PyTorch's torch.optim.AdamW and clip_grad_norm_ compute them, so that the
 * two can be compared step for step. */
#ifndef INVENT_ADAMW_H
#define INVENT_ADAMW_H

#include "tensors.h"

typedef struct {
    double beta1, beta2, eps; /* 0.9, 0.95, 1e-8 as in nanoGPT */
    double weight_decay;      /* lambda, for the tensors marked decay */
    unsigned long steps;      /* steps taken so far */
    size_t count;             /* tensors */
    size_t total;             /* numbers, all tensors end to end */
    double *m, *v;            /* (total) first and second moments, float64 tensors */
    float *m32, *v32;         /* (total) the same for float32 tensors (value32) */
} adamw;

/* t: (count) tensors, all float64 or all float32 (tensors.h), lambda >= 0 ->
 * *opt with zero moments of the tensors' precision, one buffer each (beta1
 * 0.9, beta2 0.95, eps 1e-8); INVENT_ERANGE, INVENT_ENOMEM */
int adamw_init(adamw *opt, const tensor_ref *t, size_t count, double weight_decay);

/* values of t <- one AdamW step of size rate along the gradients of t:
 * p <- p (1 - rate lambda) (decayed tensors only); m <- b1 m + (1 - b1) g;
 * v <- b2 v + (1 - b2) g^2; p <- p - rate/(1 - b1^s) m / (sqrt(v)/sqrt(1 - b2^s) + eps) */
int adamw_step(adamw *opt, tensor_ref *t, size_t count, double rate);

void adamw_free(adamw *opt);

/* t: (count) -> every gradient 0 */
void grad_zero(tensor_ref *t, size_t count);

/* t: (count) -> the norm of all gradients together, sqrt(sum g^2), summed in double */
double grad_norm(const tensor_ref *t, size_t count);

/* gradients of t <- scaled by max_norm / (norm + 1e-6) when that is below 1;
 * -> the norm before clipping (PyTorch's clip_grad_norm_) */
double grad_clip(tensor_ref *t, size_t count, double max_norm);

#endif
