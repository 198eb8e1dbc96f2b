/* Unit tests: a model's copy, and one sequence read through it with every
 * intermediate kept. */
#include <criterion/criterion.h>
#include <math.h>

#include "gpt_clone.h"
#include "layernorm.h"
#include "linear.h"
#include "mat.h"
#include "probe.h"
#include "rng.h"
#include "status.h"

enum { T = 5 };
static const gpt_shape tiny = {.vocab = 7, .context = 6, .dim = 8, .heads = 2, .layers = 2,
                               .hidden = 12, .norm = BLOCK_PRE_NORM};

/* the probe's last stream through the final norm and W_out -> gpt_forward's logits */
static double probe_error(const gpt_weights *w, const gpt_weights *ref, const size_t *x)
{
    gpt_trace *tr = gpt_trace_new(ref, 1, T);
    gpt_probe *p = gpt_probe_new(w, T);
    gsl_matrix *H = gsl_matrix_alloc(T, tiny.dim), *Z = gsl_matrix_alloc(T, tiny.vocab);
    gsl_vector *mean = gsl_vector_alloc(T), *rstd = gsl_vector_alloc(T);
    cr_assert_eq(gpt_forward(ref, x, NULL, tr, NULL), INVENT_OK);
    cr_assert_eq(gpt_probe_run(w, x, p), INVENT_OK);
    cr_assert_eq(layernorm_forward(p->X[tiny.layers], w->gamma, w->beta, w->eps, H,
                                   mean, rstd), INVENT_OK);
    cr_assert_eq(linear_forward(H, w->Wout, w->bout, Z), INVENT_OK);
    double err = mat_max_abs_diff(Z, gpt_logits(tr));
    for (size_t l = 0; l < tiny.layers; l++) /* causal rows summing to 1 */
        for (size_t j = 0; j < tiny.heads; j++) {
            gsl_matrix_const_view A = gpt_probe_attention(p, l, j);
            for (size_t t = 0; t < T; t++) {
                double sum = 0.0;
                for (size_t i = 0; i < T; i++)
                    sum += gsl_matrix_get(&A.matrix, t, i);
                cr_assert_float_eq(sum, 1.0, 1e-12);
                cr_assert_eq(gsl_matrix_get(&A.matrix, 0, T - 1), 0.0);
            }
        }
    gpt_trace_free(tr);
    gpt_probe_free(p);
    gsl_matrix_free(H);
    gsl_matrix_free(Z);
    gsl_vector_free(mean);
    gsl_vector_free(rstd);
    return err;
}

Test(probe, reads_what_the_model_computes_and_the_copy_computes_the_same)
{
    gsl_rng *r = rng_new(9);
    gpt_weights *w = gpt_new(&tiny, r);
    size_t x[T] = {1, 4, 0, 6, 2};
    cr_assert_lt(probe_error(w, w, x), 1e-12);
    gpt_weights *c = gpt_clone(w);
    cr_assert(c);
    cr_assert_lt(probe_error(c, w, x), 1e-12);
    gsl_matrix_set_zero(w->blocks[1]->mlp->W1); /* the copy owns its tensors */
    cr_assert_gt(mat_frobenius(c->blocks[1]->mlp->W1), 0.0);
    cr_assert_null(gpt_probe_new(w, tiny.context + 1));
    gpt_free(c);
    gpt_free(w);
    gsl_rng_free(r);
}
