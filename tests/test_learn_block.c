/* Unit tests: the block learner of chapter 10's T2 (lib/toys/learn_block.c). */
#include <criterion/criterion.h>
#include <math.h>

#include "learn_block.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

/* one fixed sequence, read at two positions */
static const size_t at[2] = {1, 3}, y[2] = {0, 1};

Test(learn_block, training_lowers_the_loss_and_held_tensors_stay)
{
    gsl_rng *r = rng_new(3);
    learn_block *m = learn_block_new(6, 2, 8, 2, 0.05, r);
    cr_assert_not_null(m);
    gsl_matrix *X = mat_gaussian(4, 6, 1.0, r);
    gsl_matrix *Wo = learn_block_weights(m)->attn->Wo;
    gsl_matrix_set_identity(Wo);
    cr_assert_eq(learn_block_freeze(m, 3), INVENT_OK);
    cr_assert_eq(learn_block_freeze(m, BLOCK_TENSORS), INVENT_ERANGE);
    double first, loss;
    cr_assert_eq(learn_block_pass(m, X, at, y, 2, 0, &first, NULL), INVENT_OK);
    for (int step = 0; step < 50; step++) {
        cr_assert_eq(learn_block_pass(m, X, at, y, 2, 1, NULL, NULL), INVENT_OK);
        cr_assert_eq(learn_block_step(m), INVENT_OK);
    }
    size_t right;
    cr_assert_eq(learn_block_pass(m, X, at, y, 2, 0, &loss, &right), INVENT_OK);
    cr_assert_lt(loss, 0.1 * first, "50 steps on one sequence: %g -> %g", first, loss);
    cr_assert_eq(right, 2);
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 6; j++)
            cr_assert_eq(gsl_matrix_get(Wo, i, j), i == j ? 1.0 : 0.0, "W_o was held");
    const size_t outside[1] = {4};
    cr_assert_eq(learn_block_pass(m, X, outside, y, 1, 0, NULL, NULL), INVENT_ERANGE);
    gsl_matrix_free(X);
    learn_block_free(m);
    gsl_rng_free(r);
}

Test(learn_block, a_step_follows_the_gradient)
{
    gsl_rng *r = rng_new(4);
    learn_block *m = learn_block_new(6, 2, 8, 2, 1e-4, r);
    gsl_matrix *X = mat_gaussian(4, 6, 1.0, r);
    double before, after;
    learn_block_pass(m, X, at, y, 2, 0, &before, NULL);
    learn_block_pass(m, X, at, y, 2, 1, NULL, NULL);
    learn_block_step(m);
    learn_block_pass(m, X, at, y, 2, 0, &after, NULL);
    cr_assert_lt(after, before, "one small step downhill: %g -> %g", before, after);
    gsl_matrix_free(X);
    learn_block_free(m);
    gsl_rng_free(r);
}
