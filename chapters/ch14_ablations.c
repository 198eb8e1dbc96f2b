/* Chapter 14: every choice of the derivation, taken out one at a time.
 *
 * Each chapter before argued that a piece is needed: positions (chapter 7's
 * bag of tokens cannot tell order), the causal mask (a model that sees the
 * next character learns to copy it), the 1/sqrt(r) scale (chapter 7: it keeps
 * the softmax out of saturation), the MLP (chapter 9: attention only mixes),
 * several heads (chapter 8), and W_o (chapter 8: it mixes what the heads
 * found); and the seed thread asked why one free matrix A in place of
 * W_q^T W_k "trains worse". Here each piece is removed from chapter 13's model and the model is
 * trained again with the same budget (steps, tokens, schedule, initial draw,
 * batch order) over several seeds; the held-out loss, always measured with
 * the causal mask, says what each piece was worth on real text. Two more
 * models answer the derivation's larger choices: the additive tanh score with
 * a bias (Bahdanau et al., 2015) in place of the product (chapter 4 set it
 * aside, chapter 12's I5 tested it on a toy task), and chapter 1's recurrent
 * cell at the same parameter count, the model the derivation set out to replace.
 *   A1-A6, A8  one claim per ablation, stating only what the spread supports
 *              (A8: free A); a piece that the budget cannot tell apart is claimed
 *              to cost less than the budget's last quarter, measured by the full
 *              model trained on 3/4 of the steps (control: on half of them);
 *   A7         the leak: trained without the mask, the model predicts training
 *              text better when it sees the future than when it does not;
 *   A9         the additive score;
 *   A10        the recurrent model, at the same steps and tokens.
 * Chapter 15 reads the trained model back.
 * The default is a tiny model and a few hundred steps (seconds); --full
 * trains chapter 13's quick model longer, over more seeds (minutes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics.h>

#include "ablation.h"
#include "adamw.h"
#include "cli_text.h"
#include "corpus.h"
#include "corpus_option.h"
#include "invent.h"
#include "ngram.h"
#include "rnn_lm.h"
#include "schedule.h"
#include "train_memory.h"
#include "workers.h"

#define CLIP 1.0  /* the largest gradient norm, as in chapter 13 */
#define DECAY 0.1 /* AdamW's weight decay, as in chapter 13 */

typedef struct {
    int full;
    size_t layers, heads, dim, context, batch, steps, seeds, windows;
    double rate;
    const char *corpus;
} settings;

/* the rows of the table after the ablations: the recurrent model, the same cell with a
 * state of TINY_M, the full model trained for three quarters, half and a quarter of the
 * steps (what budget is worth), and with --full the recurrent model on the full model's
 * clock */
enum { RECURRENT = ABL_COUNT, TINY_STATE, THREE_QUARTERS, HALF, QUARTER, ON_CLOCK, ROWS };

#define TINY_M 2 /* A10's control: a recurrent state too small to carry the previous character */
#define TEXT_OF(x) #x
#define TEXT(x) TEXT_OF(x) /* a macro's value as a string */

typedef struct {
    const invent_opts *o;
    const settings *s;
    scope *sc;
    corpus *text;
    size_t *valid, *train;  /* fixed evaluation windows, (windows) each */
    gsl_matrix *loss;       /* (ROWS, seeds): held-out loss, causal, of each row */
    gsl_matrix *leak;       /* (2, seeds): training-window loss causal minus seeing the
                             * future, of no mask (row 0) and of the full model (row 1) */
    gsl_vector *again;      /* (seeds): the full model again, at other seeds */
    double counted[2];      /* the bigram's and trigram's held-out loss (counts, no training) */
    gsl_matrix *clock;      /* (ROWS, seeds): seconds each run took (same-clock row unused) */
    size_t params[ROWS];    /* numbers each model trains */
    size_t clock_steps;     /* --full: the recurrent model's steps in the full model's time */
    double seconds;
} run;

/* ------------------------------------------------------------------ training */

static double row_mean(const gsl_matrix *M, size_t a)
{
    gsl_vector_const_view v = gsl_matrix_const_row(M, a);
    return gsl_stats_mean(v.vector.data, v.vector.stride, v.vector.size);
}

static double row_sd(const gsl_matrix *M, size_t a)
{
    gsl_vector_const_view v = gsl_matrix_const_row(M, a);
    return v.vector.size > 1 ? gsl_stats_sd(v.vector.data, v.vector.stride, v.vector.size) : 0;
}

/* the mean loss over the n windows, B at a time; training: see as in training */
static double mean_loss(const run *r, ablated *m, gpt_trace *tr, const size_t *windows,
                        int training, size_t *x, size_t *y)
{
    size_t B = r->s->batch, T = r->s->context, n = r->s->windows;
    double sum = 0.0;
    for (size_t i = 0; i + B <= n; i += B) {
        double loss;
        corpus_window(r->text, windows + i, B, T, x, y);
        chapter_must(ablated_forward(m, x, y, tr, training, &loss), "evaluating");
        sum += loss;
    }
    return sum / (double)(n / B);
}

static gpt_shape shape_of(const settings *s, size_t vocab)
{
    return (gpt_shape){.vocab = vocab, .context = s->context, .dim = s->dim, .heads = s->heads,
                       .layers = s->layers, .hidden = 4 * s->dim, .norm = BLOCK_PRE_NORM};
}

/* the model's loss on training windows with the mask minus without it (the
 * full model's mask is lifted by evaluating it as the no-mask ablation) */
static double leak(const run *r, ablated *m, gpt_trace *tr, size_t *x, size_t *y)
{
    ablation kind = m->kind;
    double causal = mean_loss(r, m, tr, r->train, 0, x, y);
    m->kind = ABL_NO_MASK;
    double seeing = mean_loss(r, m, tr, r->train, 1, x, y);
    m->kind = kind;
    return causal - seeing;
}

/* t: (n) the trained tensors -> AdamW as chapter 13 sets it, freed with sc */
static adamw *optimiser(scope *sc, tensor_ref *t, size_t n)
{
    adamw *opt = SCOPE_KEEP(sc, calloc(1, sizeof *opt), free);
    chapter_must(adamw_init(opt, t, n, DECAY), "setting up AdamW");
    SCOPE_KEEP(sc, opt, adamw_free);
    opt->beta2 = 0.99;
    return opt;
}

/* warm-up over the first tenth of the steps, then cosine decay to a tenth of the peak */
static lr_schedule schedule(const settings *s, size_t steps)
{
    return (lr_schedule){.peak = s->rate, .floor = s->rate / 10, .warmup = steps / 10,
                         .decay = steps};
}

/* -> the steps row trains: 3/4, 1/2 or 1/4 of the budget for the shortened full models,
 * the whole budget for every other */
static size_t budget_of(const run *r, size_t row)
{
    size_t S = r->s->steps;
    return row == THREE_QUARTERS ? (3 * S + 2) / 4
         : row == HALF           ? (S + 1) / 2
         : row == QUARTER        ? (S + 2) / 4
                                 : S;
}

/* ablation a trained for steps from seed (its draw and its batches, the first steps of
 * them) -> the held-out loss; *params: how many numbers it trains, *gain: leak() of the
 * trained model */
static double train_one(const run *r, ablation a, unsigned long seed, size_t steps,
                        size_t *params, double *gain)
{
    const settings *s = r->s;
    size_t B = s->batch, T = s->context;
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(seed));
    gpt_shape shape = shape_of(s, r->text->vocab);
    ablated *m = SCOPE_KEEP(sc, ablated_new(a, &shape, rng), ablated_free);
    *params = ablated_param_count(m);
    gpt_trace *tr = SCOPE_KEEP(sc, gpt_trace_new(m->w, B, T), gpt_trace_free);
    size_t *x = SCOPE_KEEP(sc, calloc(B * T, sizeof(size_t)), free);
    size_t *y = SCOPE_KEEP(sc, calloc(B * T, sizeof(size_t)), free);
    size_t *starts = SCOPE_KEEP(sc, calloc(B, sizeof(size_t)), free);
    ablated_batch batch = {m, tr};
    step_plan plan = {.model = &batch, .forward = ablated_batch_forward,
                      .backward = ablated_batch_backward, .t = m->train, .count = m->n_train,
                      .opt = optimiser(sc, m->train, m->n_train), .sch = schedule(s, steps),
                      .clip = CLIP};
    for (size_t step = 0; step < steps; step++) {
        chapter_must(corpus_draw(r->text, CORPUS_TRAIN, B, T, rng, starts), "drawing a batch");
        corpus_window(r->text, starts, B, T, x, y);
        chapter_must(train_step(&plan, step, x, y, NULL), "a training step");
    }
    *gain = leak(r, m, tr, x, y);
    double held = mean_loss(r, m, tr, r->valid, 0, x, y);
    scope_close(sc);
    return held;
}

/* the recurrent model's mean loss over the n windows, B at a time */
static double recurrent_loss(const run *r, const rnn_lm *w, rnn_lm_trace *tr,
                             const size_t *windows, size_t *x, size_t *y)
{
    size_t B = r->s->batch, T = r->s->context, n = r->s->windows;
    double sum = 0.0;
    for (size_t i = 0; i + B <= n; i += B) {
        double loss;
        corpus_window(r->text, windows + i, B, T, x, y);
        chapter_must(rnn_lm_forward(w, x, y, tr, &loss), "evaluating");
        sum += loss;
    }
    return sum / (double)(n / B);
}

/* chapter 1's cell as a character model with a state of m, trained for steps from seed
 * -> the held-out loss; *params: how many numbers it trains.
 * Its weights come from a stream of their own; the batches from seed's stream
 * after the full model's draw, so that they are the full model's batches. */
static double train_recurrent(const run *r, unsigned long seed, size_t steps, size_t m,
                              size_t *params)
{
    size_t B = r->s->batch, T = r->s->context, V = r->text->vocab;
    gpt_shape shape = shape_of(r->s, V);
    scope *sc = scope_open();
    gsl_rng *rng = scope_keep_rng(sc, rng_new(seed));
    SCOPE_KEEP(sc, gpt_new(&shape, rng), gpt_free); /* the full model's draw, not used */
    rnn_lm *w = SCOPE_KEEP(sc, rnn_lm_new(V, m, scope_keep_rng(sc, rng_new(seed + 1000000))),
                           rnn_lm_free);
    rnn_lm *g = SCOPE_KEEP(sc, rnn_lm_new(V, m, NULL), rnn_lm_free);
    tensor_ref t[RNN_LM_TENSORS];
    rnn_lm_tensors(w, g, t);
    *params = rnn_lm_param_count(V, m);
    rnn_lm_trace *tr = SCOPE_KEEP(sc, rnn_lm_trace_new(w, B, T), rnn_lm_trace_free);
    size_t *x = SCOPE_KEEP(sc, calloc(B * T, sizeof(size_t)), free);
    size_t *y = SCOPE_KEEP(sc, calloc(B * T, sizeof(size_t)), free);
    size_t *starts = SCOPE_KEEP(sc, calloc(B, sizeof(size_t)), free);
    rnn_lm_batch batch = {w, g, tr};
    step_plan plan = {.model = &batch, .forward = rnn_lm_batch_forward,
                      .backward = rnn_lm_batch_backward, .t = t, .count = RNN_LM_TENSORS,
                      .opt = optimiser(sc, t, RNN_LM_TENSORS), .sch = schedule(r->s, steps),
                      .clip = CLIP};
    for (size_t step = 0; step < steps; step++) {
        chapter_must(corpus_draw(r->text, CORPUS_TRAIN, B, T, rng, starts), "drawing a batch");
        corpus_window(r->text, starts, B, T, x, y);
        chapter_must(train_step(&plan, step, x, y, NULL), "a training step");
    }
    double held = recurrent_loss(r, w, tr, r->valid, x, y);
    scope_close(sc);
    return held;
}

/* -> the recurrent model's state: the full model's parameter count, or TINY_M */
static size_t state_of(const run *r, size_t row)
{
    gpt_shape shape = shape_of(r->s, r->text->vocab);
    return row == TINY_STATE ? TINY_M : rnn_lm_state_for(r->text->vocab, gpt_param_count(&shape));
}

/* per seed: the ablations, the full model again, then rows RECURRENT .. QUARTER */
#define PER_SEED (ABL_COUNT + 1 + ON_CLOCK - RECURRENT)

/* item i of train_all: model i % PER_SEED (ABL_COUNT: the full model again, at a seed
 * S further on; ABL_COUNT + 1 + k: row RECURRENT + k) at seed o->seed + i / PER_SEED */
static int train_item(void *ctx, size_t item, int worker)
{
    (void)worker;
    run *r = ctx;
    size_t S = r->s->seeds, i = item / PER_SEED, a = item % PER_SEED;
    unsigned long seed = r->o->seed + i;
    double seen, t0 = stopwatch_now();
    size_t params;
    if (a == ABL_COUNT) {
        gsl_vector_set(r->again, i, train_one(r, ABL_FULL, seed + S, r->s->steps, &params, &seen));
        return INVENT_OK;
    }
    if (a > ABL_COUNT) { /* the rows after the ablations */
        size_t row = a - ABL_COUNT - 1 + RECURRENT, steps = budget_of(r, row);
        gsl_matrix_set(r->loss, row, i, row <= TINY_STATE
            ? train_recurrent(r, seed, steps, state_of(r, row), &r->params[row])
            : train_one(r, ABL_FULL, seed, steps, &r->params[row], &seen));
        gsl_matrix_set(r->clock, row, i, stopwatch_now() - t0);
        return INVENT_OK;
    }
    gsl_matrix_set(r->loss, a, i, train_one(r, (ablation)a, seed, r->s->steps, &params, &seen));
    gsl_matrix_set(r->clock, a, i, stopwatch_now() - t0);
    r->params[a] = params; /* the same at every seed */
    if (a == ABL_NO_MASK || a == ABL_FULL)
        gsl_matrix_set(r->leak, a == ABL_FULL, i, seen);
    return INVENT_OK;
}

/* --full, item i: the recurrent model at seed o->seed + i, trained clock_steps steps */
static int clock_item(void *ctx, size_t i, int worker)
{
    (void)worker;
    run *r = ctx;
    double t0 = stopwatch_now();
    gsl_matrix_set(r->loss, ON_CLOCK, i,
                   train_recurrent(r, r->o->seed + i, r->clock_steps, state_of(r, ON_CLOCK),
                                   &r->params[ON_CLOCK]));
    gsl_matrix_set(r->clock, ON_CLOCK, i, stopwatch_now() - t0);
    return INVENT_OK;
}

/* every ablation at seeds o->seed .. + S - 1, the full model again at the next S, on both
 * cores; with --full, the recurrent model again for as long as the full model took */
static void train_all(run *r)
{
    size_t n = PER_SEED * r->s->seeds;
    double t0 = stopwatch_now();
    chapter_must(workers_run(n, workers_count(), train_item, r), "training the models");
    r->seconds = stopwatch_now() - t0;
    report_text(r->o, "%zu models trained in %.1f s (%zu steps of %zu sequences of %zu "
                "characters each).", n, r->seconds, r->s->steps, r->s->batch, r->s->context);
    if (!r->s->full)
        return;
    double ratio = row_mean(r->clock, ABL_FULL) / row_mean(r->clock, RECURRENT);
    r->clock_steps = (size_t)((double)r->s->steps * ratio + 0.5);
    t0 = stopwatch_now();
    chapter_must(workers_run(r->s->seeds, workers_count(), clock_item, r), "training on the clock");
    report_text(r->o, "The recurrent model again, for %zu steps: the full model's time at "
                "%.1f times the recurrent model's speed, measured above on this machine (%.1f s). "
                "The step count follows this machine's timings, so this row ('RNN, clock') is not "
                "reproducible, and no claim rests on it.", r->clock_steps, ratio,
                stopwatch_now() - t0);
}

/* ------------------------------------------------------------------- results */

/* the paired differences row a - full over the seeds -> their smallest and largest */
static void paired(const run *r, size_t a, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (size_t i = 0; i < r->s->seeds; i++) {
        double d = gsl_matrix_get(r->loss, a, i) - gsl_matrix_get(r->loss, ABL_FULL, i);
        *lo = d < *lo ? d : *lo;
        *hi = d > *hi ? d : *hi;
    }
}

/* -> row a's held-out loss minus the full model's, mean over the seeds (paired) */
static double mean_paired(const run *r, size_t a)
{
    return row_mean(r->loss, a) - row_mean(r->loss, ABL_FULL);
}

/* row a of the table -> its model's short name */
static const char *row_name(size_t a)
{
    static const char *after[] = {"recurrent", "rec., state " TEXT(TINY_M), "3/4 of steps", "1/2 of steps",
                                  "1/4 of steps", "RNN, clock"};
    return a < ABL_COUNT ? ablation_name((ablation)a) : after[a - ABL_COUNT];
}

/* how many rows the run filled: the same-clock row with --full only */
static size_t rows_of(const run *r)
{
    return r->s->full ? ROWS : ON_CLOCK;
}

static void setup_text(const run *r)
{
    const settings *s = r->s;
    report_section(r->o, "Ten models, one budget");
    report_text(r->o, "This is the %s run%s. Each model below is chapter 13's pre-norm GPT "
                "(%zu layer%s, width %zu, %zu heads, context %zu) with one piece taken out, "
                "trained for %zu steps of %zu sequences (AdamW, warm-up and cosine as in "
                "chapter 13, peak rate %g). At a given seed every model starts from the same "
                "draw and sees the same batches, so the difference to the full model at that "
                "seed (paired) is due to the piece and not to luck of the draw; the full model "
                "is also trained at %zu other seeds ('full again') to show what luck alone does.",
                s->full ? "full" : "quick", s->full ? "" : " (add --full for chapter 13's quick "
                "model trained longer; minutes)", s->layers, s->layers > 1 ? "s" : "", s->dim,
                s->heads, s->context, s->steps, s->batch, s->rate, s->seeds);
    report_text(r->o, "Held-out loss is always measured with the causal mask, on %zu fixed "
                "windows from the last tenth of the corpus.", s->windows);
    gpt_shape shape = shape_of(s, r->text->vocab);
    size_t m = rnn_lm_state_for(r->text->vocab, gpt_param_count(&shape));
    report_text(r->o, "'additive' scores each pair with v_j . tanh(q_t + k_s + b_j), r = %zu "
                "tanh units per head on the same q and k, in place of q_t . k_s / sqrt(r) "
                "(Bahdanau et al., 2015, with the bias that chapter 12's I5 found it needs). "
                "'recurrent' is chapter 1's cell h_t = tanh(W h_{t-1} + U x_t) (Elman, 1990) "
                "with a state of %zu, a character embedding of the same width and a read-out, "
                "%zu numbers against the full model's %zu, run over each window from a zero "
                "state and trained through time on the same batches. It is the cell the "
                "derivation set out to replace, not the strongest recurrent model: a gated cell "
                "(Hochreiter and Schmidhuber, 1997; Cho et al., 2014) would be expected to do "
                "at least as well, so where this cell keeps up, a gated one would too, and "
                "where it falls behind, the gap overstates the case against recurrence.",
                s->dim / s->heads, m, rnn_lm_param_count(r->text->vocab, m),
                gpt_param_count(&shape));
}

/* why 'free A at equal rank' is not a row of its own */
static void rank_text(const run *r)
{
    report_text(r->o, "Free A at equal rank. A d x d matrix of rank at most r is exactly a "
                "product B C of a d x r and an r x d matrix, and W_q^(j)T W_k^(j) is such a "
                "product. A free A held to rank r = %zu is therefore the full model itself: "
                "the same functions, the same parameterisation, the same numbers trained. "
                "The only arrangement left to compare is the one in the table: A free to full "
                "rank d = %zu at equal parameters (H d^2 = %zu numbers per block, as many as "
                "W_q and W_k hold when H = 2), which is 'free A' (A8).",
                r->s->dim / r->s->heads, r->s->dim, r->s->heads * r->s->dim * r->s->dim);
}

/* quick: the rows below the full model at every seed whose --full rows (README) are
 * above it at every seed, said row by row */
static void against_full_text(const run *r)
{
    static const ablation flip[] = {ABL_NO_SCALE, ABL_NO_MLP, ABL_NO_WO};
    char rows[240] = "";
    size_t n = 0;
    for (size_t k = 0; k < 3; k++) {
        double lo, hi;
        paired(r, flip[k], &lo, &hi);
        if (hi < 0)
            snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%s%s %+.3f .. %+.3f",
                     n++ ? "; " : "", ablation_name(flip[k]), lo, hi);
    }
    if (r->s->full || n == 0)
        return;
    report_text(r->o, "Against --full. At this budget %s below the full model at every seed "
                "(%s); in the README's --full table (500 steps, twice the width and depth) no "
                "scale, no MLP and no W_o all end above it at every seed. The order at this "
                "budget is not the order at the end of training. No MLP and no W_o train fewer "
                "numbers, which may favour them in a short budget; no scale trains as many as the full model, but W_q = "
                "sqrt(r) Theta makes each AdamW step move its scores sqrt(r) times as far, a "
                "larger step on the scores (why that costs later, for instance chapter 7's "
                "saturated softmax, is not measured here).", n > 1 ? "these rows are" : "this row is",
                rows);
}

static void table(const run *r)
{
    report_section(r->o, "The table");
    report_line(r->o, "  %-14s %10s %14s %9s %22s %9s", "model", "parameters", "held-out loss",
                "spread", "minus full, per seed", "s per run");
    for (size_t a = 0; a < rows_of(r); a++) {
        double lo, hi;
        paired(r, a, &lo, &hi);
        report_line(r->o, "  %-14s %10zu %14.3f %9.3f %10.3f .. %7.3f %9.2f", row_name(a),
                    r->params[a], row_mean(r->loss, a), row_sd(r->loss, a), lo, hi,
                    row_mean(r->clock, a));
    }
    report_line(r->o, "  %-14s %10s %14.3f %9.3f", "full again", "",
                gsl_stats_mean(r->again->data, 1, r->s->seeds),
                gsl_stats_sd(r->again->data, 1, r->s->seeds));
    report_line(r->o, "  training windows, causal minus seeing the future: no mask %.3f, full %.3f",
                row_mean(r->leak, 0), row_mean(r->leak, 1));
    report_line(r->o, "  %-14s %10s %14.3f   (counts of the training text, no training)", "bigram",
                "", r->counted[0]);
    report_line(r->o, "  %-14s %10s %14.3f", "trigram", "", r->counted[1]);
    report_text(r->o, "The paired differences are far tighter than the gap between 'full' and "
                "'full again': most of the seed-to-seed spread is the draw and the batch order, "
                "shared by both members of a pair. A piece whose paired difference changes sign "
                "over seeds is not shown to matter at this budget; a negative difference means "
                "the ablated model learned faster within the budget, which says nothing about "
                "where it would end. Seconds are wall-clock per run, two runs at a time on "
                "this machine's cores: a measure of cost on this machine, not a constant.");
    double full = row_mean(r->loss, ABL_FULL);
    report_text(r->o, "How far the budget goes: the full model ends at %.3f nats, against %.3f "
                "for the bigram and %.3f for the trigram, counted on the same held-out windows "
                "(add-k smoothing chosen on them). %s Chapter 13's --full run goes below the "
                "trigram; a piece that pays only once a model uses longer contexts cannot show "
                "here.", full, r->counted[0], r->counted[1],
                full > r->counted[0]
                    ? "It has not yet learned what the counts of one character before give: "
                      "every row measures how fast a model starts to learn, not what it can learn."
                    : "It has learned about what one or two characters before give, and every "
                      "row measures how fast a model gets there.");
    against_full_text(r);
}

/* the figure: each row's paired difference to the full model (mean, smallest and largest
 * over the seeds), and 'full again' against 'full' (other seeds, unpaired); the axis ends
 * 0.15 nats above the highest row but no mask's, which may leave that row off the scale */
static void plot_bars(const run *r)
{
    plot *p = plot_begin(r->o, "ch14_ablations");
    size_t n = rows_of(r), S = r->s->seeds;
    double top = 0.0, bottom = 0.0, lo, hi;
    char var[24];
    plot_block(p, "row, mean paired difference to the full model, smallest, largest");
    for (size_t a = 0; a <= n; a++) {
        if (a == n) { /* full again: seed o->seed + S + i against o->seed + i */
            gsl_vector_view full = gsl_matrix_row(r->loss, ABL_FULL);
            gsl_vector *d = scope_vector(r->sc, S);
            gsl_vector_memcpy(d, r->again);
            gsl_vector_sub(d, &full.vector);
            gsl_vector_minmax(d, &lo, &hi);
            PLOT_ROW(p, (double)a, gsl_stats_mean(d->data, 1, S), lo, hi);
        } else {
            paired(r, a, &lo, &hi);
            PLOT_ROW(p, (double)a, mean_paired(r, a), lo, hi);
        }
        top = a != ABL_NO_MASK && hi > top ? hi : top;
        bottom = lo < bottom ? lo : bottom;
        snprintf(var, sizeof var, "label%zu", a);
        plot_set_text(p, var, a == n ? "full again" : row_name(a));
    }
    paired(r, ABL_NO_MASK, &lo, &hi);
    plot_set(p, "rows", (double)(n + 1));
    plot_set(p, "lowest", bottom);
    plot_set(p, "highest", hi < top + 0.15 ? (hi > top ? hi : top) : top + 0.15);
    plot_set(p, "quarter", mean_paired(r, THREE_QUARTERS));
    plot_set_text(p, "bounded", r->s->full ? "A5, A6, A8, A9" : "A3-A6, A8, A9");
    plot_set(p, "steps", (double)r->s->steps);
    plot_set(p, "seeds", (double)S);
    plot_set(p, "width", (double)r->s->dim);
    plot_set(p, "layers", (double)r->s->layers);
    plot_render(p, "ch14_ablations.gp");
}

/* ------------------------------------------------------------------- claims */

#define APART 0.03 /* nats: the smallest paired difference called a difference */
#define LOWER 0.01 /* nats: the same for "lower at every seed" (A1) */
#define HIGHER 0.02 /* nats: the same for "higher at every seed" (A3, A4 with --full) */

/* ablation a costs no more than cutting the full model's budget to row cut's (its mean
 * paired difference at most cut's), against the full model cut to the next shorter
 * budget (row cut + 1), which must cost more; what: the claim's wording */
static void cheaper_claim(const run *r, const char *id, ablation a, size_t cut, const char *what)
{
    char control[120];
    check_at_most(id, what, mean_paired(r, a), mean_paired(r, cut));
    snprintf(control, sizeof control, "the full model trained %zu of the %zu steps, as if it "
             "were an ablation", budget_of(r, cut + 1), r->s->steps);
    check_control(id, control);
    check_at_most(id, NULL, mean_paired(r, cut + 1), mean_paired(r, cut));
}

/* A3-A6, A8, A9: ablation a costs less than the budget's last quarter */
static void quarter_claim(const run *r, const char *id, ablation a)
{
    char what[240];
    snprintf(what, sizeof what, "%s costs the held-out loss less than the last quarter of the "
             "budget does (mean paired difference at most the full model's on %zu of the %zu "
             "steps, nats)", ablation_name(a), budget_of(r, THREE_QUARTERS), r->s->steps);
    cheaper_claim(r, id, a, THREE_QUARTERS, what);
}

/* quick, A2: the mask's cost on held-out text is below that of halving the budget */
static void mask_bound(const run *r)
{
    char what[240];
    snprintf(what, sizeof what, "no mask: at %zu steps its cost on held-out text does not show "
             "yet, less than halving the budget costs (mean paired difference at most the full "
             "model's on %zu steps; --full: README's table)", r->s->steps, budget_of(r, HALF));
    cheaper_claim(r, "A2", ABL_NO_MASK, HALF, what);
}

/* what the budget is worth, the yardstick of the claims that a piece costs little */
static void budget_text(const run *r)
{
    size_t S = r->s->steps;
    report_text(r->o, "What a piece is worth is set against what training steps are worth: the "
                "full model trained on %zu, %zu and %zu of the %zu steps (the same draw, the first "
                "of the same batches, warm-up and decay over its own steps) is %.3f, %.3f and "
                "%.3f nats above the full model (mean paired difference). A piece 'costs less "
                "than the last quarter of the budget' when taking it out raises the held-out "
                "loss less than stopping at %zu steps does. The control of each such claim is "
                "the full model on %zu steps, shown as if it were an ablation: it must not pass, "
                "so the bound can see a halving of the budget. The bound is one-sided: a removal "
                "that lowers the loss (the smaller model learned faster) passes too, and the "
                "table shows which did.", budget_of(r, THREE_QUARTERS), budget_of(r, HALF),
                budget_of(r, QUARTER), S, mean_paired(r, THREE_QUARTERS), mean_paired(r, HALF),
                mean_paired(r, QUARTER), budget_of(r, THREE_QUARTERS), budget_of(r, HALF));
}

/* the mask's narration: the leak, and its cost on held-out text (paired, lo .. hi) */
static void mask_text(const run *r, double lo, double hi)
{
    report_text(r->o, "The mask: a model trained seeing the next character learns to read it "
                "off (A7: on training text it does %.3f nats better when it sees the future), "
                "and loses that crutch when evaluated causally. At %zu steps it is %.3f .. %.3f "
                "nats above the full model on held-out text (paired), against %.3f for halving "
                "the budget. %s", row_mean(r->leak, 0), r->s->steps, lo, hi,
                mean_paired(r, HALF), r->s->full
                    ? (lo >= APART ? "The cost shows at every seed: A2 claims the direction."
                                   : "The cost does not show at every seed of this run.")
                    : "The leak is learned, but its cost on held-out text does not show yet at "
                      "this budget: the quick run claims only that it is smaller than halving "
                      "the budget's (A2). With --full (500 steps) the model trained without the "
                      "mask ends several nats above the full model at every seed: the README's "
                      "table for chapter 14.");
}

/* A1, A2 (--full), A7: a direction, each against a model that does not show it; quick,
 * A2 is a bound (mask_bound) */
static void direction_claims(const run *r)
{
    double plo, phi, mlo, mhi, hlo, hhi;
    paired(r, ABL_NO_POSITION, &plo, &phi);
    paired(r, ABL_NO_MASK, &mlo, &mhi);
    paired(r, ABL_ONE_HEAD, &hlo, &hhi);
    report_section(r->o, "Claims");
    budget_text(r);
    report_text(r->o, "Positions: P is drawn N(0, 1), as large as the token embedding, so at "
                "the start it is noise added to every input that the model must first learn to "
                "use or to ignore; within a short budget the model without it is ahead. And a "
                "causal model without positions is not blind to order: the mask alone lets it "
                "infer where it is, from how many positions it sees (Haviv et al., 2022).");
    mask_text(r, mlo, mhi);
    check_at_most("A1", "without positions the held-out loss is lower at every seed, at this "
                  "budget (largest paired difference, nats)", phi, -LOWER);
    check_control("A1", "the same test on the model trained without the mask");
    check_at_most("A1", NULL, mhi, -LOWER);
    if (r->s->full) {
        check_at_least("A2", "trained without the mask, the held-out (causal) loss is higher "
                       "at every seed (smallest paired difference)", mlo, APART);
        check_control("A2", "the same test on one head, which does the full model's work");
        check_at_least("A2", NULL, hlo, APART);
    } else /* 120 steps: at some seeds the leak has not yet cost the causal loss */
        mask_bound(r);
    check_at_least("A7", "the leak: trained without the mask, the model predicts training text "
                   "better when it sees the future (mean gain over seeds, nats: at 120 steps a "
                   "single seed may gain little)", row_mean(r->leak, 0), APART);
    check_control("A7", "the full model, trained with the mask, given the future");
    check_at_least("A7", NULL, row_mean(r->leak, 1), APART);
}

/* --full, A3 and A4: higher at every seed, against one head (which is not) */
static void higher_claim(const run *r, const char *id, ablation a)
{
    double lo, hi, hlo, hhi;
    paired(r, a, &lo, &hi);
    paired(r, ABL_ONE_HEAD, &hlo, &hhi);
    char what[120];
    snprintf(what, sizeof what, "%s: the held-out loss is higher at every seed (smallest paired "
             "difference, nats)", ablation_name(a));
    check_at_least(id, what, lo, HIGHER);
    check_control(id, "the same test on one head");
    check_at_least(id, NULL, hlo, HIGHER);
}

/* A3-A6, A8: each cheaper than the budget's last quarter (with --full, A3 and A4 are
 * measured apart: higher_claim) */
static void quarter_claims(const run *r)
{
    static const struct { const char *id; ablation a; } claim[] = {
        {"A3", ABL_NO_SCALE}, {"A4", ABL_NO_MLP}, {"A5", ABL_ONE_HEAD}, {"A6", ABL_NO_WO},
        {"A8", ABL_FREE_A}};
    for (size_t k = 0; k < sizeof claim / sizeof claim[0]; k++) {
        if (r->s->full && (claim[k].a == ABL_NO_SCALE || claim[k].a == ABL_NO_MLP))
            higher_claim(r, claim[k].id, claim[k].a);
        else
            quarter_claim(r, claim[k].id, claim[k].a);
    }
}

/* paired differences lo .. hi -> which side of the full model they lie on */
static const char *side_of(double lo, double hi)
{
    return lo > 0 ? "above it at every seed" : hi < 0 ? "below it at every seed"
                  : "on both sides of it over the seeds";
}

/* A9, the additive score, and A10, the recurrent model, each against the full model */
static void larger_claims(const run *r)
{
    double alo, ahi, lo, hi, tlo, thi;
    paired(r, ABL_ADDITIVE, &alo, &ahi);
    paired(r, RECURRENT, &lo, &hi);
    paired(r, TINY_STATE, &tlo, &thi);
    report_text(r->o, "The additive score, with its bias, ends %+.3f .. %+.3f nats from the "
                "product (paired): %s, by %s than the budget's last quarter costs (%.3f), while "
                "a run takes %.2f times as long (%.2f s against %.2f s): r tanh units per pair "
                "against r multiply-adds. At this budget the product is %s.", alo, ahi,
                side_of(alo, ahi),
                fabs(mean_paired(r, ABL_ADDITIVE)) < mean_paired(r, THREE_QUARTERS) ? "less" : "more",
                mean_paired(r, THREE_QUARTERS),
                row_mean(r->clock, ABL_ADDITIVE) / row_mean(r->clock, ABL_FULL),
                row_mean(r->clock, ABL_ADDITIVE), row_mean(r->clock, ABL_FULL),
                alo > 0 ? "cheaper and a little better" : ahi < 0 ? "cheaper but a little worse"
                        : "cheaper and about as good");
    quarter_claim(r, "A9", ABL_ADDITIVE);
    report_text(r->o, "The recurrent model is %.3f .. %.3f nats below the full model (paired): at "
                "these sizes and this budget chapter 1's cell learns more per step than the "
                "Transformer that replaced it. Likely reasons, none tested here: the cell gets "
                "the previous character directly through h_{t-1}, while attention must learn to "
                "find it (chapter 15, K2, measures how much weight the trained heads put on it); and one peak rate, %g, set for the full "
                "model, is used for every model, with no sweep, so a rate that suits one model "
                "better than another is part of every gap. The same cell with a state of "
                TEXT(TINY_M) " ends %.3f .. %.3f nats above the full model: the lead comes from "
                "what the state carries. The derivation's case for attention is not a lower loss "
                "at a small fixed budget: it is a state that need not hold the whole past "
                "(chapter 1), which windows of %zu characters barely test, and work that runs "
                "over every position at once (chapter 11), which a double-precision model run one "
                "sequence at a time on two cores does not show (seconds per run in the table). "
                "The claim is the measured direction, at this budget and size only.", -hi, -lo,
                r->s->rate, tlo, thi, r->s->context);
    check_at_most("A10", "chapter 1's recurrent cell at the full model's parameter count, same "
                  "steps and batches: the held-out loss is lower at every seed (largest paired "
                  "difference, nats)", hi, -LOWER);
    check_control("A10", "the same test on the same cell with a state of " TEXT(TINY_M));
    check_at_most("A10", NULL, thi, -LOWER);
}

/* ------------------------------------------------------------------- the run */

static void setup(run *r)
{
    const settings *s = r->s;
    size_t S = s->seeds;
    gsl_rng *windows = scope_keep_rng(r->sc, rng_new(r->o->seed + 1000));
    r->valid = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    r->train = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    chapter_must(corpus_draw(r->text, CORPUS_HELDOUT, s->windows, s->context, windows, r->valid),
                 "drawing validation windows");
    chapter_must(corpus_draw(r->text, CORPUS_TRAIN, s->windows, s->context, windows, r->train),
                 "drawing training windows");
    r->loss = scope_matrix(r->sc, ROWS, S);
    r->leak = scope_matrix(r->sc, 2, S);
    r->again = scope_vector(r->sc, S);
    r->clock = scope_matrix(r->sc, ROWS, S);
    for (size_t n = 2; n <= 3; n++) {
        double k;
        r->counted[n - 2] = ngram_best_loss(r->text, n, r->valid, s->windows, s->context, &k);
    }
}

static void fill_defaults(void *arg)
{
    settings *s = arg;
    const int f = s->full;
    size_t *v[] = {&s->layers, &s->heads, &s->dim, &s->context, &s->batch, &s->steps, &s->seeds};
    const size_t quick[] = {1, 2, 16, 16, 8, 120, 2};
    const size_t full[] = {2, 2, 32, 32, 8, 500, 3};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (*v[k] == 0)
            *v[k] = f ? full[k] : quick[k];
    if (s->rate == 0.0)
        s->rate = f ? 6e-3 : 2e-2;
    s->windows = (f ? 16 : 4) * s->batch;
}

/* The least text the claims are checked on (1 MiB), issue 28 */
#define MIN_CORPUS ((size_t)1 << 20)

static int check_settings(const invent_opts *o, void *arg, corpus **text)
{
    const settings *s = arg;
    if (s->dim % s->heads != 0 || s->heads < 2)
        return cli_fail(o, "--heads %zu: at least 2 (one head is an ablation), dividing --dim %zu",
                        s->heads, s->dim);
    if (s->seeds < 2)
        return cli_fail(o, "--seeds %zu: at least 2 (a spread needs two runs)", s->seeds);
    if (s->rate < 1e-4)
        return cli_fail(o, "--rate %g: at least 1e-4 (below it nothing is learned in the budget)",
                        s->rate);
    if (s->steps < 20)
        return cli_fail(o, "--steps %zu: at least 20 (a warm-up and a decay)", s->steps);
    if (s->context < 16)
        return cli_fail(o, "--context %zu: at least 16, too short for the claims: A2's unmasked "
                           "model shows its cost within the budget below it (measured at 3, 4 "
                           "and 8; A1 fails too at 3)", s->context);
    int rc = corpus_option_load(o, s->corpus, s->context, text);
    if (rc != CLI_RUN)
        return rc;
    if ((*text)->n < MIN_CORPUS)
        return cli_fail(o, "--corpus %s: %zu characters, too few for the held-out comparisons: "
                           "the claims compare models on the held-out tenth and need at least "
                           "%zu characters (they were set on the fortunes, 2 MB)", s->corpus,
                        (*text)->n, (size_t)MIN_CORPUS);
    gpt_shape shape = shape_of(s, (*text)->vocab);
    return train_memory_refuse(o, &shape, s->batch, s->context, 10, 3, "the chapter");
}

int main(int argc, char **argv)
{
    settings s = {.corpus = CORPUS_FORTUNES_DIR};
    const cli_text_option texts[] = {{"corpus", &s.corpus, "a text file (or folder) to learn"}};
    const cli_option options[] = {
        {"full", CLI_FLAG, &s.full, 0, 1, "chapter 13's quick model (2 layers, width 32, context "
                                          "32), 500 steps, 3 seeds (minutes)"},
        {"layers", CLI_SIZE, &s.layers, 0, 8, "blocks L (0: 1, with --full 2)"},
        {"heads", CLI_SIZE, &s.heads, 0, 16, "heads H, at least 2, dividing the width (0: 2)"},
        {"dim", CLI_SIZE, &s.dim, 0, 256, "width d (0: 16; 32)"},
        {"context", CLI_SIZE, &s.context, 0, 128, "characters per sequence, at least 16 (0: 16; 32)"},
        {"batch", CLI_SIZE, &s.batch, 0, 64, "sequences per step (0: 8)"},
        {"steps", CLI_SIZE, &s.steps, 0, 100000, "training steps per run, at least 20 (0: 120; "
         "500); A1-A10 are claims about training at the default budgets: other step "
         "counts can fail them, and say so"},
        {"seeds", CLI_SIZE, &s.seeds, 0, 20, "seeds per model, at least 2 (0: 2; 3)"},
        {"rate", CLI_DOUBLE, &s.rate, 0, 0.05, "peak learning rate (0: 2e-2; 6e-3)"},
    };
    const cli_spec spec = {"ch14", "Chapter 14: each choice of the derivation removed from the "
                           "trained model of chapter 13, one at a time. Text option: --corpus "
                           "FILE (default " CORPUS_FORTUNES_DIR ").",
                           options, (int)(sizeof options / sizeof options[0])};
    const text_chapter c = {texts, 1, &spec,
                            "Chapter 14: the derivation's choices, removed one at a time", &s,
                            fill_defaults, check_settings};
    invent_opts o;
    corpus *text;
    int rc = text_chapter_open(&c, argc, argv, &o, &text);
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    SCOPE_KEEP(sc, text, corpus_free);
    run r = {.o = &o, .s = &s, .sc = sc, .text = text};
    setup(&r);
    setup_text(&r);
    train_all(&r);
    table(&r);
    rank_text(&r);
    plot_bars(&r);
    direction_claims(&r);
    quarter_claims(&r);
    larger_claims(&r);
    scope_close(sc);
    return chapter_end();
}
