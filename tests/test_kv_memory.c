/* Unit tests: the MLP read as a key-value memory. */
#include <criterion/criterion.h>
#include <math.h>

#include "kv_memory.h"
#include "rng.h"
#include "status.h"

Test(kv_memory, top_positions_and_most_active_units)
{
    double f[] = {0, 5, 1, /* rows: positions, columns: units */
                  3, 4, 0,
                  1, 6, 0,
                  2, 5, 9};
    gsl_matrix_view F = gsl_matrix_view_array(f, 4, 3);
    size_t top[2], units[2];
    cr_assert_eq(kv_top_positions(&F.matrix, 0, 2, top), INVENT_OK);
    cr_assert(top[0] == 1 && top[1] == 3);
    cr_assert_eq(kv_most_active(&F.matrix, 2, units), INVENT_OK);
    cr_assert(units[0] == 1 && units[1] == 2);
    cr_assert_eq(kv_top_positions(&F.matrix, 3, 2, top), INVENT_ESHAPE);
}

Test(kv_memory, agreement_is_the_share_of_the_commonest)
{
    size_t a[] = {4, 2, 4, 4, 1, 2, 4, 0};
    cr_assert_float_eq(kv_agreement(a, 8), 0.5, 1e-15);
    size_t b[] = {1, 2, 3};
    cr_assert_float_eq(kv_agreement(b, 3), 1.0 / 3.0, 1e-15);
}

/* the value through the final norm's centring and gain and W_out */
Test(kv_memory, value_logits_follow_the_output_layer)
{
    gsl_rng *r = rng_new(3);
    gpt_shape s = {.vocab = 5, .context = 4, .dim = 4, .heads = 2, .layers = 2, .hidden = 6,
                   .norm = BLOCK_PRE_NORM};
    gpt_weights *w = gpt_new(&s, r);
    for (size_t c = 0; c < s.dim; c++)
        gsl_vector_set(w->gamma, c, 1.0 + c);
    gsl_vector *z = gsl_vector_alloc(s.vocab);
    cr_assert_eq(kv_value_logits(w, 1, 3, z), INVENT_OK);
    const gsl_matrix *W2 = w->blocks[1]->mlp->W2;
    double mean = 0.0;
    for (size_t c = 0; c < s.dim; c++)
        mean += gsl_matrix_get(W2, c, 3) / s.dim;
    for (size_t v = 0; v < s.vocab; v++) {
        double want = 0.0;
        for (size_t c = 0; c < s.dim; c++)
            want += gsl_matrix_get(w->Wout, v, c) * (1.0 + c) * (gsl_matrix_get(W2, c, 3) - mean);
        cr_assert_float_eq(gsl_vector_get(z, v), want, 1e-14);
    }
    cr_assert_eq(kv_value_logits(w, 2, 0, z), INVENT_ESHAPE);
    gsl_vector_free(z);
    gpt_free(w);
    gsl_rng_free(r);
}
