/* Unit tests: the memory of a training run, computed from its sizes (issue 28). */
#include <criterion/criterion.h>
#include <stdint.h>

#include "gpt.h"
#include "train_memory.h"

static gpt_shape shape(size_t L, size_t d, size_t H, size_t T)
{
    return (gpt_shape){.vocab = 114, .context = T, .dim = d, .heads = H, .layers = L,
                       .hidden = 4 * d, .norm = BLOCK_PRE_NORM};
}

/* chapter 13's defaults and --full fit in a fraction of the budget, its
 * largest sizes together do not; the count grows with each size and
 * saturates instead of wrapping around */
Test(train_memory, defaults_fit_the_largest_sizes_do_not)
{
    gpt_shape quick = shape(2, 32, 2, 32), full = shape(4, 128, 4, 64),
              largest = shape(12, 512, 16, 256);
    cr_assert_lt(train_memory_bytes(&quick, 8, 32, 8, 3), TRAIN_MEMORY_BUDGET / 100);
    cr_assert_lt(train_memory_bytes(&full, 12, 64, 8, 3), TRAIN_MEMORY_BUDGET / 10);
    cr_assert_gt(train_memory_bytes(&largest, 64, 256, 8, 3), TRAIN_MEMORY_BUDGET);
    cr_assert_gt(train_memory_bytes(&quick, 16, 32, 8, 3), train_memory_bytes(&quick, 8, 32, 8, 3));
    cr_assert_gt(train_memory_bytes(&quick, 8, 32, 9, 3), train_memory_bytes(&quick, 8, 32, 8, 3));
    gpt_shape absurd = shape(1, 1, 1, 1);
    cr_assert_eq(train_memory_bytes(&absurd, SIZE_MAX / 2, 4, 1, 1), SIZE_MAX);
}
