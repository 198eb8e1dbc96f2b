/* Your file: write the part marked TODO. Grade it: make exercise12b
 * To start over: make reset 12b (which keeps a copy in exercises/.saved/)
 * (made from the reference solution by `make exercise-stubs`) */
/* Exercise 12b (chapter 12): one step of Adam.
 *
 * Plain gradient descent moves every parameter by rate * gradient, so a
 * parameter with tiny gradients barely moves and one with huge gradients
 * jumps. Adam (Kingma and Ba, 2015) keeps, per parameter, running averages
 * of the gradient g and of its square, and steps by their ratio:
 *
 *     m    = beta1 m + (1 - beta1) g          v = beta2 v + (1 - beta2) g^2
 *     mhat = m / (1 - beta1^t)                vhat = v / (1 - beta2^t)
 *     p    = p - rate * mhat / (sqrt(vhat) + eps)
 *
 * where t counts the steps taken, this one included. m and v start at 0,
 * which biases them towards 0 early on; dividing by 1 - beta^t removes the
 * bias, so the very first step moves each parameter by about rate * sign(g).
 *
 * Contract of ex12b_adam_step(opt, ps):
 *   - opt: an optimiser from adam_init (lib/toys/adam.h): opt->rate, beta1, beta2,
 *     eps, opt->steps taken so far, and the moments of parameter k in
 *     opt->moments.value[k] (m) and opt->moments.grad[k] (v);
 *   - ps: the parameters; ps->value[k] and ps->grad[k] of one shape;
 *   - adds one to opt->steps, updates every m, v and parameter as above and
 *     returns INVENT_OK;
 *   - returns INVENT_ESHAPE, changing nothing, when ps does not have the
 *     same number of matrices, of the same shapes, as opt->moments;
 *   - reads the gradients ps->grad[k] only (the caller clears them);
 *     allocates nothing;
 *   - every matrix may be a view whose rows lie further apart than its
 *     width (a tda), of any size.
 * Write it yourself: the grade refuses calls to adam_step; to adamw_step,
 * which is Adam when its weight decay is 0; and to train_run and
 * learn_block_step, which call adam_step (found by walking the library's call
 * graph).
 * Grade: make exercise12b   Hints: make hint 12b (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include "exercises.h"

int ex12b_adam_step(adam *opt, param_set *ps)
{
    /* TODO: replace this placeholder with your code (contract above). */
    (void)opt; (void)ps;
    return INVENT_OK;
}
