/* Unit tests: one training run of a language model (lm_run.h) on a small
 * corpus written here: it trains (the loss falls), it is repeatable (the same
 * seed, the same numbers), the batches are the seed's (another seed, other
 * numbers), the loss by position averages to the loss, the curve's last point
 * is the final loss when both use the same windows, and sizes that do not
 * fit are refused. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ablation.h"
#include "ablation32.h"
#include "lm_models.h"
#include "lm_run.h"
#include "private_dir.h"
#include "rng.h"
#include "status.h"

static char file[PATH_MAX];
static corpus *text;

enum { B = 4, T = 16, WINDOWS = 16 };

static void make_corpus(void)
{
    private_dir_make();
    private_path(file, sizeof file, "text");
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < 400; i++) /* 400 fortunes: a counting rhyme, easy to learn */
        fprintf(f, "one two three %d, four five six.\n%%\n", i % 7);
    fclose(f);
    cr_assert_eq(corpus_load(file, &text), INVENT_OK);
}

static void remove_corpus(void)
{
    corpus_free(text);
    private_dir_remove();
}

TestSuite(lm_run, .init = make_corpus, .fini = remove_corpus);

/* the full model at seed, trained steps steps on batches from stream -> out; curve: (4) */
static int trained(unsigned long stream, size_t steps, size_t n_windows, lm_result *out)
{
    gpt_shape s = {.vocab = text->vocab, .context = T, .dim = 16, .heads = 2, .layers = 1,
                   .hidden = 32, .norm = BLOCK_PRE_NORM};
    gsl_rng *r = rng_new(3);
    ablated *src = ablated_new(ABL_FULL, &s, r);
    ablated32 *m;
    cr_assert_eq(ablated32_new(src, B, T, &m), INVENT_OK);
    size_t windows[WINDOWS];
    cr_assert_eq(corpus_tile(text, CORPUS_HELDOUT, T, WINDOWS, windows), WINDOWS);
    lm_model lm = lm_model_gpt(m);
    lm_plan p = {.text = text, .B = B, .T = T, .steps = steps, .rate = 1e-2, .seed = stream,
                 .windows = windows, .n_windows = n_windows, .curve_windows = windows,
                 .n_curve = n_windows, .points = 4};
    int status = lm_run(&p, &lm, out);
    ablated32_free(m);
    ablated_free(src);
    gsl_rng_free(r);
    return status;
}

Test(lm_run, trains_repeatably_on_the_seeds_batches)
{
    double curve[3][4], by_position[T];
    lm_result a = {.curve = curve[0], .by_position = by_position}, b = {.curve = curve[1]},
              c = {.curve = curve[2]};
    cr_assert_eq(trained(7, 60, WINDOWS, &a), INVENT_OK);
    cr_assert_eq(trained(7, 60, WINDOWS, &b), INVENT_OK);
    cr_assert_eq(trained(8, 60, WINDOWS, &c), INVENT_OK);
    cr_assert_lt(a.loss, curve[0][0] - 0.1, "it trains: %g after 15 steps, %g at the end",
                 curve[0][0], a.loss);
    cr_assert_eq(a.loss, b.loss, "the same seed: %.17g and %.17g", a.loss, b.loss);
    cr_assert_neq(a.loss, c.loss, "another seed draws other batches");
    cr_assert_float_eq(a.loss, curve[0][3], 1e-12, "the curve ends at the final loss");
    double mean = 0.0;
    for (size_t t = 0; t < T; t++)
        mean += by_position[t] / T;
    cr_assert_float_eq(mean, a.loss, 1e-12, "positions average to the loss: %g, %g", mean, a.loss);
    cr_assert_lt(by_position[T - 1], by_position[0], "later positions see more and do better");
}

Test(lm_run, sizes_that_do_not_fit_are_refused)
{
    double curve[4];
    lm_result out = {.curve = curve};
    cr_assert_eq(trained(7, 8, WINDOWS - 1, &out), INVENT_ERANGE); /* not a multiple of B */
    cr_assert_eq(trained(7, 3, WINDOWS, &out), INVENT_ERANGE);     /* 4 points, 3 steps */
}
