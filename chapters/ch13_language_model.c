/* Chapter 13: the assembled Transformer, trained on real text.
 *
 * Chapter 10 built one block with random weights; chapter 12 trained single
 * pieces on made-up tasks. Here the argument closes the way nanoGPT and
 * llm.c close it: the block of chapter 10, stacked L times between a token
 * and position embedding and a read-out over the alphabet, is trained in C
 * with the library's own backward passes on real English text (the fortune
 * cookies of Debian's `fortunes` package, or any file given with --corpus),
 * one character at a time, and then writes text of its own.
 *   G1  the first 20 training steps are the ones the formulas prescribe: on
 *       the float64 reference path, the gradient against finite differences,
 *       every update against AdamW, clipping and the schedule written out
 *       here (and, with --dump, against PyTorch: `make check-training`); the
 *       float32 path that then trains (gpt32.h, llm.c's layout) follows the
 *       float64 path over the same steps;
 *   G2  generating with the key-value cache gives the logits of recomputing
 *       the whole prefix;
 *   G3  the trained model predicts held-out text better than the best
 *       count-based model of the same corpus;
 *   G4  a checkpoint saved and loaded gives bit-identical logits.
 * The default run is a tiny model trained for a few seconds; --full is the
 * "baby GPT" of nanoGPT (4 layers, 4 heads, width 128, context 64, batch 12,
 * 2,000 steps, learning rate 1e-3, no dropout).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adamw.h"
#include "checkpoint.h"
#include "cli_text.h"
#include "corpus.h"
#include "corpus_option.h"
#include "gpt.h"
#include "gpt_gradcheck.h"
#include "invent.h"
#include "ngram.h"
#include "results_file.h"
#include "sample.h"
#include "schedule.h"
#include "train_memory.h"

#define G1_STEPS 20  /* steps checked one by one (and written for PyTorch) */
#define FD_SAMPLES 4 /* entries per tensor nudged for the finite differences */
#define FD_H 3e-6     /* their step (see fd_check) */
#define FD_BOUND 1e-6 /* the gradient's largest relative error against them */
/* The rounding error of a float64 loss, in units of 2^-53 |L|: measured up to 4 on the
 * quick and post-norm runs (a mean of T log-softmax terms over L blocks); 16 leaves room.
 * A central difference then carries FD_NOISE_ULPS 2^-53 |L| / h of noise per entry. */
#define FD_NOISE_ULPS 16.0
#define CLIP 1.0     /* the largest gradient norm */
#define DECAY 0.1    /* AdamW's weight decay lambda */
#define G3_SE 2.0     /* G3: a margin must exceed this many standard errors */
#define G2_CONTEXTS 3  /* G2 checks up to this many context lengths of generated text */
#define SAMPLE_FILE "ch13_sample.txt" /* the generated text, beside --results FILE */
#define CURVE_FILE "ch13_loss.tsv"     /* the learning curve's data, beside it too */
#define G1_FLOAT32_BOUND 1e-2 /* float32 against float64 after G1_STEPS steps (see g1_report) */

typedef struct {
    int full, post_norm;
    size_t layers, heads, dim, context, batch, steps, warmup, points, windows, sample, top_k;
    double rate, temperature;
    const char *corpus, *save, *load, *prompt, *results;
} settings;

/* Everything one training run holds. */
typedef struct {
    const invent_opts *o;
    const settings *s;
    scope *sc;
    corpus *text;
    gpt_weights *w, *g;     /* the float64 path: weights and their gradients */
    gpt_trace *tr;          /* one batch's forward pass */
    tensor_ref *t;          /* the list of both, nt entries */
    size_t nt;
    adamw opt;
    gpt_batch b64;          /* w, g, tr as train_step takes them */
    gpt32 *m32;             /* the float32 path, which trains; also used to evaluate */
    adamw opt32;
    step_plan plan64, plan32; /* one training step on each path */
    struct g1_state *g1;    /* what the first steps' checks keep */
    lr_schedule sch;
    gsl_rng *rng;           /* draws the training batches */
    size_t *x, *y, *starts; /* one batch: (B*T) inputs and targets, (B) window starts */
    size_t *valid, *train;  /* fixed evaluation windows, (windows) each */
    double *every_start;    /* (steps, B): where every batch starts, for --dump; or NULL */
    gsl_matrix *curve;      /* (points, 3): step, train loss, validation loss */
    double eval_seconds;    /* time spent evaluating, not training */
    double untrained;       /* validation loss of the freshly drawn weights */
    double baseline[NGRAM_MAX_ORDER]; /* unigram, bigram, trigram on the validation windows */
    double smoothing[NGRAM_MAX_ORDER]; /* the add-k each of them was scored with */
    int beats_all;          /* G3: the trained model beat every n-gram model it was scored against */
    double held_out;        /* G3: the trained float64 model's mean loss over those windows */
    double margin[NGRAM_MAX_ORDER], margin_se[NGRAM_MAX_ORDER]; /* G3: n-gram minus model */
    double seconds;         /* the training steps' wall time, evaluations not counted */
    double load[2];         /* the 1-minute load average when training starts and ends */
    double started;         /* the stopwatch when the run began */
    const char *sample;     /* the generated text, prompt first, control bytes as '.' */
    const char *command;    /* as typed, for the results' stamps */
} run;

/* ----------------------------------------------------------------- the data */

/* the counting models of order 1, 2, 3 */
static const char *const ngram_names[NGRAM_MAX_ORDER] = {"unigram", "bigram", "trigram"};

/* the windows x, y -> the mean loss over n windows, B at a time */
static double mean_loss(run *r, const size_t *windows, size_t n)
{
    size_t B = r->s->batch, T = r->s->context;
    double sum = 0.0;
    for (size_t i = 0; i + B <= n; i += B) {
        double loss;
        corpus_window(r->text, windows + i, B, T, r->x, r->y);
        chapter_must(gpt32_forward(r->m32, r->x, r->y, &loss), "evaluating the model");
        sum += loss;
    }
    return sum / (double)(n / B);
}

static void corpus_section(run *r)
{
    const corpus *c = r->text;
    report_section(r->o, "The text, and what counting alone achieves");
    report_text(r->o, "The corpus is %s: %zu characters from %zu file%s, %zu distinct bytes. "
                      "Each byte is one token. It is cut into %zu pieces (a fortune ends at a "
                      "line holding only %%; another text is cut at its empty lines), and of "
                      "every ten pieces the tenth "
                      "is held out and the fifth kept for validation, so that every file and "
                      "genre is in each part: %zu characters train the model, %zu validate "
                      "(chapter 14 chooses its learning rates there) and %zu are held out, "
                      "where this chapter scores %zu windows of %zu characters. Before any "
                      "network, the counts of the training text already predict the next "
                      "character: the unigram from its frequency alone, the bigram from the "
                      "character before it, the trigram from two. Their held-out loss in "
                      "nats (add-k smoothing, k chosen on the held-out windows themselves, "
                      "which favours the baselines) is the bar the trained model must clear:",
                r->s->corpus, c->n, c->files, c->files == 1 ? "" : "s", c->vocab, c->pieces,
                corpus_part_len(c, CORPUS_TRAIN), corpus_part_len(c, CORPUS_VALID),
                corpus_part_len(c, CORPUS_HELDOUT), r->s->windows, r->s->context);
    for (size_t n = 1; n <= NGRAM_MAX_ORDER; n++) {
        double k = 0.0;
        r->baseline[n - 1] =
            ngram_best_loss(c, n, r->valid, r->s->windows, r->s->context, &k);
        r->smoothing[n - 1] = k;
        if (isnan(r->baseline[n - 1]))
            report_line(r->o, "  %-8s  left out: %zu^%zu counts are not cheap", ngram_names[n - 1],
                        c->vocab, n);
        else
            report_line(r->o, "  %-8s  %.4f nats  (k = %g)", ngram_names[n - 1], r->baseline[n - 1],
                        k);
    }
    report_line(r->o, "  (uniform over the alphabet: %.4f nats)", log((double)c->vocab));
}

/* ---------------------------------------------------------------- the model */

static void model_section(run *r)
{
    const gpt_shape *m = &r->w->shape;
    report_section(r->o, "The model: chapter 10's block, stacked");
    report_text(r->o, "Token t enters as row x_t of a learned table E (%zu x %zu) plus row t of "
                      "a learned table of positions P (%zu x %zu): without P, attention could "
                      "not tell the order of the tokens (chapter 6, P1). Then L = %zu blocks "
                      "of chapter 10, each with H = %zu causal heads of size %zu, W_o, an MLP "
                      "of %zu ReLU units, two skips and two layer norms; a final norm; and a "
                      "linear read-out to %zu logits, one per symbol. The loss is the "
                      "cross-entropy of the next character, averaged over the %zu x %zu "
                      "positions of a batch. %zu numbers are learned.",
                m->vocab, m->dim, m->context, m->dim, m->layers, m->heads, m->dim / m->heads,
                m->hidden, m->vocab, r->s->batch, r->s->context, gpt_param_count(m));
    report_text(r->o, "The weights start as GPT-2's do (Radford et al., 2019): E, P and every "
                      "matrix drawn N(0, 0.02^2), except the two projections that write into "
                      "the residual stream, W_o and W_2 of each block, drawn at 0.02 / "
                      "sqrt(2L) = %.4f, so that the stream's variance does not grow with the "
                      "number of blocks; biases 0, norm gains 1. Chapter 14 keeps the draw "
                      "this library used before, positions N(0, 1), as a row of its own.",
                0.02 / sqrt(2.0 * (double)m->layers));
    report_text(r->o, "%s", m->norm == BLOCK_PRE_NORM
        ? "The norms sit before each sublayer (pre-norm, Xiong et al., 2020, as GPT-2 and "
          "nanoGPT place them): x + MHA(LN1(x)), then + MLP(LN2(.)). The skip path then "
          "carries the gradient from the loss to every block unchanged, so training needs "
          "no long warm-up; chapter 10's post-norm block, LN(x + MHA(x)), stays available "
          "with --post-norm."
        : "The norms sit after each sum, as in chapter 10 and Vaswani et al. (2017): "
          "LN1(x + MHA(x)), then LN2(. + MLP(.)) (--post-norm). Every gradient from the loss "
          "passes through L norms on its way down, which is why pre-norm, the default, is "
          "what GPT-2 and nanoGPT use. Here it starts slower: the quick post-norm run trains "
          "for 300 steps, twice pre-norm's, because with 150 it had not cleared the unigram "
          "yet (try --post-norm --steps 150).");
    report_text(r->o, "Training is AdamW (Loshchilov and Hutter, 2019; beta2 0.99, weight decay "
                      "0.1 on the matrices only), the gradient clipped to norm 1, the rate "
                      "warmed up over %zu steps to %g and lowered along a half cosine to %g.",
                r->sch.warmup, r->sch.peak, r->sch.floor);
}

/* ------------------------------------------------------------------------ G1 */

/* A second copy of the weights, trained by the formulas written out below. */
typedef struct {
    double *p, *m, *v;  /* all tensors, end to end */
    unsigned long steps;
    size_t skip;        /* a step this copy leaves out (a control), or SIZE_MAX */
    size_t late;        /* 1: its schedule runs one step late (a control); else 0 */
} replay;

/* The float32 control: a copy of the float32 path that keeps its weights in
 * bfloat16 (8 significant bits) after every update, as a mixed-precision
 * setup without a float32 master copy would. */
typedef struct {
    gpt32 *m;
    adamw opt;
    step_plan plan;
} bf16_copy;

/* What G1 keeps over the first steps. */
typedef struct g1_state {
    replay ok, skipped;
    bf16_copy bf16;
    replay late;        /* the control whose schedule is one step late */
    double fd_error, fd_error_p0, worst, worst_skipped, worst_late; /* fd_error_p0: position 0's dropped */
    double fd_noise;    /* the finite differences' rounding noise per entry */
    size_t fd_kinks;    /* entries left out: their step crosses a ReLU's kink */
    double gap32, gap16;    /* float32 and bfloat16 weights against float64 (path_gap) */
    double loss_gap32;      /* |loss32 - loss64| / loss64, worst over steps */
    double loss[G1_STEPS], rate[G1_STEPS], norm[G1_STEPS], loss32[G1_STEPS];
    double *tokens;     /* (G1_STEPS, B, T + 1): the batches, for --dump */
    double *grads32;    /* the float32 path's gradient at step 0, before clipping (--dump) */
    double *init;       /* the initial weights, end to end */
} g1_state;

static void replay_init(run *r, replay *rp, size_t skip, size_t late)
{
    size_t n = gpt_param_count(&r->w->shape), at = 0;
    rp->p = SCOPE_KEEP(r->sc, calloc(n, sizeof(double)), free);
    rp->m = SCOPE_KEEP(r->sc, calloc(n, sizeof(double)), free);
    rp->v = SCOPE_KEEP(r->sc, calloc(n, sizeof(double)), free);
    for (size_t k = 0; k < r->nt; at += r->t[k].size, k++)
        memcpy(rp->p + at, r->t[k].value, r->t[k].size * sizeof(double));
    rp->steps = 0, rp->skip = skip, rp->late = late;
}

/* step s (from 0) -> the learning rate, from the formula (not from schedule.h, which is
 * what it checks): with W warm-up steps, decay ending at step D,
 *   rate = peak (s + 1) / (W + 1)                                   for s < W
 *   rate = low + (peak - low) (1 + cos(pi (s - W) / (D - W))) / 2  for W <= s < D
 *   rate = low = peak / 10                                        after */
static double rate_formula(const settings *st, size_t s)
{
    double peak = st->rate, low = st->rate / 10, W = (double)st->warmup, D = (double)st->steps;
    if ((double)s < W)
        return peak * ((double)s + 1) / (W + 1);
    if ((double)s >= D)
        return low;
    return low + (peak - low) * (1 + cos(M_PI * ((double)s - W) / (D - W))) / 2;
}

/* One step by the textbook formulas, from the raw gradients g of r->t and the rate of
 * rate_formula:
 *   c = min(1, clip / (||g|| + 1e-6)),  g <- c g
 *   m <- b1 m + (1 - b1) g,  v <- b2 v + (1 - b2) g^2,  s = steps taken
 *   p <- p - rate (m / (1 - b1^s)) / (sqrt(v / (1 - b2^s)) + eps) - rate lambda p */
static void replay_step(const run *r, replay *rp, size_t step)
{
    if (step == rp->skip)
        return;
    double rate = rate_formula(r->s, step + rp->late);
    const adamw *o = &r->opt;
    double sq = 0.0;
    for (size_t k = 0; k < r->nt; k++)
        for (size_t i = 0; i < r->t[k].size; i++)
            sq += r->t[k].grad[i] * r->t[k].grad[i];
    double c = fmin(1.0, CLIP / (sqrt(sq) + 1e-6)), s = (double)++rp->steps;
    double fix1 = 1 - pow(o->beta1, s), fix2 = 1 - pow(o->beta2, s);
    for (size_t k = 0, at = 0; k < r->nt; at += r->t[k].size, k++)
        for (size_t i = 0; i < r->t[k].size; i++) {
            double g = c * r->t[k].grad[i], *p = rp->p + at + i;
            rp->m[at + i] = o->beta1 * rp->m[at + i] + (1 - o->beta1) * g;
            rp->v[at + i] = o->beta2 * rp->v[at + i] + (1 - o->beta2) * g * g;
            double mhat = rp->m[at + i] / fix1, vhat = rp->v[at + i] / fix2;
            *p -= rate * mhat / (sqrt(vhat) + o->eps) + (r->t[k].decay ? rate * o->weight_decay * *p : 0.0);
        }
}

/* -> the worst, over tensors, of max |p_library - p_replay| / max |p_library| */
static double replay_gap(const run *r, const replay *rp)
{
    double worst = 0.0;
    for (size_t k = 0, at = 0; k < r->nt; at += r->t[k].size, k++) {
        double gap = 0.0, top = 0.0;
        for (size_t i = 0; i < r->t[k].size; i++) {
            gap = fmax(gap, fabs(r->t[k].value[i] - rp->p[at + i]));
            top = fmax(top, fabs(r->t[k].value[i]));
        }
        worst = fmax(worst, top > 0.0 ? gap / top : gap);
    }
    return worst;
}

/* init: the initial weights, end to end -> ||u32 - u64|| / ||u64||, where u = p - init
 * is what each path's steps changed (all tensors together) */
static double path_gap(const run *r, const gpt32 *m, const double *init)
{
    double diff = 0.0, moved = 0.0;
    for (size_t k = 0, at = 0; k < r->nt; at += r->t[k].size, k++)
        for (size_t i = 0; i < r->t[k].size; i++) {
            double u64 = r->t[k].value[i] - init[at + i];
            double d = (double)m->t[k].value32[i] - r->t[k].value[i];
            diff += d * d, moved += u64 * u64;
        }
    return moved > 0.0 ? sqrt(diff / moved) : sqrt(diff);
}

/* x -> x rounded to `bits` significant bits: 11 for float16, 8 for bfloat16 (their
 * ranges are not modelled) */
static float round_bits(float x, int bits)
{
    int e;
    float m = frexpf(x, &e);
    return ldexpf(rintf(ldexpf(m, bits)), e - bits);
}

/* the control's train_step, then its weights rounded to bfloat16 */
static void bf16_step(bf16_copy *h, size_t step, const size_t *x, const size_t *y)
{
    chapter_must(train_step(&h->plan, step, x, y, NULL), "the bfloat16 control's step");
    for (size_t i = 0; i < h->m->n; i++)
        h->m->params[i] = round_bits(h->m->params[i], 8);
}

/* plan32's inspection at step 0: the float32 gradient kept for --dump */
static void keep_grads32(void *ctx, size_t step, double loss, double rate)
{
    run *r = ctx;
    (void)loss, (void)rate;
    if (step == 0)
        for (size_t i = 0; i < r->m32->n; i++)
            r->g1->grads32[i] = r->m32->grads[i];
}

/* the gradient at the initial weights, on one training window, against finite
 * differences with a step of 3e-6 (issue 28: 1e-5 was too coarse, 5.5e-3
 * post-norm at seed 6, where 3e-6 gives 1e-7; 1e-6 is too fine, its
 * rounding reached 1.03e-6 at --context 64 --batch 1, where 3e-6 gives
 * 2.2e-7) */
static void fd_check(run *r, g1_state *g1)
{
    size_t T = r->s->context, start, x[T], y[T];
    chapter_must(corpus_draw(r->text, CORPUS_TRAIN, 1, T, r->rng, &start), "drawing a window");
    corpus_window(r->text, &start, 1, T, x, y);
    gpt_weights *g = SCOPE_KEEP(r->sc, gpt_zeros(&r->w->shape), gpt_free);
    gpt_trace *tr = SCOPE_KEEP(r->sc, gpt_trace_new(r->w, 1, T), gpt_trace_free);
    double loss;
    chapter_must(gpt_forward(r->w, x, y, tr, &loss), "the forward pass");
    chapter_must(gpt_backward(r->w, x, y, tr, g,
                              SCOPE_KEEP(r->sc, gpt_work_new(r->w, 1, T), gpt_work_free)),
                 "the backward pass");
    /* a gradient whose FD_BOUND-th part is below the noise is held to the noise */
    gpt_fd_opts fd = {.samples = FD_SAMPLES, .h = FD_H, .tol = FD_BOUND,
                      .noise = FD_NOISE_ULPS * ldexp(fabs(loss), -53) / FD_H};
    g1->fd_noise = fd.noise;
    unsigned long seed = gsl_rng_get(r->rng); /* the same entries for the claim and its control */
    gsl_rng *pick = SCOPE_KEEP(r->sc, rng_new(seed), gsl_rng_free);
    g1->fd_error = gpt_gradcheck(r->w, g, x, y, tr, &fd, pick, &g1->fd_kinks);
    gsl_vector_view p0 = gsl_matrix_row(g->P, 0);
    gsl_vector_set_zero(&p0.vector);
    gsl_rng_set(pick, seed);
    size_t kinks;
    g1->fd_error_p0 = gpt_gradcheck(r->w, g, x, y, tr, &fd, pick, &kinks);
}

static void g1_setup(run *r, g1_state *g1)
{
    size_t B = r->s->batch, T = r->s->context;
    fd_check(r, g1);
    replay_init(r, &g1->ok, SIZE_MAX, 0);
    replay_init(r, &g1->skipped, G1_STEPS / 2, 0);
    replay_init(r, &g1->late, SIZE_MAX, 1);
    g1->init = SCOPE_KEEP(r->sc, calloc(r->m32->n, sizeof(double)), free);
    memcpy(g1->init, g1->ok.p, r->m32->n * sizeof(double));
    bf16_copy *h = &g1->bf16;
    h->m = SCOPE_KEEP(r->sc, gpt32_new(&r->w->shape, B, T), gpt32_free);
    chapter_must(h->m ? gpt32_from64(h->m, r->w) : INVENT_ENOMEM, "the bfloat16 control");
    for (size_t i = 0; i < h->m->n; i++)
        h->m->params[i] = round_bits(h->m->params[i], 8);
    chapter_must(adamw_init(&h->opt, h->m->t, h->m->count, DECAY), "its AdamW");
    SCOPE_KEEP(r->sc, &h->opt, adamw_free);
    h->opt.beta2 = r->opt32.beta2;
    h->plan = r->plan32;
    h->plan.model = h->m, h->plan.t = h->m->t, h->plan.opt = &h->opt, h->plan.inspect = NULL;
    g1->grads32 = SCOPE_KEEP(r->sc, calloc(r->m32->n, sizeof(double)), free);
    r->g1 = g1;
    g1->tokens = SCOPE_KEEP(r->sc, calloc(G1_STEPS * B * (T + 1), sizeof(double)), free);
}

/* plan64's inspection, after the backward pass of step `step` < G1_STEPS, before
 * the library's update: the batch and the replays' steps on the same gradients */
static void g1_inspect(void *ctx, size_t step, double loss, double rate)
{
    run *r = ctx;
    g1_state *g1 = r->g1;
    size_t B = r->s->batch, T = r->s->context;
    g1->loss[step] = loss, g1->rate[step] = rate;
    for (size_t b = 0; b < B; b++) {
        for (size_t i = 0; i <= T; i++)
            g1->tokens[(step * B + b) * (T + 1) + i] = r->text->tokens[r->starts[b] + i];
    }
    replay_step(r, &g1->ok, step);
    replay_step(r, &g1->skipped, step);
    replay_step(r, &g1->late, step);
}

/* after step `step` on every copy: each against the float64 path */
static void g1_after(run *r, g1_state *g1, size_t step)
{
    g1->worst = fmax(g1->worst, replay_gap(r, &g1->ok));
    g1->worst_skipped = fmax(g1->worst_skipped, replay_gap(r, &g1->skipped));
    g1->worst_late = fmax(g1->worst_late, replay_gap(r, &g1->late));
    g1->gap32 = path_gap(r, r->m32, g1->init); /* the last step's is the one reported */
    g1->gap16 = path_gap(r, g1->bf16.m, g1->init);
    g1->loss_gap32 = fmax(g1->loss_gap32, fabs(g1->loss32[step] - g1->loss[step]) / g1->loss[step]);
}

/* --dump DIR: what `make check-training` needs to repeat the first steps in PyTorch */
static void g1_dump_start(run *r)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/init", r->o->dump_dir);
    chapter_must(paths_make_dirs(dir) == 0 ? INVENT_OK : INVENT_EIO, "creating --dump/init");
    chapter_must(checkpoint_save(dir, r->w, r->text->symbols), "writing the initial weights");
}

static void g1_dump_end(run *r, const g1_state *g1, size_t steps)
{
    size_t B = r->s->batch, T = r->s->context, one[1] = {steps};
    size_t tok[3] = {steps, B, T + 1}, n_cfg[1] = {13};
    double cfg[13] = {r->opt.beta1, r->opt.beta2, r->opt.eps, r->opt.weight_decay, CLIP,
                      (double)B, (double)T, (double)steps, r->w->shape.norm == BLOCK_POST_NORM,
                      r->s->rate, r->s->rate / 10, (double)r->s->warmup, (double)r->s->steps};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/after", r->o->dump_dir);
    chapter_must(paths_make_dirs(dir) == 0 ? INVENT_OK : INVENT_EIO, "creating --dump/after");
    chapter_must(checkpoint_save(dir, r->w, r->text->symbols), "writing the trained weights");
    snprintf(dir, sizeof dir, "%s/after32", r->o->dump_dir);
    gpt_weights *w32 = SCOPE_KEEP(r->sc, gpt_zeros(&r->w->shape), gpt_free);
    chapter_must(w32 && paths_make_dirs(dir) == 0 ? gpt32_to64(r->m32, w32) : INVENT_EIO,
                 "creating --dump/after32");
    chapter_must(checkpoint_save(dir, w32, r->text->symbols), "writing the float32 weights");
    size_t n32[1] = {r->m32->n};
    int failed = dump_array(r->o, "losses32", NPY_F64, 1, one, g1->loss32) ||
                 dump_array(r->o, "grads32", NPY_F64, 1, n32, g1->grads32);
    failed = dump_array(r->o, "batches", NPY_F64, 3, tok, g1->tokens) ||
                 dump_array(r->o, "losses", NPY_F64, 1, one, g1->loss) ||
                 dump_array(r->o, "rates", NPY_F64, 1, one, g1->rate) ||
                 dump_array(r->o, "grad_norms", NPY_F64, 1, one, g1->norm) ||
                 dump_array(r->o, "config", NPY_F64, 1, n_cfg, cfg);
    chapter_must(failed ? INVENT_EIO : INVENT_OK, "writing the --dump files");
}

/* --dump DIR, after training: where every batch started (steps, B) and the evaluation
 * windows (2, windows: held out, then training), enough to redraw every loss of the run */
static void dump_windows(run *r)
{
    size_t n = r->s->windows, st[2] = {r->s->steps, r->s->batch}, wn[2] = {2, n};
    double *w = SCOPE_KEEP(r->sc, calloc(2 * n, sizeof(double)), free);
    for (size_t i = 0; i < n; i++)
        w[i] = (double)r->valid[i], w[n + i] = (double)r->train[i];
    int failed = dump_array(r->o, "starts", NPY_F64, 2, st, r->every_start) ||
                 dump_array(r->o, "windows", NPY_F64, 2, wn, w);
    chapter_must(failed ? INVENT_EIO : INVENT_OK, "writing the --dump windows");
}

static void g1_report(run *r, const g1_state *g1, size_t steps)
{
    report_section(r->o, "The first steps, checked against the formulas");
    report_text(r->o, "Before training goes on, its first %zu steps are checked twice. The "
                      "gradient that the backward pass returns at the initial weights is "
                      "compared with central differences, nudging in every tensor the %d "
                      "entries with the largest gradient, as many drawn at random and, in the "
                      "two embeddings, one entry of every row (every symbol, every position, "
                      "0 included). GPT-2's initialisation leaves some gradients tiny (the "
                      "attention's W_q and W_k, whose scores start near 0), as small as the "
                      "rounding noise of a central difference, %.1e per entry here (%g units "
                      "of the last place of the loss over the step h = %g); a tensor's "
                      "difference is measured against that noise when its gradient is too "
                      "small for a relative error to mean anything. An entry whose "
                      "differences at h and h/2 disagree has a ReLU's kink within h, where "
                      "the loss has no derivative to compare: %zu such entr%s left out. "
                      "Then a second copy of "
                      "the weights "
                      "is trained beside the library with AdamW, the clipping and the "
                      "schedule written out in this chapter from their formulas, on the same "
                      "gradients; after every step both copies must agree. The rate of step s "
                      "is peak (s + 1) / (W + 1) for the W = %zu warm-up steps, then "
                      "low + (peak - low)(1 + cos(pi (s - W) / (D - W))) / 2 down to low = "
                      "peak / 10 at step D = %zu; the checked steps %s. With --dump, "
                      "`make check-training` repeats the same steps in PyTorch from the "
                      "same initial weights and batches.", steps, FD_SAMPLES, g1->fd_noise,
                FD_NOISE_ULPS, FD_H, g1->fd_kinks, g1->fd_kinks == 1 ? "y was" : "ies were",
                r->s->warmup,
                r->s->steps, r->s->warmup < steps ? "cover the end of the warm-up and the "
                "start of the cosine" : "lie in the warm-up (the quick run's reach the cosine)");
    report_line(r->o, "  step  rate        loss     gradient norm (before clipping)");
    for (size_t k = 0; k < steps; k++)
        if (k < 3 || k + 1 == steps)
            report_line(r->o, "  %4zu  %.3e  %.5f  %.4f", k, g1->rate[k], g1->loss[k],
                        g1->norm[k]);
    check_at_most("G1", "the model's gradient agrees with finite differences (worst "
                  "relative error over tensors)", g1->fd_error, FD_BOUND);
    check_control("G1", "the same gradient with position 0's row dropped, as an embedding "
                        "backward pass whose loop starts at position 1 leaves it");
    check_at_most("G1", NULL, g1->fd_error_p0, FD_BOUND);
    check_at_most("G1", "every update of the first steps equals AdamW, clipping and the "
                  "schedule computed from their formulas (largest relative difference)",
                  g1->worst, 1e-9);
    check_control("G1", "the formulas' copy leaves out step 10 (a skipped step)");
    check_at_most("G1", NULL, g1->worst_skipped, 1e-9);
    check_control("G1", "the formulas' copy with its schedule one step late (the rate of "
                        "step s + 1 at step s, an off-by-one in the warm-up or the cosine)");
    check_at_most("G1", NULL, g1->worst_late, 1e-9);
    report_text(r->o, "The model then trains on the float32 path (llm.c's layout, attention fused, "
                      "the products on this machine's vector units), which took the same %zu "
                      "steps on the same batches beside the float64 path. Its losses stayed "
                      "within %.1e of the float64 path's (relative), and what its steps changed "
                      "in the weights agrees with what the float64 path's changed to %.1e (the "
                      "norm of the difference over the norm of the change). AdamW gives every "
                      "entry a step of about the rate whatever the size of its gradient, so "
                      "where one path's gradient is exactly 0 and the other's a rounding error "
                      "(a ReLU unit at its kink for every token of a batch), only one of them "
                      "moves: such events leave the paths up to some 1e-3 apart (seed 1 of the "
                      "quick run: 1.1e-3); without one they agree to some 1e-6. The bound, %g, "
                      "sits above such events and below a float32 path that keeps its weights "
                      "in bfloat16, which loses every update smaller than half a unit in the "
                      "8th bit of a weight.", steps, g1->loss_gap32, g1->gap32, G1_FLOAT32_BOUND);
    check_at_most("G1", "the float32 path follows the float64 path over the first steps "
                  "(what its steps changed, against the float64 path's: relative norm of the "
                  "difference)", g1->gap32, G1_FLOAT32_BOUND);
    check_control("G1", "the float32 path with its weights kept in bfloat16 (no float32 copy)");
    check_at_most("G1", NULL, g1->gap16, G1_FLOAT32_BOUND);
}

/* ------------------------------------------------------------------ training */

static void evaluate(run *r, size_t point, size_t step)
{
    size_t n = r->s->windows;
    double t0 = stopwatch_now();
    gsl_matrix_set(r->curve, point, 0, (double)step);
    gsl_matrix_set(r->curve, point, 1, mean_loss(r, r->train, n));
    gsl_matrix_set(r->curve, point, 2, mean_loss(r, r->valid, n));
    r->eval_seconds += stopwatch_now() - t0;
}

/* one step on a new batch: the float32 path's; the first G1_STEPS also on the
 * float64 path (checked by the replays) and on the bfloat16 control; -> the loss */
static double one_step(run *r, size_t step, g1_state *g1)
{
    size_t B = r->s->batch, T = r->s->context;
    chapter_must(corpus_draw(r->text, CORPUS_TRAIN, B, T, r->rng, r->starts), "drawing a batch");
    corpus_window(r->text, r->starts, B, T, r->x, r->y);
    for (size_t b = 0; r->every_start && b < B; b++)
        r->every_start[step * B + b] = (double)r->starts[b];
    step_report rep;
    if (step < G1_STEPS) {
        chapter_must(train_step(&r->plan64, step, r->x, r->y, &rep), "a float64 step");
        g1->norm[step] = rep.norm;
        bf16_step(&g1->bf16, step, r->x, r->y);
    }
    chapter_must(train_step(&r->plan32, step, r->x, r->y, &rep), "a training step");
    if (step < G1_STEPS) {
        g1->loss32[step] = rep.loss;
        g1_after(r, g1, step);
    }
    return rep.loss;
}

static void progress(run *r, size_t step, double loss, double t0, int done)
{
    double spent = stopwatch_now() - t0 - r->eval_seconds, per = spent / (double)(step + 1);
    double tokens = (double)((step + 1) * r->s->batch * r->s->context) / spent;
    report_progress(r->o, done, "  step %zu/%zu  train loss %.3f  %.0f tokens/s  %.0f s left",
                    step + 1, r->s->steps, loss, tokens, per * (double)(r->s->steps - step - 1));
}

/* -> seconds spent training (evaluations left out) */
static double train(run *r, g1_state *g1)
{
    size_t steps = r->s->steps, points = r->curve->size1, next = 1;
    evaluate(r, 0, 0);
    r->eval_seconds = 0.0;
    if (r->o->dump_dir) {
        g1_dump_start(r);
        r->every_start = SCOPE_KEEP(r->sc, calloc(steps * r->s->batch, sizeof(double)), free);
        chapter_must(r->every_start ? INVENT_OK : INVENT_ENOMEM, "the --dump batch starts");
    }
    double t0 = stopwatch_now(), loss = NAN, shown = t0;
    for (size_t step = 0; step < steps; step++) {
        loss = one_step(r, step, g1);
        if (step + 1 == G1_STEPS && r->o->dump_dir)
            g1_dump_end(r, g1, G1_STEPS);
        if (stopwatch_now() - shown > 0.5)
            progress(r, step, loss, t0, 0), shown = stopwatch_now();
        if (next < points && step + 1 == next * steps / (points - 1))
            evaluate(r, next++, step + 1);
    }
    if (steps > 0)
        progress(r, steps - 1, loss, t0, 1);
    if (steps > 0 && steps < G1_STEPS && r->o->dump_dir)
        g1_dump_end(r, g1, steps);
    if (r->o->dump_dir)
        dump_windows(r);
    chapter_must(gpt32_to64(r->m32, r->w), "the trained weights"); /* for G2, G4, --save */
    return stopwatch_now() - t0 - r->eval_seconds;
}

static void plot_curve(const run *r)
{
    plot *p = plot_begin(r->o, "ch13_loss");
    char kept[PATH_MAX]; /* with --results, the curve's data beside it, for the decks */
    if (r->s->results && results_sibling(r->s->results, CURVE_FILE, kept, sizeof kept) == 0)
        plot_keep(p, kept, "chapter 13: the data of its learning curve", r->command,
                  workers_count());
    plot_set(p, "unigram", r->baseline[0]);
    plot_set(p, "bigram", r->baseline[1]);
    plot_set(p, "trigram", isnan(r->baseline[2]) ? -1.0 : r->baseline[2]);
    plot_set(p, "layers", (double)r->w->shape.layers);
    plot_set(p, "width", (double)r->w->shape.dim);
    plot_block(p, "step, train loss, validation loss (nats per character)");
    for (size_t i = 0; i < r->curve->size1; i++)
        PLOT_ROW(p, gsl_matrix_get(r->curve, i, 0), gsl_matrix_get(r->curve, i, 1),
                 gsl_matrix_get(r->curve, i, 2));
    plot_render(p, "ch13_loss.gp");
}

static long peak_memory_mb(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss / 1024 : -1;
}

/* ------------------------------------------------------------------------ G3 */

/* z: (T, V) logits, y: (n <= T) targets, from row `from` of z -> the mean of
 * -log softmax(z_t)[y_t] over rows from .. from + n - 1 */
static double rows_loss(const gsl_matrix *z, const size_t *y, size_t from, size_t n)
{
    double sum = 0.0;
    for (size_t t = 0; t < n; t++) {
        gsl_vector_const_view row = gsl_matrix_const_row(z, from + t);
        double top = gsl_vector_max(&row.vector), total = 0.0;
        for (size_t i = 0; i < row.vector.size; i++)
            total += exp(row.vector.data[i] - top);
        sum += top + log(total) - gsl_vector_get(&row.vector, y[t]);
    }
    return sum / (double)n;
}

/* late: 0, or 1 for the control -> loss: (windows), the trained float64 model's mean
 * loss on each validation window; late 1 scores each row against the character after
 * its target (an evaluation whose targets are off by one) */
static void window_losses(run *r, int late, double *loss)
{
    size_t T = r->s->context, x[T], y[T];
    gpt_trace *tr = SCOPE_KEEP(r->sc, gpt_trace_new(r->w, 1, T), gpt_trace_free);
    for (size_t i = 0; i < r->s->windows; i++) {
        corpus_window(r->text, r->valid + i, 1, T, x, y);
        chapter_must(gpt_forward(r->w, x, NULL, tr, NULL), "the held-out pass");
        loss[i] = rows_loss(gpt_logits(tr), y + late, 0, T - late);
    }
}

/* order n, loss: (windows) the model's -> *mean and *se: the paired mean of (n-gram loss -
 * model loss) over the validation windows (with the n-gram's own k) and its standard error;
 * NAN when the n-gram was left out */
static void paired_margin(run *r, size_t n, const double *loss, double *mean, double *se)
{
    size_t W = r->s->windows, T = r->s->context;
    ngram *m;
    *mean = *se = NAN;
    if (isnan(r->baseline[n - 1]) || ngram_count(r->text, n, &m) != INVENT_OK)
        return;
    double sum = 0.0, sq = 0.0;
    for (size_t i = 0; i < W; i++) {
        double d = ngram_loss(m, r->text, r->valid + i, 1, T, r->smoothing[n - 1]) - loss[i];
        sum += d, sq += d * d;
    }
    ngram_free(m);
    *mean = sum / (double)W;
    *se = sqrt(fmax(0.0, sq / (double)W - *mean * *mean) / (double)(W - 1));
}

/* the order G3 claims: the trigram at --full (the bigram when the trigram is left
 * out), the unigram in quick mode; fixed before the run, not chosen from its numbers */
static size_t claimed_order(const run *r)
{
    if (!r->s->full)
        return 1;
    return isnan(r->baseline[2]) ? 2 : 3;
}

/* a paired margin (n-gram minus model) and its standard error -> G3's reading of it */
static const char *margin_verdict(double mean, double se)
{
    return mean > G3_SE * se ? "the model beats it" : mean < -G3_SE * se ? "it beats the model"
                                                                         : "not resolved";
}

static void g3_report(run *r, double valid)
{
    size_t W = r->s->windows, claim_n = claimed_order(r);
    double *loss = SCOPE_KEEP(r->sc, calloc(W, sizeof(double)), free);
    double *mean = r->margin, *se = r->margin_se, f64 = 0.0;
    window_losses(r, 0, loss);
    for (size_t i = 0; i < W; i++)
        f64 += loss[i] / (double)W;
    r->held_out = f64;
    report_text(r->o, "Against counting, window by window: on each of the %zu held-out windows "
                      "the n-gram model's loss minus the trained model's (float64, %.4f nats "
                      "over all of them against the float32 path's %.4f), the mean of these "
                      "paired differences and its standard error over the windows. A model "
                      "beats an n-gram model when the mean exceeds %g standard errors (a "
                      "one-sided 97.5%% bound for windows drawn at random), is beaten when it "
                      "is below minus that, and is not resolved between.",
                W, f64, valid, G3_SE);
    int all = 1;
    for (size_t n = 1; n <= NGRAM_MAX_ORDER; n++) {
        paired_margin(r, n, loss, &mean[n - 1], &se[n - 1]);
        if (isnan(mean[n - 1])) {
            report_line(r->o, "  %-8s  left out", ngram_names[n - 1]);
            continue;
        }
        all = all && mean[n - 1] > G3_SE * se[n - 1];
        report_line(r->o, "  %-8s  margin %+.4f nats, standard error %.4f: %s", ngram_names[n - 1],
                    mean[n - 1], se[n - 1], margin_verdict(mean[n - 1], se[n - 1]));
    }
    r->beats_all = all;
    report_text(r->o, "%s", r->s->full
        ? "--full claims the trigram (the strongest count model here): the budget was set so "
          "that the model uses more than two characters of context."
        : "The quick run claims only the unigram: a few seconds of a tiny model are set to "
          "learn which characters are common, and the lines above say, from this run's "
          "numbers, whether it got further; --full is the run that claims the trigram.");
    char claim[200];
    snprintf(claim, sizeof claim, "the trained model's held-out loss is below the %s model of "
             "the same corpus (paired margin over the windows, in standard errors)",
             ngram_names[claim_n - 1]);
    check_at_least("G3", claim, mean[claim_n - 1] / se[claim_n - 1], G3_SE);
    check_control("G3", "the same model scored against the character after its target (an "
                        "evaluation whose targets are off by one)");
    window_losses(r, 1, loss);
    double m_late, se_late;
    paired_margin(r, claim_n, loss, &m_late, &se_late);
    check_at_least("G3", NULL, m_late / se_late, G3_SE);
}

static void result_section(run *r)
{
    size_t last = r->curve->size1 - 1, steps = r->s->steps;
    double seconds = r->seconds, valid = gsl_matrix_get(r->curve, last, 2), before = r->untrained;
    report_section(r->o, "What training achieved");
    report_text(r->o, "%zu steps took %.1f s (%.1f ms a step, %.0f tokens/s; evaluations not "
                      "counted, the first %d steps taken three times for G1); the process "
                      "peaked at %ld MB. On %zu held-out windows of %zu characters, the freshly "
                      "drawn model scores %.4f nats (near log V = %.4f), the trained one %.4f "
                      "nats.",
                steps, seconds, steps ? 1e3 * seconds / (double)steps : 0.0,
                seconds > 0 ? (double)(steps * r->s->batch * r->s->context) / seconds : 0.0,
                G1_STEPS, peak_memory_mb(), r->s->windows, r->s->context, before,
                log((double)r->text->vocab), valid);
    plot_curve(r);
    g3_report(r, valid);
}

/* ------------------------------------------------------------------ results file */

/* f -> the header of a results file: the command, the date, the machine, the load, the sizes */
static void results_header(const run *r, FILE *f, const char *command)
{
    const settings *s = r->s;
    results_stamp(f, "chapter 13 results", command, workers_count());
    fprintf(f, ", load average %.1f when training started and %.1f when it ended; wall time: "
               "%.0f s\n", r->load[0], r->load[1], stopwatch_now() - r->started);
    fprintf(f, "# %zu layers, %zu heads, width %zu, context %zu, batch %zu, rate %g: %zu steps "
               "in %.0f s, %.1f ms a step; %zu held-out windows of %zu characters; margin: the "
               "n-gram's loss minus the model's, paired over the windows, with its standard "
               "error (se)\n",
            s->layers, s->heads, s->dim, s->context, s->batch, s->rate, s->steps, r->seconds,
            1e3 * r->seconds / (double)s->steps, s->windows, s->context);
}

/* the held-out losses and G3's paired margins -> s->results (written whole, then renamed) */
static void write_results(const run *r, const char *command)
{
    paths_file pf;
    if (paths_file_open(&pf, r->s->results) != 0) {
        report_warn(r->o, "cannot write %s: the results are in the output above", r->s->results);
        return;
    }
    FILE *f = pf.f;
    results_header(r, f, command);
    fprintf(f, "model\theld-out nats\tmargin\tse\tverdict\n");
    fprintf(f, "trained\t%.4f\t-\t-\t-\n", r->held_out);
    for (size_t n = 1; n <= NGRAM_MAX_ORDER; n++) {
        double m = r->margin[n - 1], se = r->margin_se[n - 1];
        if (isnan(m))
            continue;
        fprintf(f, "%s\t%.4f\t%+.4f\t%.4f\t%s\n", ngram_names[n - 1], r->baseline[n - 1], m, se,
                margin_verdict(m, se));
    }
    fprintf(f, "untrained\t%.4f\t-\t-\t-\n", r->untrained);
    if (paths_file_commit(&pf, 1) != 0) {
        report_warn(r->o, "cannot write %s: the results are in the output above", r->s->results);
    } else
        report_text(r->o, "The table is in %s.", r->s->results);
}

/* the generated text -> SAMPLE_FILE beside s->results, each line after "| ", under the
 * same stamp (written whole, then renamed) */
static void write_sample(const run *r, const char *command)
{
    const settings *s = r->s;
    char path[PATH_MAX];
    paths_file pf;
    if (results_sibling(s->results, SAMPLE_FILE, path, sizeof path) != 0 ||
        paths_file_open(&pf, path) != 0) {
        report_warn(r->o, "cannot write %s beside %s: the text is in the output above",
                    SAMPLE_FILE, s->results);
        return;
    }
    results_stamp(pf.f, "chapter 13 generated text", command, workers_count());
    fprintf(pf.f, "\n# the model of %s: its first %zu characters are the prompt, the %zu after "
                  "it drawn at temperature %g%s; control bytes shown as '.'\n",
            s->results, strlen(s->prompt), s->sample, s->temperature,
            s->top_k ? " among the likeliest few (top-k)" : "");
    for (const char *line = r->sample, *end; line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        fprintf(pf.f, "| %.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
    }
    if (paths_file_commit(&pf, 1) != 0)
        report_warn(r->o, "cannot write %s: the text is in the output above", path);
    else
        report_text(r->o, "The generated text is in %s.", path);
}

/* ------------------------------------------------------------------------ G2 */

/* the control's refill: the cache's last `keep` - 1 rows moved to its front, keys and
 * values computed at their old positions kept instead of recomputed */
static void shift_cache(gpt_cache *c, size_t keep)
{
    size_t from = c->len - (keep - 1);
    for (size_t l = 0; l < c->shape.layers; l++)
        for (size_t i = 0; i + 1 < keep; i++) {
            gsl_vector_view k = gsl_matrix_row(c->K[l], from + i), v = gsl_matrix_row(c->V[l], from + i);
            gsl_matrix_set_row(c->K[l], i, &k.vector);
            gsl_matrix_set_row(c->V[l], i, &v.vector);
        }
    c->len = keep - 1;
}

/* tokens: (n) -> the largest difference, over len = 1..n, between the logits that
 * gpt_generate_next gives after tokens[0..len) and the last row of a full forward pass
 * over the window the cache stands for: the tokens from s to len, where s starts at 0
 * and moves to len - T/2 whenever len - s would pass T (the refill). stale: at each
 * refill the cache is shifted instead (shift_cache: the control) */
static double cache_gap(run *r, const size_t *tokens, size_t n, int stale)
{
    size_t T = r->w->shape.context, keep = T / 2 > 0 ? T / 2 : 1, s = 0;
    gpt_cache *c = SCOPE_KEEP(r->sc, gpt_cache_new(r->w), gpt_cache_free);
    gsl_vector *z = scope_vector(r->sc, r->w->shape.vocab);
    double worst = 0.0;
    for (size_t len = 1; len <= n; len++) {
        if (len - s > T)
            s = len - keep;
        if (stale && c->len == T)
            shift_cache(c, keep);
        chapter_must(gpt_generate_next(r->w, c, tokens, len, z), "a cached step");
        gpt_trace *tr = gpt_trace_new(r->w, 1, len - s);
        chapter_must(tr ? gpt_forward(r->w, tokens + s, NULL, tr, NULL) : INVENT_ENOMEM,
                     "the full forward pass");
        for (size_t i = 0; i < z->size; i++)
            worst = fmax(worst, fabs(gsl_matrix_get(gpt_logits(tr), len - s - 1, i) - z->data[i]));
        gpt_trace_free(tr);
    }
    return worst;
}

/* tokens: (n) -> their bytes as a string (kept by the run's scope), control bytes
 * (backspaces of overstriking) as '.' */
static const char *text_of(const run *r, const size_t *tokens, size_t n)
{
    char *text = SCOPE_KEEP(r->sc, calloc(n + 1, 1), free);
    for (size_t i = 0; i < n; i++) {
        unsigned char b = r->text->symbols[tokens[i]];
        text[i] = (char)(b < 32 && b != '\n' && b != '\t' ? '.' : b);
    }
    return text;
}

/* text -> its lines, printed */
static void print_text(const run *r, const char *text)
{
    const char *line = text, *end;
    while ((end = strchr(line, '\n')) != NULL) {
        report_line(r->o, "  | %.*s", (int)(end - line), line);
        line = end + 1;
    }
    report_line(r->o, "  | %s", line);
}

static void generation_section(run *r)
{
    const settings *s = r->s;
    size_t np = strlen(s->prompt), n = np + s->sample, T = r->w->shape.context;
    size_t keep = T / 2 > 0 ? T / 2 : 1;
    size_t *seq = SCOPE_KEEP(r->sc, calloc(n, sizeof(size_t)), free);
    chapter_must(corpus_encode(r->text, s->prompt, np, seq, NULL), "encoding the prompt");
    gpt_cache *c = SCOPE_KEEP(r->sc, gpt_cache_new(r->w), gpt_cache_free);
    gsl_rng *rng = scope_keep_rng(r->sc, rng_new(r->o->seed + 7));
    chapter_must(gpt_generate(r->w, c, seq, np, s->sample, s->temperature, s->top_k, rng,
                              seq + np), "generating text");
    report_section(r->o, "The model writes");
    report_text(r->o, "%zu characters after the prompt \"%s\", drawn one at a time from the "
                      "softmax of the logits divided by the temperature %g%s. Each new "
                      "character costs one row of projections per layer: the keys and values "
                      "of the earlier ones wait in a cache (chapter 5's cache, per layer, for "
                      "keys and values). When the %zu positions are used up, the cache is "
                      "refilled from the last %zu characters.",
                s->sample, s->prompt, s->temperature,
                s->top_k ? ", among the most likely few (top-k)" : "", T, T / 2);
    r->sample = text_of(r, seq, n);
    print_text(r, r->sample);
    size_t m = n < G2_CONTEXTS * T ? n : G2_CONTEXTS * T;
    report_text(r->o, "G2 walks the first %zu characters of this text again, one at a time, "
                      "and compares the logits of each step with a full forward pass over the "
                      "window the cache stands for (the whole prefix up to %zu characters, "
                      "then the characters since the last refill), so that it passes the "
                      "context length and %zu refill%s. Its control refills the way one "
                      "might be tempted to: by moving the last %zu keys and values to the "
                      "front of the cache instead of recomputing them. Each key was computed "
                      "at its old position, and, above layer 0, from the old window's "
                      "context.", m, T, m > T ? (m - T - 1) / keep + 1 : 0,
                m > T && (m - T - 1) / keep == 0 ? "" : "s", keep - 1);
    check_at_most("G2", "logits from the key-value cache equal those of recomputing the "
                  "window at every step, past the context length where the cache is refilled "
                  "(largest difference)", cache_gap(r, seq, m, 0), 1e-12);
    check_control("G2", "the cache shifted at each refill instead of recomputed (stale keys "
                        "and values)");
    check_at_most("G2", NULL, cache_gap(r, seq, m, 1), 1e-12);
}

/* ------------------------------------------------------------------------ G4 */

/* -> the largest difference between the logits of a and b on the first validation batch */
static double logits_gap(run *r, gpt_weights *a, gpt_weights *b)
{
    size_t B = r->s->batch, T = r->s->context;
    gpt_trace *ta = r->tr, *tb = SCOPE_KEEP(r->sc, gpt_trace_new(b, B, T), gpt_trace_free);
    corpus_window(r->text, r->valid, B, T, r->x, r->y);
    chapter_must(gpt_forward(a, r->x, NULL, ta, NULL), "the forward pass");
    chapter_must(gpt_forward(b, r->x, NULL, tb, NULL), "the forward pass");
    return mat_max_abs_diff(gpt_logits(ta), gpt_logits(tb));
}

static void checkpoint_section(run *r)
{
    char tmp[PATH_MAX], bad[160];
    snprintf(tmp, sizeof tmp, "%.4000s/ch13-checkpoint-XXXXXX", paths_temp_dir());
    const char *dir = r->s->save ? r->s->save : mkdtemp(tmp);
    chapter_must(dir ? INVENT_OK : INVENT_EIO, "creating the temporary checkpoint folder");
    int saved = checkpoint_save(dir, r->w, r->text->symbols), why = errno;
    char what[160];
    snprintf(what, sizeof what, "saving the checkpoint (%s)", strerror(why));
    if (saved != INVENT_OK && !r->s->save)
        rmdir(dir); /* the empty folder mkdtemp made: nothing is left behind */
    chapter_must(saved, what); /* the real cause beside the status: a full disk, a limit */
    gpt_weights *back = SCOPE_KEEP(r->sc, gpt_zeros(&r->w->shape), gpt_free);
    chapter_must(checkpoint_load(dir, back, bad, sizeof bad), "loading the checkpoint back");
    report_section(r->o, "Checkpoints");
    report_text(r->o, "The weights are saved as a folder of .npy files, one per tensor (%zu "
                      "files, plus the sizes, the alphabet and eps.npy, the norms' epsilon "
                      "%g: with the weights, every setting that changes the logits), which "
                      "numpy and PyTorch can "
                      "open; --load reads them back to go on training or to generate. A "
                      "checkpoint from before eps.npy existed loads with eps = %g: every one "
                      "was written from weights whose eps block_new fixes at that value, with "
                      "no option to change it, so the default is the value it was trained "
                      "with. %s",
                r->nt, r->w->eps, CHECKPOINT_OLD_EPS,
                r->s->save ? "" : "(This run saved to a temporary folder; --save DIR "
                                         "keeps one.)");
    double gap = logits_gap(r, r->w, back);
    if (!r->s->save)
        checkpoint_remove(dir, r->w);
    check_at_most("G4", "a checkpoint saved and loaded gives bit-identical logits (largest "
                  "difference)", gap, 0.0);
    double eps = back->eps;
    gpt_set_eps(back, (float)eps);
    check_control("G4", "the same weights with eps kept in float32 (a settings file that "
                        "stores it in single precision)");
    check_at_most("G4", NULL, logits_gap(r, r->w, back), 0.0);
    gpt_set_eps(back, eps);
    tensor_ref t[r->nt];
    gpt_tensors(back, NULL, t);
    for (size_t k = 0; k < r->nt; k++)
        for (size_t i = 0; i < t[k].size; i++)
            t[k].value[i] = round_bits((float)t[k].value[i], 11);
    check_control("G4", "the weights rounded to float16, as a 16-bit checkpoint holds them");
    check_at_most("G4", NULL, logits_gap(r, r->w, back), 0.0);
}

/* -------------------------------------------------------------------- set-up */

static gpt_shape shape_of(const settings *s, size_t vocab)
{
    return (gpt_shape){.vocab = vocab, .context = s->context, .dim = s->dim, .heads = s->heads,
                       .layers = s->layers, .hidden = 4 * s->dim,
                       .norm = s->post_norm ? BLOCK_POST_NORM : BLOCK_PRE_NORM};
}

static void setup(run *r, const corpus *text)
{
    const settings *s = r->s;
    size_t B = s->batch, T = s->context;
    gpt_shape shape = shape_of(s, text->vocab);
    r->rng = scope_keep_rng(r->sc, rng_new(r->o->seed));
    gsl_rng *windows = scope_keep_rng(r->sc, rng_new(r->o->seed + 1));
    r->w = SCOPE_KEEP(r->sc, gpt_new(&shape, r->rng), gpt_free);
    r->g = SCOPE_KEEP(r->sc, gpt_zeros(&shape), gpt_free);
    r->nt = gpt_tensor_count(&shape);
    r->t = SCOPE_KEEP(r->sc, calloc(r->nt, sizeof(tensor_ref)), free);
    gpt_tensors(r->w, r->g, r->t);
    chapter_must(adamw_init(&r->opt, r->t, r->nt, DECAY), "setting up AdamW");
    SCOPE_KEEP(r->sc, &r->opt, adamw_free);
    r->opt.beta2 = 0.99; /* nanoGPT's choice for small batches of characters */
    r->tr = SCOPE_KEEP(r->sc, gpt_trace_new(r->w, B, T), gpt_trace_free);
    r->m32 = SCOPE_KEEP(r->sc, gpt32_new(&shape, B, T), gpt32_free);
    chapter_must(r->m32 ? gpt32_from64(r->m32, r->w) : INVENT_ENOMEM, "the float32 model");
    chapter_must(adamw_init(&r->opt32, r->m32->t, r->m32->count, DECAY), "its AdamW");
    SCOPE_KEEP(r->sc, &r->opt32, adamw_free);
    r->opt32.beta2 = r->opt.beta2;
    r->x = SCOPE_KEEP(r->sc, calloc(B * T, sizeof(size_t)), free);
    r->y = SCOPE_KEEP(r->sc, calloc(B * T, sizeof(size_t)), free);
    r->starts = SCOPE_KEEP(r->sc, calloc(B, sizeof(size_t)), free);
    r->valid = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    r->train = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    chapter_must(corpus_draw(text, CORPUS_HELDOUT, s->windows, T, windows, r->valid),
                 "drawing validation windows");
    chapter_must(corpus_draw(text, CORPUS_TRAIN, s->windows, T, windows, r->train),
                 "drawing training windows");
    r->curve = scope_matrix(r->sc, s->points, 3);
    r->sch = (lr_schedule){.peak = s->rate, .floor = s->rate / 10, .warmup = s->warmup,
                           .decay = s->steps};
    r->untrained = mean_loss(r, r->valid, s->windows);
    char bad[32];
    if (s->load) {
        chapter_must(checkpoint_load(s->load, r->w, bad, sizeof bad), "loading --load");
        chapter_must(gpt32_from64(r->m32, r->w), "loading --load"); /* eps too */
    }
    r->b64 = (gpt_batch){r->w, r->g, r->tr,
                         SCOPE_KEEP(r->sc, gpt_work_new(r->w, B, T), gpt_work_free)};
    r->plan64 = (step_plan){.model = &r->b64, .forward = gpt_batch_forward,
                            .backward = gpt_batch_backward, .t = r->t, .count = r->nt,
                            .opt = &r->opt, .sch = r->sch, .clip = CLIP,
                            .inspect = g1_inspect, .ctx = r};
    r->plan32 = (step_plan){.model = r->m32, .forward = gpt32_train_forward,
                            .backward = gpt32_train_backward, .t = r->m32->t,
                            .count = r->m32->count, .opt = &r->opt32, .sch = r->sch,
                            .clip = CLIP, .inspect = keep_grads32, .ctx = r};
}

/* the mode's sizes for every option left at 0 */
static void fill_defaults(void *arg)
{
    settings *s = arg;
    const int f = s->full;
    size_t *v[] = {&s->layers, &s->heads, &s->dim, &s->context, &s->batch, &s->steps,
                   &s->sample};
    /* quick post-norm: 300 steps; with pre-norm's 150 it had not yet cleared the unigram */
    const size_t quick[] = {2, 2, 32, 32, 8, s->post_norm ? 300 : 150, 240};
    const size_t full[] = {4, 4, 128, 64, 12, 2000, 600};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (*v[k] == 0)
            *v[k] = f ? full[k] : quick[k];
    if (s->rate == 0.0)
        s->rate = f ? 1e-3 : 6e-3;
    s->warmup = s->steps / 10 < 100 ? s->steps / 10 : 100;
    s->points = f ? 11 : 6;
    if (!s->results && f)
        s->results = "results/ch13_full.tsv";
    s->windows = (f ? 10 : 4) * s->batch;
}

/* ------------------------------------------------------------ bad input first */

static int same_shape(const gpt_shape *a, const gpt_shape *b)
{
    return a->vocab == b->vocab && a->context == b->context && a->dim == b->dim &&
           a->heads == b->heads && a->layers == b->layers && a->hidden == b->hidden &&
           a->norm == b->norm;
}

static const char *norm_name(block_norm n)
{
    return n == BLOCK_POST_NORM ? "post-norm" : "pre-norm";
}

/* --load DIR must hold a model of exactly this run's alphabet and sizes,
 * every header and value checked (checkpoint.h) before any work */
static int check_checkpoint(const invent_opts *o, const settings *s, const corpus *text)
{
    gpt_shape have, want = shape_of(s, text->vocab);
    unsigned char symbols[256];
    size_t V;
    char why[160];
    int rc = cli_check_path(o, "load", s->load);
    if (rc != CLI_RUN)
        return rc;
    if (checkpoint_peek(s->load, &have, symbols, &V, why, sizeof why) != INVENT_OK)
        return cli_fail(o, "--load %s: not a checkpoint of this chapter (%s)", s->load, why);
    if (V != text->vocab || memcmp(symbols, text->symbols, V) != 0)
        return cli_fail(o, "--load %s: it was trained on another alphabet (%zu symbols; this "
                           "corpus has %zu)", s->load, V, text->vocab);
    if (!same_shape(&have, &want))
        return cli_fail(o, "--load %s: its shapes do not match this run: it has %zu layers, "
                           "%zu heads, width %zu, context %zu, %s; this run asks for %zu, %zu, "
                           "%zu, %zu, %s (give the sizes it was trained with, e.g. --full)",
                        s->load, have.layers, have.heads, have.dim, have.context,
                        norm_name(have.norm), want.layers, want.heads, want.dim, want.context,
                        norm_name(want.norm));
    gpt_weights *trial = gpt_zeros(&want); /* every tensor read once before any work */
    int status = trial ? checkpoint_load(s->load, trial, why, sizeof why) : INVENT_ENOMEM;
    gpt_free(trial);
    chapter_must(status == INVENT_ENOMEM ? status : INVENT_OK, "reading --load");
    if (status != INVENT_OK)
        return cli_fail(o, "--load %s: tensor %s", s->load, why);
    return CLI_RUN;
}

/* $TMPDIR (bytes: the checkpoint) -> CLI_RUN when it is a folder that can
 * hold G4's temporary checkpoint, checked before any work */
static int check_temp(const invent_opts *o, size_t bytes)
{
    char probe[PATH_MAX];
    struct stat st;
    const char *why = "not a folder";
    snprintf(probe, sizeof probe, "%.4000s/ch13-checkpoint-probe", paths_temp_dir());
    if (stat(paths_temp_dir(), &st) != 0)
        why = strerror(errno);
    else if (S_ISDIR(st.st_mode) && checkpoint_check_target(probe, bytes, &why) == INVENT_OK)
        return CLI_RUN;
    return cli_fail(o, "TMPDIR %s: cannot hold the temporary checkpoint (%s); set TMPDIR to a "
                       "writable folder or give --save DIR", paths_temp_dir(), why);
}

/* --save DIR (or, without it, $TMPDIR): a place a checkpoint of this run's
 * size can go, checked before any work */
static int check_save(const invent_opts *o, const settings *s, const corpus *text)
{
    gpt_shape shape = shape_of(s, text->vocab);
    size_t bytes = checkpoint_bytes(&shape);
    if (!s->save)
        return check_temp(o, bytes);
    const char *why;
    int rc = cli_check_path(o, "save", s->save);
    if (rc == CLI_RUN && checkpoint_check_target(s->save, bytes, &why) != INVENT_OK)
        return cli_fail(o, "--save %s: cannot save a checkpoint there: %s", s->save, why);
    return rc;
}

/* "The " when the corpus has those characters, else its first character */
static const char *default_prompt(const corpus *text)
{
    static char first[2];
    size_t ids[4];
    if (corpus_encode(text, "The ", 4, ids, NULL) == INVENT_OK)
        return "The ";
    first[0] = (char)text->symbols[text->tokens[0]];
    return first;
}

static int check_prompt(const invent_opts *o, const corpus *text, const char *prompt)
{
    size_t n = strlen(prompt), ids[256], bad;
    if (n > 256)
        return cli_fail(o, "--prompt: at most 256 characters, got %zu", n);
    if (corpus_encode(text, prompt, n, ids, &bad) != INVENT_OK)
        return cli_fail(o, "--prompt: byte %d (character %zu of the prompt) never occurs in "
                           "the corpus", (unsigned char)prompt[bad], bad + 1);
    return CLI_RUN;
}

/* --results FILE (or NULL): a regular file, or a new one, that FILE.part can be written
 * beside and renamed over (never a device such as /dev/null), and so SAMPLE_FILE and
 * CURVE_FILE beside it, checked before any work */
static int check_results(const invent_opts *o, const char *path)
{
    const char *why = path ? results_check(path) : NULL;
    if (why)
        return cli_fail(o, "--results %s: %s", path, why);
    const char *beside[] = {SAMPLE_FILE, CURVE_FILE};
    for (size_t k = 0; path && k < 2; k++)
        if ((why = results_check_beside(path, beside[k])) != NULL)
            return cli_fail(o, "--results %s: %s beside it: %s", path, beside[k], why);
    return CLI_RUN;
}

static int check_settings(const invent_opts *o, void *arg, corpus **text)
{
    settings *s = arg;
    if (s->dim % s->heads != 0)
        return cli_fail(o, "--heads (%zu) must divide --dim (%zu)", s->heads, s->dim);
    if (s->steps < 100)
        return cli_fail(o, "--steps must be at least 100 (G1 checks the first %d; G3 needs "
                           "some training), got %zu", G1_STEPS, s->steps);
    if (s->rate < 1e-4)
        return cli_fail(o, "--rate must be at least 1e-4, got %g", s->rate);
    if (s->context < 4)
        return cli_fail(o, "--context %zu: at least 4, too short for G2's control (its "
                           "refill moves context / 2 - 1 keys, at least one)", s->context);
    if (s->batch * s->context < 64)
        return cli_fail(o, "--batch %zu x --context %zu: at least 64 characters per step; fewer "
                           "are too noisy for G3 at these step counts (32 per step failed it "
                           "at 1 of 2 seeds)", s->batch, s->context);
    if (s->sample <= s->context)
        return cli_fail(o, "--sample %zu: more than --context (%zu), so that G2 passes the "
                           "context length, where the cache is refilled", s->sample, s->context);
    int rc = check_results(o, s->results);
    if (rc != CLI_RUN)
        return rc;
    rc = corpus_option_load(o, s->corpus, s->context, text);
    gpt_shape shape = rc == CLI_RUN ? shape_of(s, (*text)->vocab) : (gpt_shape){0};
    if (rc == CLI_RUN)
        rc = train_memory_refuse(o, &shape, s->batch, s->context, 8, 3, "the chapter");
    if (rc == CLI_RUN && s->load)
        rc = check_checkpoint(o, s, *text);
    if (rc == CLI_RUN)
        rc = check_save(o, s, *text);
    if (rc == CLI_RUN && !s->prompt)
        s->prompt = default_prompt(*text);
    return rc == CLI_RUN ? check_prompt(o, *text, s->prompt) : rc;
}

/* ---------------------------------------------------------------------- main */

static int run_chapter(const invent_opts *o, const settings *s, corpus *text,
                       const char *command)
{
    scope *sc = scope_open();
    SCOPE_KEEP(sc, text, corpus_free);
    run r = {.o = o, .s = s, .sc = sc, .text = text, .started = stopwatch_now(),
             .command = command};
    report_text(o, "This is the %s run%s. %s", s->full ? "full" : "quick",
                s->load ? ", going on from --load" : "",
                s->full ? "" : "Add --full for the baby-GPT setting (minutes on two cores).");
    setup(&r, text);
    corpus_section(&r);
    model_section(&r);
    g1_state g1 = {0};
    g1_setup(&r, &g1);
    getloadavg(&r.load[0], 1);
    r.seconds = train(&r, &g1);
    getloadavg(&r.load[1], 1);
    g1_report(&r, &g1, s->steps < G1_STEPS ? s->steps : G1_STEPS);
    result_section(&r);
    generation_section(&r);
    checkpoint_section(&r);
    report_section(o, "Where the derivation ends");
    report_text(o, "Every piece that the earlier chapters argued for, stacked and trained "
                   "with nothing but the library's own backward passes, %s",
                r.beats_all ? "learns the text well enough to beat every counting model it "
                              "was scored against; the sample above shows how far it writes in "
                              "its style."
                            : "learns from the text, but this run does not beat every counting "
                              "model (see the margins above): that takes the longer training of "
                              "--full.");
    if (s->results) {
        write_results(&r, command);
        write_sample(&r, command);
    }
    scope_close(sc);
    return chapter_end();
}

int main(int argc, char **argv)
{
    settings s = {.temperature = 0.8, .corpus = CORPUS_FORTUNES_DIR};
    const cli_text_option texts[] = {
        {"corpus", &s.corpus, "a text file (or folder of them) to learn"},
        {"save", &s.save, "save the trained weights to this folder"},
        {"load", &s.load, "start from a folder written by --save"},
        {"prompt", &s.prompt, "the text that generation starts from"},
        {"results", &s.results, "write the held-out losses and margins here, and the generated "
                                "text beside it in " SAMPLE_FILE " (default with --full: "
                                "results/ch13_full.tsv)"},
    };
    const cli_option options[] = {
        {"full", CLI_FLAG, &s.full, 0, 1, "the baby-GPT setting (4 layers, 4 heads, width 128, "
                                          "context 64, batch 12, 2000 steps; minutes)"},
        {"post-norm", CLI_FLAG, &s.post_norm, 0, 1, "norms after the sums, as in chapter 10"},
        {"layers", CLI_SIZE, &s.layers, 0, 12, "blocks L (0: 2, with --full 4)"},
        {"heads", CLI_SIZE, &s.heads, 0, 16, "heads H, dividing the width (0: 2; 4)"},
        {"dim", CLI_SIZE, &s.dim, 0, 512, "width d (0: 32; 128)"},
        {"context", CLI_SIZE, &s.context, 0, 256, "characters per sequence, at least 4 (0: 32; 64)"},
        {"batch", CLI_SIZE, &s.batch, 0, 64, "sequences per step, batch x context at least 64 (0: 8; 12)"},
        {"steps", CLI_SIZE, &s.steps, 0, 100000,
         "training steps, at least 100 (0: 150, 300 post-norm; 2000). G3 is a claim about training: too "
         "few steps or too small a rate fail it, and say so"},
        {"rate", CLI_DOUBLE, &s.rate, 0, 0.02, "peak learning rate, at least 1e-4 (0: 6e-3; 1e-3)"},
        {"sample", CLI_SIZE, &s.sample, 0, 100000, "characters to generate, more than --context (0: 240; 600)"},
        {"temperature", CLI_DOUBLE, &s.temperature, 0.05, 5, "sampling temperature"},
        {"top-k", CLI_SIZE, &s.top_k, 0, 256, "sample among the k likeliest (0: all)"},
    };
    const cli_spec spec = {"ch13", "Chapter 13: the Transformer trained on real text in C, "
                           "checked against the formulas and PyTorch. Text options: --corpus "
                           "FILE (default " CORPUS_FORTUNES_DIR ", Debian package fortunes), "
                           "--save DIR, --load DIR, --prompt TEXT, --results FILE.",
                           options, (int)(sizeof options / sizeof options[0])};
    const text_chapter c = {texts, 5, &spec,
                            "Chapter 13: the assembled Transformer, trained on real text", &s,
                            fill_defaults, check_settings};
    char command[1024]; /* as typed: the option parser reorders argv */
    results_command(argc, argv, command, sizeof command);
    invent_opts o;
    corpus *text;
    int rc = text_chapter_open(&c, argc, argv, &o, &text);
    return rc != CLI_RUN ? rc : run_chapter(&o, &s, text, command);
}
