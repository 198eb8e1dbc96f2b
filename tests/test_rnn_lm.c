/* Unit tests: the recurrent character model's gradient of every tensor against
 * central finite differences, and its size matched to a parameter count. */
#include <criterion/criterion.h>
#include <math.h>

#include "fdcheck.h"
#include "rng.h"
#include "rnn_lm.h"
#include "status.h"

typedef struct {
    rnn_lm *w;
    rnn_lm_trace *tr;
    const size_t *x, *y;
} fd_ctx;

static double loss_of(void *p)
{
    fd_ctx *c = p;
    double loss;
    return rnn_lm_forward(c->w, c->x, c->y, c->tr, &loss) == INVENT_OK ? loss : NAN;
}

Test(rnn_lm, every_gradient_agrees_with_finite_differences)
{
    enum { V = 6, m = 5, B = 2, T = 7 };
    gsl_rng *r = rng_new(5);
    rnn_lm *w = rnn_lm_new(V, m, r), *g = rnn_lm_zeros(V, m);
    gsl_matrix_scale(w->Wout, 50.0); /* a read-out large enough to send gradients back */
    rnn_lm_trace *tr = rnn_lm_trace_new(w, B, T);
    size_t x[B * T], y[B * T];
    for (size_t i = 0; i < B * T; i++) {
        x[i] = gsl_rng_uniform_int(r, V);
        y[i] = gsl_rng_uniform_int(r, V);
    }
    fd_ctx c = {w, tr, x, y};
    double loss;
    cr_assert_eq(rnn_lm_forward(w, x, y, tr, &loss), INVENT_OK);
    cr_assert_eq(rnn_lm_backward(w, x, y, tr, g), INVENT_OK);
    tensor_ref tw[RNN_LM_TENSORS], tg[RNN_LM_TENSORS];
    rnn_lm_tensors(w, g, tw);
    rnn_lm_tensors(g, NULL, tg);
    for (size_t k = 0; k < RNN_LM_TENSORS; k++) {
        gsl_matrix_view P = gsl_matrix_view_array(tw[k].value, tw[k].shape[0], tw[k].shape[1]);
        gsl_matrix_view G = gsl_matrix_view_array(tg[k].value, tw[k].shape[0], tw[k].shape[1]);
        double e = fdcheck_matrix(loss_of, &c, &P.matrix, &G.matrix, 1e-5);
        cr_log_info("%s: relative error %.2e", tw[k].name, e);
        cr_assert(e < 1e-7, "%s: relative error %g", tw[k].name, e);
    }
    rnn_lm_trace_free(tr);
    rnn_lm_free(w);
    rnn_lm_free(g);
    gsl_rng_free(r);
}

Test(rnn_lm, the_state_size_matches_a_parameter_count)
{
    cr_assert_eq(rnn_lm_param_count(114, 84), 33378);
    cr_assert_eq(rnn_lm_state_for(114, 33650), 84); /* 33,378 against 33,944 for 85 */
    cr_assert_eq(rnn_lm_state_for(114, 33944), 85);
    cr_assert_eq(rnn_lm_state_for(114, 10), 1);
}

/* rnn_lm_new draws and needs a generator; rnn_lm_zeros is the zeroed model, room for
 * gradients */
Test(rnn_lm, new_needs_a_generator_and_zeros_are_zero)
{
    gsl_rng *r = rng_new(3);
    cr_assert_null(rnn_lm_new(5, 4, NULL));
    rnn_lm *z = rnn_lm_zeros(5, 4), *w = rnn_lm_new(5, 4, r);
    cr_assert(z && w);
    cr_assert(gsl_matrix_isnull(z->E) && gsl_matrix_isnull(z->cell->W) &&
              gsl_matrix_isnull(z->cell->U) && gsl_matrix_isnull(z->Wout));
    cr_assert(!gsl_matrix_isnull(w->E) && !gsl_matrix_isnull(w->cell->W) &&
              !gsl_matrix_isnull(w->Wout));
    rnn_lm_free(z);
    rnn_lm_free(w);
    gsl_rng_free(r);
}
