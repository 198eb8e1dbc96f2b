/* Unit tests: the recurrent baselines sized to the baby GPT (recurrent_size.h).
 * The baby GPT (4 layers, 4 heads, width 128, context 64, MLP 512) counted by
 * hand: a block has W_q, W_k, W_v, W_o (4 d^2), two norms (4 d), W1, b1, W2, b2
 * (8 d^2 + 5 d): 12 d^2 + 9 d = 197,760; four blocks and the final norm (2 d):
 * 791,296 non-embedding parameters, whatever the vocabulary. Its compute per
 * token: 2 x 791,296 + 2 x 4 x 128 x 65 = 1,649,152 FLOPs, so the recurrent cell
 * must have 824,576 parameters for equal compute. The near miss: counting the
 * read-out (V d + V) as the model's would move the Elman state. */
#include <criterion/criterion.h>

#include "recurrent_size.h"

static const gpt_shape baby = {.vocab = 114, .context = 64, .dim = 128, .heads = 4,
                               .layers = 4, .hidden = 512, .norm = BLOCK_PRE_NORM};

Test(recurrent_size, the_baby_gpt_counted_by_hand)
{
    cr_assert_eq(recurrent_gpt_params(&baby), 791296u);
    cr_assert_float_eq(recurrent_gpt_flops(&baby), 1649152.0, 0.5);
    gpt_shape other = baby;
    other.vocab = 60; /* the vocabulary is all embedding and read-out */
    cr_assert_eq(recurrent_gpt_params(&other), 791296u);
}

Test(recurrent_size, the_cells_counted_by_hand)
{
    cr_assert_eq(recurrent_cell_params(RECURRENT_ELMAN, 128, 827), 827u * 128 + 827 * 827 + 827);
    cr_assert_eq(recurrent_cell_params(RECURRENT_GRU, 128, 453),
                 3u * (453 * 128 + 453 * 453) + 6 * 453);
}

/* the state m for target is nearer than m - 1 and m + 1 */
static void nearest(recurrent_cell c, size_t m, size_t target)
{
    long here = (long)recurrent_cell_params(c, 128, m) - (long)target;
    long below = (long)recurrent_cell_params(c, 128, m - 1) - (long)target;
    long above = (long)recurrent_cell_params(c, 128, m + 1) - (long)target;
    cr_assert(labs(here) <= labs(below) && labs(here) <= labs(above), "m %zu", m);
}

Test(recurrent_size, equal_parameters_and_equal_compute_for_the_baby_gpt)
{
    recurrent_match elman = recurrent_match_gpt(RECURRENT_ELMAN, 128, &baby);
    recurrent_match gru = recurrent_match_gpt(RECURRENT_GRU, 128, &baby);
    cr_assert_eq(elman.params, 827u); /* 790,612 parameters */
    cr_assert_eq(elman.compute, 846u); /* 824,850 */
    cr_assert_eq(gru.params, 453u);   /* 792,297 */
    cr_assert_eq(gru.compute, 463u);  /* 823,677 */
    nearest(RECURRENT_ELMAN, elman.params, 791296);
    nearest(RECURRENT_ELMAN, elman.compute, 824576);
    nearest(RECURRENT_GRU, gru.params, 791296);
    nearest(RECURRENT_GRU, gru.compute, 824576);
    cr_assert_eq(recurrent_state_for(RECURRENT_GRU, 128, 10), 1u);
}

Test(recurrent_size, counting_the_read_out_would_move_the_state)
{
    size_t with_read_out = recurrent_state_for(RECURRENT_ELMAN, 128, 791296 + 114 * 128 + 114);
    cr_assert_neq(with_read_out, recurrent_match_gpt(RECURRENT_ELMAN, 128, &baby).params);
}

Test(recurrent_size, a_longer_context_parts_the_two_states)
{
    gpt_shape longer = baby;
    longer.context = 256; /* A11's context: attention's share grows with it */
    recurrent_match gru = recurrent_match_gpt(RECURRENT_GRU, 128, &longer);
    cr_assert_eq(gru.params, 453u);
    cr_assert_eq(gru.compute, 493u);
}
