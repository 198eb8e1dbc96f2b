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
    /* BEGIN SOLUTION */
    /* stub: (void)opt; (void)ps; */
    /* stub: return INVENT_OK; */
    if (ps->n != opt->moments.n)
        return INVENT_ESHAPE;
    for (size_t k = 0; k < ps->n; k++)
        if (ps->value[k]->size1 != opt->moments.value[k]->size1 ||
            ps->value[k]->size2 != opt->moments.value[k]->size2)
            return INVENT_ESHAPE;
    opt->steps++;
    double fix1 = 1.0 - pow(opt->beta1, (double)opt->steps);
    double fix2 = 1.0 - pow(opt->beta2, (double)opt->steps);
    for (size_t k = 0; k < ps->n; k++) {
        gsl_matrix *p = ps->value[k], *g = ps->grad[k];
        gsl_matrix *m = opt->moments.value[k], *v = opt->moments.grad[k];
        for (size_t i = 0; i < p->size1; i++)
            for (size_t j = 0; j < p->size2; j++) {
                double gij = gsl_matrix_get(g, i, j);
                double mij = opt->beta1 * gsl_matrix_get(m, i, j) + (1.0 - opt->beta1) * gij;
                double vij = opt->beta2 * gsl_matrix_get(v, i, j) + (1.0 - opt->beta2) * gij * gij;
                gsl_matrix_set(m, i, j, mij);
                gsl_matrix_set(v, i, j, vij);
                double step = opt->rate * (mij / fix1) / (sqrt(vij / fix2) + opt->eps);
                gsl_matrix_set(p, i, j, gsl_matrix_get(p, i, j) - step);
            }
    }
    return INVENT_OK;
    /* END SOLUTION */
}
