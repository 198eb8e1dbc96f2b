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
 * Then the trained model is read back, in the "circuits" view of Elhage et
 * al. (2021) and the key-value view of the MLP of Geva et al. (2021):
 *   K1         the effective ranks of each head's W_QK and W_OV against further
 *              draws, and the rank a free A takes;
 *   K2         what the heads attend to (previous, first, same character,
 *              itself), measured on a validation line;
 *   K3         the last MLP's units as keys (the contexts that fire them) and
 *              values (the characters they promote).
 * The default is a tiny model and a few hundred steps (seconds); --full
 * trains chapter 13's quick model longer, over more seeds (minutes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_vector.h>
#include <gsl/gsl_statistics.h>

#include "ablation.h"
#include "adamw.h"
#include "circuits.h"
#include "cli_text.h"
#include "corpus.h"
#include "corpus_option.h"
#include "gpt_clone.h"
#include "head_roles.h"
#include "invent.h"
#include "jacobi_svd.h"
#include "kv_memory.h"
#include "ngram.h"
#include "probe.h"
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
    gpt_weights **trained;  /* (ABL_COUNT): full and free A trained at o->seed, for the inspection */
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
    if (seed == r->o->seed && steps == s->steps && (a == ABL_FULL || a == ABL_FREE_A))
        r->trained[a] = gpt_clone(m->w); /* kept for the inspection (NULL: out of memory) */
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
                "find it (K2 below measures how much weight the trained heads put on it); and one peak rate, %g, set for the full "
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

/* ---- inspection ---- */
/* K1-K3: the full model trained at o->seed read back (and, for K1, the free-A
 * model): its heads as the matrices W_QK and W_OV (Elhage et al., 2021), its
 * attention on validation text, and its last MLP as a key-value memory (Geva
 * et al., 2021). Each reading is set against the same reading of the model's
 * initial draw, of its heads with their weights shuffled, or of further draws. */

#define READ 16         /* K3: units read, the most active of the last block... */
#define SHOWN 6         /* ...and shown, the first of them */
#define TOP_CONTEXTS 8  /* K3: contexts that fire a unit most */
#define CONTEXT_CHARS 6 /* K3: characters shown of a context */
#define PROMOTED 8      /* K3: characters shown of what a value promotes */
#define CONTEXTS_WIDTH (TOP_CONTEXTS * (CONTEXT_CHARS + 1) - 1) /* K3: the table's column */
#define DRAWS 8         /* K1: further draws, to see how far a draw alone moves a rank */

typedef struct {
    const run *r;
    scope *sc;
    gpt_weights *trained, *drawn, *free_a; /* drawn: the full model's draw at o->seed */
    size_t L, H, rk, d;                    /* layers, heads, head size r = d / H, width */
} inspection;

/* byte c -> how a figure or the table shows it: space "·", newline "¶", any other
 * byte outside printable ASCII "¤" */
static const char *shown(unsigned char c, char buf[2])
{
    if (c == ' ')
        return "·";
    if (c == '\n')
        return "¶";
    if (c < 32 || c >= 127)
        return "¤";
    buf[0] = (char)c, buf[1] = '\0';
    return buf;
}

/* -> how many characters text shows (UTF-8: continuation bytes take no room) */
static int shown_width(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += ((unsigned char)*text & 0xC0) != 0x80;
    return n;
}

/* the n tokens at corpus position at .. -> out: their characters as shown() shows them */
static char *text_of(const corpus *c, size_t at, size_t n, char *out, size_t room)
{
    char buf[2];
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        strncat(out, shown(c->symbols[c->tokens[at + i]], buf), room - strlen(out) - 1);
    return out;
}

/* M: (d, d) -> s: its singular values (one-sided Jacobi); -> their effective rank */
static double spectrum(const gsl_matrix *M, gsl_vector *s)
{
    chapter_must(jacobi_singular_values(M, s), "the singular values of a head");
    return effective_rank(s);
}

enum { QK_TRAINED, QK_DRAWN, OV_TRAINED, OV_DRAWN, A_TRAINED, CIRCUITS };

/* K1's measurements, per kind of matrix: each head's effective rank and how many
 * singular values hold 99% of its squared norm (row l H + j of erank and k99, (L H,
 * CIRCUITS)), and the mean spectrum over its largest value (spectra, (d, CIRCUITS)) */
typedef struct {
    gsl_matrix *erank, *k99, *spectra;
} head_ranks;

/* M: (d, d), head k, its kind -> its ranks and spectrum into h; s: (d) scratch */
static void read_circuit(const gsl_matrix *M, size_t k, int kind, gsl_vector *s, head_ranks *h)
{
    gsl_matrix_set(h->erank, k, kind, spectrum(M, s));
    gsl_matrix_set(h->k99, k, kind, (double)energy_rank(s, 0.99));
    gsl_vector_scale(s, 1.0 / gsl_vector_get(s, 0) / (double)h->erank->size1);
    gsl_vector_view col = gsl_matrix_column(h->spectra, kind);
    gsl_vector_add(&col.vector, s);
}

/* K1: every head's W_QK and W_OV, trained and drawn, and free A's A_j -> h; one line a head */
static head_ranks read_heads(const inspection *in)
{
    head_ranks h = {.erank = scope_matrix(in->sc, in->L * in->H, CIRCUITS),
                    .k99 = scope_matrix(in->sc, in->L * in->H, CIRCUITS),
                    .spectra = scope_matrix(in->sc, in->d, CIRCUITS)};
    gsl_matrix *M = scope_matrix(in->sc, in->d, in->d);
    gsl_vector *s = scope_vector(in->sc, in->d);
    const gpt_weights *w[CIRCUITS] = {in->trained, in->drawn, in->trained, in->drawn,
                                      in->free_a};
    report_line(in->r->o, "  %-6s %-5s %20s %20s %20s", "block", "head", "W_QK trained (drawn)",
                "W_OV trained (drawn)", "free A (99% of norm)");
    for (size_t k = 0; k < in->L * in->H; k++) {
        for (int c = 0; c < CIRCUITS; c++) {
            const mha_weights *a = w[c]->blocks[k / in->H]->attn;
            chapter_must(c == OV_TRAINED || c == OV_DRAWN ? circuit_ov(a, k % in->H, M)
                                                           : circuit_qk(a, k % in->H, M),
                         "a head's circuit");
            read_circuit(M, k, c, s, &h);
        }
        const double *e = gsl_matrix_const_ptr(h.erank, k, 0);
        report_line(in->r->o, "  %-6zu %-5zu %12.2f (%5.2f) %12.2f (%5.2f) %14.2f (%3.0f)",
                    k / in->H + 1, k % in->H + 1, e[QK_TRAINED], e[QK_DRAWN], e[OV_TRAINED],
                    e[OV_DRAWN], e[A_TRAINED], gsl_matrix_get(h.k99, k, A_TRAINED));
    }
    return h;
}

/* -> the mean over the heads of the effective rank of kind a over that of kind b */
static double rank_ratio(const head_ranks *h, int a, int b)
{
    double sum = 0.0;
    for (size_t k = 0; k < h->erank->size1; k++)
        sum += gsl_matrix_get(h->erank, k, a) / gsl_matrix_get(h->erank, k, b);
    return sum / (double)h->erank->size1;
}

/* the same ratio of W_QK between DRAWS further draws and the draw at o->seed (how far
 * a draw alone moves it) -> *lo, *hi: its smallest and largest */
static void draw_to_draw(const inspection *in, const head_ranks *h, double *lo, double *hi)
{
    gpt_shape shape = in->drawn->shape;
    gsl_matrix *M = scope_matrix(in->sc, in->d, in->d);
    gsl_vector *s = scope_vector(in->sc, in->d);
    *lo = INFINITY, *hi = 0.0;
    for (size_t n = 1; n <= DRAWS; n++) {
        scope *sc = scope_open();
        gsl_rng *rng = scope_keep_rng(sc, rng_new(in->r->o->seed + 4000 + n));
        gpt_weights *w = SCOPE_KEEP(sc, gpt_new(&shape, rng), gpt_free);
        double sum = 0.0;
        for (size_t k = 0; k < in->L * in->H; k++) {
            chapter_must(circuit_qk(w->blocks[k / in->H]->attn, k % in->H, M), "a drawn W_QK");
            sum += spectrum(M, s) / gsl_matrix_get(h->erank, k, QK_DRAWN);
        }
        double q = sum / (double)(in->L * in->H);
        *lo = q < *lo ? q : *lo, *hi = q > *hi ? q : *hi;
        scope_close(sc);
    }
}

/* -> the mean effective rank of one kind over the heads */
static double mean_rank(const head_ranks *h, int kind)
{
    gsl_vector_const_view c = gsl_matrix_const_column(h->erank, kind);
    return gsl_stats_mean(c.vector.data, c.vector.stride, c.vector.size);
}

/* the figure of K1: the mean spectra over s_1, one line per kind */
static void plot_spectra(const inspection *in, const head_ranks *h)
{
    plot *p = plot_begin(in->r->o, "ch14_spectra");
    plot_block(p, "k, mean s_k / s_1 of W_QK trained, drawn, W_OV trained, drawn, free A");
    for (size_t k = 0; k < in->d; k++)
        PLOT_ROW(p, (double)(k + 1), gsl_matrix_get(h->spectra, k, 0),
                 gsl_matrix_get(h->spectra, k, 1), gsl_matrix_get(h->spectra, k, 2),
                 gsl_matrix_get(h->spectra, k, 3), gsl_matrix_get(h->spectra, k, 4));
    plot_set(p, "rank", (double)in->rk);
    plot_set(p, "width", (double)in->d);
    plot_set(p, "heads", (double)(in->L * in->H));
    plot_render(p, "ch14_spectra.gp");
}

/* w -> its held-out loss (causal), measured as mean_loss measures a trained model */
static double held_out(const run *r, gpt_weights *w)
{
    size_t B = r->s->batch, T = r->s->context;
    scope *sc = scope_open();
    ablated as_is = {.kind = ABL_FULL, .w = w}; /* w itself, nothing reparameterised */
    gpt_trace *tr = SCOPE_KEEP(sc, gpt_trace_new(w, B, T), gpt_trace_free);
    size_t *x = SCOPE_KEEP(sc, calloc(2 * B * T, sizeof(size_t)), free);
    double loss = mean_loss(r, &as_is, tr, r->valid, 0, x, x + B * T);
    scope_close(sc);
    return loss;
}

/* free A with every A_j replaced by its best rank-k approximation W_q^T W_k of a
 * head of size k (factor_svd, chapter 6) -> its held-out loss */
static double cut_to_rank(const inspection *in, size_t k)
{
    gpt_weights *w = SCOPE_KEEP(in->sc, gpt_clone(in->free_a), gpt_free);
    gsl_matrix *Q = scope_matrix(in->sc, k, in->d), *K = scope_matrix(in->sc, k, in->d);
    for (size_t l = 0; l < in->L; l++)
        for (size_t j = 0; j < in->H; j++) { /* block j of W_q is sqrt(H) A_j^T (ablation.h) */
            gsl_matrix_view Aj = heads_rows(w->blocks[l]->attn->Wq, in->H, j);
            chapter_must(factor_svd(&Aj.matrix, Q, K), "factoring A");
            chapter_must(mat_mul(Q, CblasTrans, K, CblasNoTrans, &Aj.matrix), "A cut to rank k");
        }
    return held_out(in->r, w);
}

/* K2: every head of w over the validation windows -> prof[l H + j]; shuffled: the
 * same heads with each row's weights permuted over its positions */
static void profile_heads(const inspection *in, const gpt_weights *w, head_profile *prof,
                          head_profile *shuffled)
{
    const run *r = in->r;
    size_t T = r->s->context, n = r->s->windows, heads = in->L * in->H;
    scope *sc = scope_open();
    gpt_probe *p = SCOPE_KEEP(sc, gpt_probe_new(w, T), gpt_probe_free);
    gsl_matrix *A = scope_matrix(sc, T, T);
    gsl_rng *rng = scope_keep_rng(sc, rng_new(r->o->seed + 2000));
    size_t *x = SCOPE_KEEP(sc, calloc(2 * T, sizeof(size_t)), free);
    for (size_t i = 0; i < n; i++) {
        corpus_window(r->text, r->valid + i, 1, T, x, x + T);
        chapter_must(gpt_probe_run(w, x, p), "reading the attention");
        for (size_t k = 0; k < heads; k++) {
            gsl_matrix_const_view a = gpt_probe_attention(p, k / in->H, k % in->H);
            chapter_must(head_profile_add(&a.matrix, x, &prof[k]), "profiling a head");
            gsl_matrix_memcpy(A, &a.matrix);
            head_shuffle(A, rng);
            chapter_must(head_profile_add(A, x, &shuffled[k]), "profiling a shuffled head");
        }
    }
    for (size_t k = 0; k < heads; k++) {
        head_profile_finish(&prof[k], n);
        head_profile_finish(&shuffled[k], n);
    }
    scope_close(sc);
}

/* K2's table: one line a head, each share beside that of the shuffled head, the
 * entropy as a share of uniform rows', the verdict */
static void print_profiles(const inspection *in, const head_profile *prof,
                           const head_profile *shuffled)
{
    report_line(in->r->o, "  %-5s %-4s %14s %14s %14s %14s %8s  %s", "block", "head",
                "previous", "first", "same char", "itself", "entropy", "verdict");
    for (size_t k = 0; k < in->L * in->H; k++) {
        const head_profile *p = &prof[k], *q = &shuffled[k];
        report_line(in->r->o, "  %-5zu %-4zu %6.3f (%5.3f) %6.3f (%5.3f) %6.3f (%5.3f) "
                    "%6.3f (%5.3f) %7.0f%%  %s", k / in->H + 1, k % in->H + 1, p->previous,
                    q->previous, p->first, q->first, p->same, q->same, p->self, q->self,
                    100.0 * p->entropy / p->uniform, head_verdict(p));
    }
}

/* -> the largest ratio, over the n heads and the four relations, of a head's share
 * to the same head's shuffled; *head, *relation: where it is */
static double strongest_role(const head_profile *prof, const head_profile *shuffled, size_t n,
                             size_t *head, size_t *relation)
{
    double best = 0.0;
    for (size_t k = 0; k < n; k++) {
        const double p[] = {prof[k].previous, prof[k].first, prof[k].same, prof[k].self};
        const double q[] = {shuffled[k].previous, shuffled[k].first, shuffled[k].same,
                            shuffled[k].self};
        for (size_t c = 0; c < 4; c++)
            if (p[c] / q[c] > best)
                best = p[c] / q[c], *head = k, *relation = c;
    }
    return best;
}

/* K2's figure: every head's weights on the first validation window */
static void plot_attention(const inspection *in)
{
    const run *r = in->r;
    size_t T = r->s->context;
    scope *sc = scope_open();
    gpt_probe *p = SCOPE_KEEP(sc, gpt_probe_new(in->trained, T), gpt_probe_free);
    size_t *x = SCOPE_KEEP(sc, calloc(2 * T, sizeof(size_t)), free);
    char *line = SCOPE_KEEP(sc, calloc(3 * T + 1, 1), free);
    corpus_window(r->text, r->valid, 1, T, x, x + T);
    chapter_must(gpt_probe_run(in->trained, x, p), "reading the attention");
    plot *fig = plot_begin(r->o, "ch14_attention");
    for (size_t k = 0; k < in->L * in->H; k++) {
        plot_block(fig, "key position, query position, weight");
        gsl_matrix_const_view a = gpt_probe_attention(p, k / in->H, k % in->H);
        plot_matrix(fig, &a.matrix);
    }
    plot_set(fig, "tokens", (double)T);
    plot_set(fig, "layers", (double)in->L);
    plot_set(fig, "heads", (double)in->H);
    plot_set_text(fig, "line", text_of(r->text, r->valid[0], T, line, 3 * T + 1));
    plot_render(fig, "ch14_attention.gp");
    scope_close(sc);
}

/* the last block's MLP activations of w at every validation position -> F: (windows T,
 * m); row i T + t: window i, position t */
static gsl_matrix *activations(const inspection *in, const gpt_weights *w)
{
    const run *r = in->r;
    size_t T = r->s->context, n = r->s->windows, m = w->shape.hidden;
    gsl_matrix *F = scope_matrix(in->sc, n * T, m);
    scope *sc = scope_open();
    gpt_probe *p = SCOPE_KEEP(sc, gpt_probe_new(w, T), gpt_probe_free);
    size_t *x = SCOPE_KEEP(sc, calloc(2 * T, sizeof(size_t)), free);
    for (size_t i = 0; i < n; i++) {
        corpus_window(r->text, r->valid + i, 1, T, x, x + T);
        chapter_must(gpt_probe_run(w, x, p), "reading the MLP");
        gsl_matrix_view rows = gsl_matrix_submatrix(F, i * T, 0, T, m);
        gsl_matrix_memcpy(&rows.matrix, p->blk[in->L - 1]->F);
    }
    scope_close(sc);
    return F;
}

/* position q of activations() -> its place in the corpus */
static size_t corpus_at(const run *r, size_t q)
{
    return r->valid[q / r->s->context] + q % r->s->context;
}

/* K3's measurements of one unit, or their means over the units: of its top
 * contexts, and of as many random validation positions (the control) */
typedef struct {
    double agree, agree_random; /* share of the most common last character */
    double next, next_random;   /* mean rank of the next character in what the value
                                 * promotes, as the share of the alphabet below it */
} unit_reading;

/* value logits z: (V), positions q: (k) of F's rows -> the agreement of their last
 * characters and the mean share of the alphabet that z ranks below their next ones */
static void read_positions(const run *r, const gsl_vector *z, const size_t *q, double *agree,
                           double *next)
{
    size_t last[TOP_CONTEXTS];
    *next = 0.0;
    for (size_t k = 0; k < TOP_CONTEXTS; k++) {
        size_t at = corpus_at(r, q[k]), below = 0;
        last[k] = r->text->tokens[at];
        double want = gsl_vector_get(z, r->text->tokens[at + 1]);
        for (size_t v = 0; v < z->size; v++)
            below += gsl_vector_get(z, v) < want;
        *next += (double)below / (double)(z->size - 1) / TOP_CONTEXTS;
    }
    *agree = kv_agreement(last, TOP_CONTEXTS);
}

/* top: (TOP_CONTEXTS) positions -> contexts: their last characters, shown, space-separated */
static void contexts_of(const run *r, const size_t *top, char *contexts, size_t room)
{
    char one[CONTEXT_CHARS * 2 + 1];
    contexts[0] = '\0';
    for (size_t k = 0; k < TOP_CONTEXTS; k++) {
        size_t at = corpus_at(r, top[k]), t = top[k] % r->s->context;
        size_t n = t + 1 < CONTEXT_CHARS ? t + 1 : CONTEXT_CHARS;
        snprintf(contexts + strlen(contexts), room - strlen(contexts), "%s%s", k ? " " : "",
                 text_of(r->text, at + 1 - n, n, one, sizeof one));
    }
}

/* K3 for one unit of the last block: its reading (z: (V), what its value promotes) */
static unit_reading measure_unit(const inspection *in, const gsl_matrix *F, size_t unit,
                                 const gsl_vector *z, gsl_rng *rng)
{
    size_t top[TOP_CONTEXTS], random[TOP_CONTEXTS];
    unit_reading u;
    chapter_must(kv_top_positions(F, unit, TOP_CONTEXTS, top), "the top contexts");
    for (size_t k = 0; k < TOP_CONTEXTS; k++)
        random[k] = gsl_rng_uniform_int(rng, F->size1);
    read_positions(in->r, z, top, &u.agree, &u.next);
    read_positions(in->r, z, random, &u.agree_random, &u.next_random);
    return u;
}

/* one unit's line of the table and panel of the figure (block, and variables ending
 * in panel): the contexts that fire it most, the characters z promotes most */
static void show_unit(const inspection *in, const gsl_matrix *F, size_t unit,
                      const gsl_vector *z, const unit_reading *u, plot *fig, size_t panel)
{
    const run *r = in->r;
    size_t top[TOP_CONTEXTS], ranked[PROMOTED];
    char contexts[TOP_CONTEXTS * (CONTEXT_CHARS * 2 + 1)], promoted[PROMOTED * 4] = "", buf[2];
    chapter_must(kv_top_positions(F, unit, TOP_CONTEXTS, top), "the top contexts");
    contexts_of(r, top, contexts, sizeof contexts);
    chapter_must(gsl_sort_vector_largest_index(ranked, PROMOTED, z) ? INVENT_ENUMERIC : 0,
                 "ranking the promoted characters");
    plot_block(fig, "rank, logit change, of the characters the value promotes most");
    for (size_t k = 0; k < PROMOTED; k++) {
        snprintf(promoted + strlen(promoted), sizeof promoted - strlen(promoted), "%s%s",
                 k ? " " : "", shown(r->text->symbols[ranked[k]], buf));
        PLOT_ROW(fig, (double)k, gsl_vector_get(z, ranked[k]));
    }
    int room = CONTEXTS_WIDTH - shown_width(contexts);
    report_line(r->o, "  %-5zu %s%*s %5.0f%% %5.0f%%  %s", unit, contexts, room > 0 ? room : 0, "",
                100.0 * u->agree, 100.0 * u->next, promoted);
    char var[3][16];
    snprintf(var[0], 16, "chars%zu", panel);
    snprintf(var[1], 16, "fires%zu", panel);
    snprintf(var[2], 16, "unit%zu", panel);
    plot_set_text(fig, var[0], promoted);
    plot_set_text(fig, var[1], contexts);
    plot_set(fig, var[2], (double)unit);
}

/* K3: the READ most active units of w's last block (or all m if fewer) -> the means of
 * their readings; show: the first SHOWN of them in the table and the figure */
static unit_reading read_memory(const inspection *in, const gpt_weights *w, int show)
{
    const run *r = in->r;
    gsl_matrix *F = activations(in, w);
    gsl_vector *z = scope_vector(in->sc, r->text->vocab);
    size_t n = READ < F->size2 ? READ : F->size2, units[READ];
    chapter_must(kv_most_active(F, n, units), "the most active units");
    gsl_rng *rng = scope_keep_rng(in->sc, rng_new(r->o->seed + 3000));
    plot *fig = show ? plot_begin(r->o, "ch14_kv_memory") : NULL;
    if (show)
        report_line(r->o, "  %-5s %-*s %6s %6s  %s", "unit", CONTEXTS_WIDTH, "contexts that fire it most",
                    "agree", "next", "its value promotes");
    unit_reading mean = {0};
    for (size_t k = 0; k < n; k++) {
        chapter_must(kv_value_logits(w, in->L - 1, units[k], z), "a value's logits");
        unit_reading u = measure_unit(in, F, units[k], z, rng);
        if (show && k < SHOWN)
            show_unit(in, F, units[k], z, &u, fig, k);
        mean.agree += u.agree / n, mean.agree_random += u.agree_random / n;
        mean.next += u.next / n, mean.next_random += u.next_random / n;
    }
    plot_set(fig, "units", n < SHOWN ? n : SHOWN);
    plot_set(fig, "block", (double)in->L);
    plot_render(fig, "ch14_kv_memory.gp");
    return mean;
}

/* K1: the heads' circuits and free A's rank, against the draw they started from */
static void circuits_part(const inspection *in)
{
    const invent_opts *o = in->r->o;
    report_text(o, "K1. Each head is two d x d matrices (Elhage et al., 2021): W_QK = W_q^T W_k, "
                "whose bilinear form scores a query against a key, and W_OV = W_o W_v, what the "
                "head writes for what it reads; both have rank at most r = %zu of d = %zu. How "
                "many dimensions a head uses is measured by the effective rank of Roy & Vetterli "
                "(2007), the exponential of the entropy of the singular values normalised to sum "
                "1 (k for k equal values, less as they spread), the singular values by one-sided "
                "Jacobi; for free A also the count of singular values that hold 99%% of its "
                "squared norm. Free A's A_j is a free d x d matrix started at the drawn W_QK.",
                in->rk, in->d);
    head_ranks h = read_heads(in);
    plot_spectra(in, &h);
    double lo, hi;
    draw_to_draw(in, &h, &lo, &hi);
    double whole = held_out(in->r, in->free_a), cut = cut_to_rank(in, in->rk);
    double one = cut_to_rank(in, 1);
    double qk = rank_ratio(&h, QK_TRAINED, QK_DRAWN);
    report_text(o, "Trained, the mean effective rank of W_QK went from %.2f to %.2f and that of "
                "W_OV from %.2f to %.2f (mean ratio of a head to its draw %.2f and %.2f). How "
                "much does a draw alone change it? Over %d further draws of the untrained model, "
                "the mean effective rank of W_QK lies between %.2f and %.2f times this draw's: "
                "training changed W_QK %s than drawing again does.", mean_rank(&h, QK_DRAWN),
                mean_rank(&h, QK_TRAINED), mean_rank(&h, OV_DRAWN), mean_rank(&h, OV_TRAINED), qk,
                rank_ratio(&h, OV_TRAINED, OV_DRAWN), DRAWS, lo, hi,
                qk < lo || qk > hi ? "more" : "no more");
    double a = rank_ratio(&h, A_TRAINED, QK_DRAWN);
    report_text(o, "Free A started at effective rank %.2f (the drawn product, rank r) and ended "
                "at %.2f (ratio %.2f), %s r. The same optimiser, on the same text, %s the "
                "rank of the factored W_QK and %s that of a free A: what differs is the "
                "parameterisation. Neither reading tells the text's pull from the optimiser's: "
                "weight decay on two factors W_q, W_k penalises the nuclear norm of their product "
                "and so favours a low rank (Srebro et al., 2005), and AdamW's steps on each entry "
                "of a free A move it in every direction, whatever the data. Are free A's added "
                "dimensions used? Cut back to its best rank-r approximation (a head of size r, "
                "factor_svd), its held-out loss goes from %.4f to %.4f (%+.4f nats); cut to "
                "rank 1, to %.4f (%+.4f)%s", mean_rank(&h, QK_DRAWN), mean_rank(&h, A_TRAINED), a,
                mean_rank(&h, A_TRAINED) > (double)in->rk ? "above" : "not above",
                qk < 1 ? "lowers" : "raises", a > 1 ? "raises" : "lowers", whole, cut,
                cut - whole, one, one - whole,
                fabs(one - whole) < mean_paired(in->r, THREE_QUARTERS)
                    ? ", less than the budget's last quarter costs: at this budget even the "
                      "scores' rank is worth little." : ".");
    check_at_most("K1", "training lowers the effective rank of the heads' W_QK more than drawing "
                  "again changes it (mean ratio of trained to drawn, at most the smallest of the "
                  "further draws' ratios)", qk, lo);
    check_control("K1", "the same test on free A, trained from the drawn product");
    check_at_most("K1", NULL, a, lo);
}

/* -> the largest share, over the n heads and the four relations */
static double largest_share(const head_profile *prof, size_t n)
{
    double best = 0.0;
    for (size_t k = 0; k < n; k++) {
        const double p[] = {prof[k].previous, prof[k].first, prof[k].same, prof[k].self};
        for (size_t c = 0; c < 4; c++)
            best = p[c] > best ? p[c] : best;
    }
    return best;
}

/* the control of K2: an ideal previous-token head (all of row t on t - 1) over the
 * first validation window, profiled as the trained heads are */
static head_profile previous_token_head(const inspection *in)
{
    size_t T = in->r->s->context;
    gsl_matrix *A = scope_matrix(in->sc, T, T);
    size_t *x = SCOPE_KEEP(in->sc, calloc(2 * T, sizeof(size_t)), free);
    head_profile p = {0};
    corpus_window(in->r->text, in->r->valid, 1, T, x, x + T);
    gsl_matrix_set(A, 0, 0, 1.0);
    for (size_t t = 1; t < T; t++)
        gsl_matrix_set(A, t, t - 1, 1.0);
    chapter_must(head_profile_add(A, x, &p), "profiling a previous-token head");
    head_profile_finish(&p, 1);
    return p;
}

/* K2: what each head attends to, against its own weights shuffled and its draw */
static void heads_part(const inspection *in)
{
    const invent_opts *o = in->r->o;
    size_t n = in->L * in->H;
    head_profile *prof = SCOPE_KEEP(in->sc, calloc(4 * n, sizeof *prof), free);
    report_text(o, "K2. What each head attends to, over the %zu validation windows: the mean "
                "share of a query's weight on the previous character, on the window's first, on "
                "earlier copies of its own character, on itself; in brackets the same head with "
                "each row's weights shuffled over the positions it may see (the same entropies, "
                "no preferred position); and the mean entropy of its rows as a share of uniform "
                "rows'. Verdict: the first relation with a share of at least %.1f, else 'broad' "
                "when the entropy is at least %.0f%% of uniform rows', else 'mixed'.",
                in->r->s->windows, HEAD_ROLE_SHARE, 100.0 * HEAD_BROAD_ENTROPY);
    profile_heads(in, in->trained, prof, prof + n);
    profile_heads(in, in->drawn, prof + 2 * n, prof + 3 * n);
    print_profiles(in, prof, prof + n);
    report_text(o, "The same heads as drawn, before training:");
    print_profiles(in, prof + 2 * n, prof + 3 * n);
    plot_attention(in);
    size_t head, relation, head0, relation0;
    static const char *names[] = {"previous", "first", "same character", "itself"};
    double most = strongest_role(prof, prof + n, n, &head, &relation);
    double most0 = strongest_role(prof + 2 * n, prof + 3 * n, n, &head0, &relation0);
    report_text(o, "The strongest preference of a trained head: block %zu head %zu on '%s', %.2f "
                "times its shuffled share (as drawn: %.2f, block %zu head %zu on '%s'). %s",
                head / in->H + 1, head % in->H + 1, names[relation], most, most0, head0 / in->H + 1,
                head0 % in->H + 1, names[relation0], largest_share(prof, n) < HEAD_ROLE_SHARE ?
                "No head gives half its weight to one relation at this budget: the heads of this "
                "small model are not (yet) the previous-token or copying heads found in larger "
                "ones (Olsson et al., 2022)." : "A head gives half its weight or more to one "
                "relation: it has a role.");
    head_profile ideal = previous_token_head(in);
    check_at_most("K2", "no trained head has a role at this budget: the largest share of any "
                  "head on any of the four relations", largest_share(prof, n), HEAD_ROLE_SHARE);
    check_control("K2", "an ideal previous-token head (row t all on t - 1), measured the same way");
    check_at_most("K2", NULL, largest_share(&ideal, 1), HEAD_ROLE_SHARE);
}

/* K3: the last MLP as a key-value memory, against the units as drawn */
static void memory_part(const inspection *in)
{
    const invent_opts *o = in->r->o;
    report_text(o, "K3. The last block's MLP as a key-value memory (Geva et al., 2021): unit i "
                "fires relu(k_i . h + b_i) and adds that much of its value v_i to the stream. "
                "Below, for the %d most active units (mean activation over the %zu validation "
                "positions), the contexts that fire each most (their last characters; · a space, "
                "¶ a new line, ¤ any other byte outside printable ASCII, such as a byte of a "
                "UTF-8 letter) and the characters its value promotes through the output layer, "
                "W_out (gamma * (v_i - mean v_i)): the final norm's centring and gain kept, its "
                "1/std dropped (a positive factor shared by every character).", SHOWN,
                in->r->s->windows * in->r->s->context);
    unit_reading u = read_memory(in, in->trained, 1);
    unit_reading u0 = read_memory(in, in->drawn, 0);
    report_text(o, "agree: the share of a unit's %d top contexts that end in their commonest "
                "character; next: where the character that followed a top context ranks in what "
                "the value promotes (100%%: first of the alphabet, 50%%: chance). Over the %d "
                "most active units: agree %.0f%%, against %.0f%% for as many random contexts, "
                "but already %.0f%% for the units as drawn: the stream at a position is mostly "
                "its own character's embedding, so any key picks out characters, trained or not. "
                "next %.0f%%, against %.0f%% as drawn: training put the memory's content in the "
                "values. But random contexts' next characters rank %.0f%%: much of what a value "
                "promotes is what is common after any context, and only the difference is "
                "specific to its key.",
                TOP_CONTEXTS, READ, 100.0 * u.agree, 100.0 * u.agree_random, 100.0 * u0.agree,
                100.0 * u.next, 100.0 * u0.next, 100.0 * u.next_random);
    check_at_least("K3", "the values promote likely next characters: the character that followed "
                   "a unit's top contexts ranks in the top third of its value's logits (mean "
                   "share of the alphabet below it)", u.next, 2.0 / 3.0);
    check_control("K3", "the units of the model as drawn");
    check_at_least("K3", NULL, u0.next, 2.0 / 3.0);
}

static void inspect(run *r)
{
    const settings *s = r->s;
    gpt_shape shape = shape_of(s, r->text->vocab);
    gsl_rng *draw = scope_keep_rng(r->sc, rng_new(r->o->seed)); /* train_one's first draw */
    ablated *drawn = SCOPE_KEEP(r->sc, ablated_new(ABL_FULL, &shape, draw), ablated_free);
    inspection in = {.r = r, .sc = r->sc, .drawn = drawn->w, .L = s->layers, .H = s->heads,
                     .rk = s->dim / s->heads, .d = s->dim,
                     .trained = SCOPE_KEEP(r->sc, r->trained[ABL_FULL], gpt_free),
                     .free_a = SCOPE_KEEP(r->sc, r->trained[ABL_FREE_A], gpt_free)};
    report_section(r->o, "Inside the trained model");
    report_text(r->o, "The full model and the free-A model trained at seed %lu, read back.",
                r->o->seed);
    circuits_part(&in);
    heads_part(&in);
    memory_part(&in);
}

/* ------------------------------------------------------------------- the run */

static void setup(run *r)
{
    const settings *s = r->s;
    size_t S = s->seeds;
    gsl_rng *windows = scope_keep_rng(r->sc, rng_new(r->o->seed + 1000));
    r->valid = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    r->train = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    chapter_must(corpus_draw(r->text, CORPUS_VALID, s->windows, s->context, windows, r->valid),
                 "drawing validation windows");
    chapter_must(corpus_draw(r->text, CORPUS_TRAIN, s->windows, s->context, windows, r->train),
                 "drawing training windows");
    r->loss = scope_matrix(r->sc, ROWS, S);
    r->leak = scope_matrix(r->sc, 2, S);
    r->again = scope_vector(r->sc, S);
    r->clock = scope_matrix(r->sc, ROWS, S);
    r->trained = SCOPE_KEEP(r->sc, calloc(ABL_COUNT, sizeof *r->trained), free);
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
                           "and 8; A1 and K2 fail too at 3)", s->context);
    int rc = corpus_option_load(o, s->corpus, s->context, text);
    if (rc != CLI_RUN)
        return rc;
    if ((*text)->n < MIN_CORPUS)
        return cli_fail(o, "--corpus %s: %zu characters, too few for the held-out comparisons: "
                           "the claims compare models on the held-out tenth and need at least "
                           "%zu characters (they were set on the fortunes, 2 MB; the first "
                           "200 KB of them already fail K1)", s->corpus, (*text)->n,
                        (size_t)MIN_CORPUS);
    gpt_shape shape = shape_of(s, (*text)->vocab);
    size_t bytes = train_memory_bytes(&shape, s->batch, s->context, 10, 3);
    if (bytes > TRAIN_MEMORY_BUDGET)
        return cli_fail(o, "--layers %zu --dim %zu --heads %zu --context %zu --batch %zu would "
                           "take about %.1f GiB, more than the chapter's %zu GiB: make some of "
                           "them smaller", s->layers, s->dim, s->heads, s->context, s->batch,
                        (double)bytes / (1u << 30), TRAIN_MEMORY_BUDGET >> 30);
    return CLI_RUN;
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
         "500); A1-A10 and K1-K3 are claims about training at the default budgets: other step "
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
    inspect(&r);
    scope_close(sc);
    return chapter_end();
}
