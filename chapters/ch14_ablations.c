/* Chapter 14: every choice of the derivation, taken out one at a time, as an
 * experiment.
 *
 * Each chapter before argued that a piece is needed: positions (chapter 7's
 * bag of tokens cannot tell order), the causal mask (a model that sees the
 * next character learns to copy it), the 1/sqrt(r) scale (chapter 7), the MLP
 * (chapter 9), several heads and W_o (chapter 8); the seed thread asked why one
 * free matrix A in place of W_q^T W_k "trains worse"; chapter 4 set aside the
 * additive score of Bahdanau et al. (2015); and chapter 1 set out to replace
 * a recurrent cell. Here each piece is removed from chapter 13's model, which
 * is trained again, and the held-out loss (always causal) says what it was
 * worth on real text. The protocol is fixed in this file before any run:
 *   - every model, the full one too, at its best of the peak learning rates
 *     tried, chosen on the validation part (SELECT_SEEDS seeds each): first the
 *     base rate times 1/2, 1 and 2, then, for a model whose best falls at an
 *     edge, one more beyond that edge (times 1/4 or 4); then trained at that
 *     rate at the paired seeds (the choosing runs count among them);
 *     at seed i every GPT starts from the same draw, and every model sees the
 *     same batches;
 *   - the held-out part (every tenth fortune, corpus.h) is scored in windows
 *     spread over all of it;
 *   - each row's effect is the paired mean difference to the full model with
 *     its 95% Student-t interval, and its verdict against the margin MARGIN:
 *     costs, helps, equivalent or not resolved (paired.h). A verdict is a
 *     claim only when its control, the same test on a pair where it is false,
 *     fails: the full model against itself at other seeds for costs and helps,
 *     against its half-budget self for equivalent. The rest is narrated;
 *   - each row also as a compute equivalent: the share of the full model's
 *     steps that reaches its loss (budget_share.h, from the full model trained
 *     on 1/4, 1/2 and 3/4 of the steps).
 *   A1-A6, A8, A9  the ablations (ablation.h), A4 also at equal parameters;
 *   A7   the leak: trained without the mask, the model does better on training
 *        text when it is shown the future;
 *   A10  chapter 1's cell and a gated cell (GRU), each at the full model's
 *        non-embedding parameters (and so its compute, recurrent_size.h), each
 *        against its control without recurrence;
 *   A11  held-out loss by position in windows of --long-context characters,
 *        for the Transformer and both cells, against the counts.
 * The default is a tiny model (seconds), which claims only what such a budget
 * resolves; --full trains chapter 13's baby GPT (results/ch14_full.tsv holds
 * the last committed run). Chapter 15 reads the trained model back.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_statistics.h>

#include "ablation32.h"
#include "budget_share.h"
#include "cli_text.h"
#include "corpus.h"
#include "corpus_option.h"
#include "invent.h"
#include "lm_models.h"
#include "lm_run.h"
#include "ngram.h"
#include "paired.h"
#include "recurrent32.h"
#include "recurrent_size.h"
#include "results_file.h"
#include "run_log.h"
#include "train_memory.h"

#define MARGIN 0.02      /* nats per character: the smallest effect claimed, fixed before the runs */
#define LEVEL 0.95       /* the intervals' coverage */
#define RATES 5          /* the rate grid: the base rate times 1/4, 1/2, 1, 2 and 4 */
#define PROTOCOL 2       /* the run log's version: raised whenever a run's numbers would change */
#define SELECT_SEEDS 2   /* seeds per rate when choosing it */
#define POINTS 8         /* points of each learning curve */
#define MAX_SEEDS 12
#define FULL_RESULTS "results/ch14_full.tsv" /* --full's table, committed after a run */
#define FULL_RUNS "results/ch14_runs.tsv"    /* --full's run log */

typedef struct {
    int full;
    size_t layers, heads, dim, context, batch, steps, seeds, long_context, windows;
    double rate;
    const char *corpus, *results, *runs;
    run_log *log;        /* finished runs, read back instead of run again (NULL: none) */
} settings;

typedef enum { GPT, ELMAN, GRU } family;

/* One row of the experiment: a model, how it is trained and what it answers. */
typedef struct {
    const char *name, *id;  /* short name; the claim it answers ("" none) */
    family fam;
    ablation abl;           /* GPT rows */
    int unit_positions;     /* positions drawn N(0, 1), the old draw */
    int wide;               /* no MLP at the full model's parameters: width sqrt(3) d */
    int no_recurrence;      /* the cells' controls */
    int long_context;       /* trained and scored on windows of --long-context */
    int rate_of;            /* -1: chooses its own rate; else the row whose rate it takes */
    int quarters;           /* its steps, in quarters of the budget */
    int again;              /* trained at the seeds after the paired ones */
} row_def;

enum { FULL, NO_POS, UNIT_POS, NO_MASK, NO_SCALE, NO_MLP, NO_MLP_WIDE, ONE_HEAD, NO_WO, FREE_A,
       ADDITIVE, CELL, GATED, CELL_0, GATED_0, AGAIN, Q3, Q2, Q1, LONG_FULL, LONG_GATED, LONG_CELL,
       ROWS };

static const row_def rows[ROWS] = {
    [FULL] = {"full", "", GPT, ABL_FULL, 0, 0, 0, 0, -1, 4, 0},
    [NO_POS] = {"no position", "A1", GPT, ABL_NO_POSITION, 0, 0, 0, 0, -1, 4, 0},
    [UNIT_POS] = {"positions N(0,1)", "", GPT, ABL_FULL, 1, 0, 0, 0, -1, 4, 0},
    [NO_MASK] = {"no mask", "A2", GPT, ABL_NO_MASK, 0, 0, 0, 0, -1, 4, 0},
    [NO_SCALE] = {"no scale", "A3", GPT, ABL_NO_SCALE, 0, 0, 0, 0, -1, 4, 0},
    [NO_MLP] = {"no MLP", "A4", GPT, ABL_NO_MLP, 0, 0, 0, 0, -1, 4, 0},
    [NO_MLP_WIDE] = {"no MLP, wider", "A4", GPT, ABL_NO_MLP, 0, 1, 0, 0, -1, 4, 0},
    [ONE_HEAD] = {"one head", "A5", GPT, ABL_ONE_HEAD, 0, 0, 0, 0, -1, 4, 0},
    [NO_WO] = {"no W_o", "A6", GPT, ABL_NO_WO, 0, 0, 0, 0, -1, 4, 0},
    [FREE_A] = {"free A", "A8", GPT, ABL_FREE_A, 0, 0, 0, 0, -1, 4, 0},
    [ADDITIVE] = {"additive", "A9", GPT, ABL_ADDITIVE, 0, 0, 0, 0, -1, 4, 0},
    [CELL] = {"Elman cell", "A10", ELMAN, ABL_FULL, 0, 0, 0, 0, -1, 4, 0},
    [GATED] = {"GRU", "A10", GRU, ABL_FULL, 0, 0, 0, 0, -1, 4, 0},
    [CELL_0] = {"Elman, W = 0", "A10", ELMAN, ABL_FULL, 0, 0, 1, 0, CELL, 4, 0},
    [GATED_0] = {"GRU, W = 0", "A10", GRU, ABL_FULL, 0, 0, 1, 0, GATED, 4, 0},
    [AGAIN] = {"full again", "", GPT, ABL_FULL, 0, 0, 0, 0, FULL, 4, 1},
    [Q3] = {"3/4 of steps", "", GPT, ABL_FULL, 0, 0, 0, 0, FULL, 3, 0},
    [Q2] = {"1/2 of steps", "", GPT, ABL_FULL, 0, 0, 0, 0, FULL, 2, 0},
    [Q1] = {"1/4 of steps", "", GPT, ABL_FULL, 0, 0, 0, 0, FULL, 1, 0},
    [LONG_FULL] = {"full, long", "A11", GPT, ABL_FULL, 0, 0, 0, 1, FULL, 4, 0},
    [LONG_GATED] = {"GRU, long", "A11", GRU, ABL_FULL, 0, 0, 0, 1, GATED, 4, 0},
    [LONG_CELL] = {"Elman, long", "A11", ELMAN, ABL_FULL, 0, 0, 0, 1, CELL, 4, 0},
};

/* What one training run gave. */
typedef struct {
    double held, valid;   /* final loss on the held-out and validation windows */
    double leak;          /* training windows: causal loss minus seeing the future */
    double seconds;       /* its training steps' wall time */
    double curve[POINTS]; /* held-out loss along the steps */
    double *by_position;  /* (long_context) long rows only */
    size_t params;
    int done;             /* trained (or read from the log) */
} record;

/* The windows one context is scored on. */
typedef struct {
    size_t T, B;            /* window length, batch */
    size_t *held, *valid;   /* (n) spread over each part */
    size_t *curve;          /* (n_curve) every fourth held-out window */
    size_t n, n_curve;
} windows;

typedef struct {
    const invent_opts *o;
    const settings *s;
    scope *sc;
    corpus *text;
    windows near, far;       /* --context and --long-context */
    size_t *train;           /* (near.n) training windows, for the leak */
    record *rec;             /* (ROWS, RATES, seeds) */
    size_t best[ROWS];       /* each row's rate, an index into the grid */
    double counted[2];       /* held-out loss of the bigram and trigram (k chosen on validation) */
    double *counted_by_position; /* (long_context): the trigram's on the long windows */
    size_t jobs_done, jobs, runs, logged; /* this batch: done, in all; runs in all; read back */
    pthread_mutex_t lock;
    double seconds;          /* wall time of this invocation's runs */
    double trained;          /* seconds of training summed over every run, read back or not */
    const char *command;     /* as typed, for the results' stamps */
} run;

/* ------------------------------------------------------------------ models */

static gpt_shape shape_of(const settings *s, size_t vocab, const row_def *d)
{
    size_t dim = s->dim;
    if (d->wide) /* attention alone holds 4 d^2 of a block's 12 d^2: sqrt(3) d, H | d */
        dim = (size_t)(sqrt(3.0) * (double)s->dim / (double)(2 * s->heads) + 0.5) * 2 * s->heads;
    return (gpt_shape){.vocab = vocab, .context = d->long_context ? s->long_context : s->context,
                       .dim = dim, .heads = s->heads, .layers = s->layers, .hidden = 4 * dim,
                       .norm = BLOCK_PRE_NORM, .unit_positions = d->unit_positions};
}

/* row d at seed, batch B x T -> a GPT drawn as gpt_new draws it (one thread: two runs go
 * side by side), kept in sc */
static lm_model gpt_model(const run *r, scope *sc, const row_def *d, unsigned long seed,
                          size_t B, size_t T)
{
    gpt_shape shape = shape_of(r->s, r->text->vocab, d);
    gsl_rng *rng = scope_keep_rng(sc, rng_new(seed));
    ablated *src = ablated_new(d->abl, &shape, rng);
    ablated32 *m = NULL;
    int status = src ? ablated32_new(src, B, T, &m) : INVENT_ENOMEM;
    ablated_free(src);
    chapter_must(status, "building a model");
    SCOPE_KEEP(sc, m, ablated32_free);
    m->m->workers = 1;
    return lm_model_gpt(m);
}

/* row d at seed, batch B x T -> a recurrent cell at the full model's non-embedding
 * parameters, kept in sc */
static lm_model cell_model(const run *r, scope *sc, const row_def *d, unsigned long seed,
                           size_t B, size_t T)
{
    recurrent_cell cell = d->fam == GRU ? RECURRENT_GRU : RECURRENT_ELMAN;
    gpt_shape full = shape_of(r->s, r->text->vocab, &rows[FULL]);
    recurrent_shape rs = {cell, r->text->vocab, r->s->dim,
                          recurrent_match_gpt(cell, r->s->dim, &full).params};
    recurrent32 *m = SCOPE_KEEP(sc, recurrent32_new(&rs, B, T, d->no_recurrence),
                                recurrent32_free);
    chapter_must(m ? INVENT_OK : INVENT_ENOMEM, "building a recurrent model");
    chapter_must(recurrent32_draw(m, scope_keep_rng(sc, rng_new(seed))), "drawing a cell");
    m->workers = 1;
    return lm_model_cell(m);
}

/* m (an ablated32): the mean loss on the training windows causal, minus seeing the future
 * (the full model is shown it by evaluating it as the no-mask ablation) */
static double leak_of(const run *r, ablated32 *m)
{
    const windows *w = &r->near;
    lm_plan p = {.text = r->text, .B = w->B, .T = w->T};
    lm_model causal = lm_model_gpt(m);
    double plain, seeing = 0.0;
    chapter_must(lm_evaluate(&p, &causal, r->train, w->n, &plain, NULL), "the leak");
    ablation kind = m->kind;
    m->kind = ABL_NO_MASK;
    size_t x[w->B * w->T], y[w->B * w->T];
    for (size_t i = 0; i < w->n; i += w->B) {
        double loss;
        corpus_window(r->text, r->train + i, w->B, w->T, x, y);
        chapter_must(ablated32_forward(m, x, y, 1, &loss), "the leak");
        seeing += loss;
    }
    m->kind = kind;
    return plain - seeing / (double)(w->n / w->B);
}

/* ------------------------------------------------------------------ the runs */

static double rate_at(const settings *s, size_t k)
{
    return s->rate * pow(2.0, (double)k - 2.0); /* 1/4, 1/2, 1, 2, 4 times the base */
}

static record *rec_at(const run *r, size_t row, size_t rate, size_t seed)
{
    return &r->rec[(row * RATES + rate) * MAX_SEEDS + seed];
}

/* ------------------------------------------------------------------ the run log */

/* row d trained by p at seed -> key: everything its numbers depend on */
static void run_key(const run *r, const row_def *d, const lm_plan *p, unsigned long seed,
                    char *key, size_t len)
{
    const settings *s = r->s;
    snprintf(key, len, "ch14 v%d|%s|L%zu H%zu d%zu|B%zu T%zu steps %zu|rate %.6g|seed %lu of "
             "%lu|windows %zu|text %zu %zu", PROTOCOL, d->name, s->layers, s->heads, s->dim,
             p->B, p->T, p->steps, p->rate, seed, r->o->seed, p->n_windows, r->text->n,
             r->text->vocab);
}

#define LOGGED (6 + POINTS) /* numbers of a record in the log, before its by_position */

/* key -> *out read from the log (T numbers by position for a long row); 0: not logged */
static int logged(run *r, const char *key, record *out, size_t T)
{
    if (!r->s->log)
        return 0;
    size_t n = LOGGED + (out->by_position ? T : 0);
    double v[n];
    pthread_mutex_lock(&r->lock);
    int found = run_log_find(r->s->log, key, v, n) == INVENT_OK;
    r->logged += found;
    pthread_mutex_unlock(&r->lock);
    if (!found)
        return 0;
    out->held = v[0], out->valid = v[1], out->leak = v[2], out->seconds = v[3];
    out->params = (size_t)v[4], out->done = v[5] != 0.0;
    memcpy(out->curve, v + 6, POINTS * sizeof(double));
    if (out->by_position)
        memcpy(out->by_position, v + LOGGED, T * sizeof(double));
    return 1;
}

/* a finished run -> the log under key */
static void log_run(run *r, const char *key, const record *out, size_t T)
{
    if (!r->s->log)
        return;
    size_t n = LOGGED + (out->by_position ? T : 0);
    double v[n];
    v[0] = out->held, v[1] = out->valid, v[2] = out->leak, v[3] = out->seconds;
    v[4] = (double)out->params, v[5] = out->done;
    memcpy(v + 6, out->curve, POINTS * sizeof(double));
    if (out->by_position)
        memcpy(v + LOGGED, out->by_position, T * sizeof(double));
    pthread_mutex_lock(&r->lock);
    int status = run_log_add(r->s->log, key, v, n);
    pthread_mutex_unlock(&r->lock);
    if (status != INVENT_OK)
        report_warn(r->o, "cannot log a run to %s (%s): it will run again next time",
                    r->s->runs, invent_strerror(status));
}

/* one run: row at rate index k, seed index i -> its record */
static void one_run(run *r, size_t row, size_t k, size_t i)
{
    const row_def *d = &rows[row];
    const windows *w = d->long_context ? &r->far : &r->near;
    unsigned long seed = r->o->seed + i + (d->again ? r->s->seeds : 0);
    scope *sc = scope_open();
    lm_model m = d->fam == GPT ? gpt_model(r, sc, d, seed, w->B, w->T)
                               : cell_model(r, sc, d, seed, w->B, w->T);
    record *out = rec_at(r, row, k, i);
    lm_plan p = {.text = r->text, .B = w->B, .T = w->T,
                 .steps = (r->s->steps * (size_t)d->quarters + 2) / 4, .rate = rate_at(r->s, k),
                 .seed = seed + 7919, .windows = w->held, .n_windows = w->n,
                 .curve_windows = w->curve, .n_curve = w->n_curve, .points = POINTS};
    char key[400];
    run_key(r, d, &p, seed, key, sizeof key);
    if (logged(r, key, out, w->T))
        return;
    lm_result res = {.curve = out->curve, .by_position = out->by_position};
    chapter_must(lm_run(&p, &m, &res), "training a model");
    out->held = res.loss, out->seconds = res.seconds, out->params = tensors_numbers(m.t, m.count);
    out->done = 1;
    if (d->rate_of < 0)
        chapter_must(lm_evaluate(&p, &m, w->valid, w->n, &out->valid, NULL), "validating");
    if (row == NO_MASK || row == FULL)
        out->leak = leak_of(r, m.model);
    scope_close(sc);
    log_run(r, key, out, w->T);
}

/* A list of runs shared between the workers. */
typedef struct {
    run *r;
    size_t (*job)[3]; /* (row, rate, seed) */
} job_list;

static int job_item(void *ctx, size_t item, int worker)
{
    (void)worker;
    job_list *l = ctx;
    run *r = l->r;
    one_run(r, l->job[item][0], l->job[item][1], l->job[item][2]);
    pthread_mutex_lock(&r->lock);
    r->trained += rec_at(r, l->job[item][0], l->job[item][1], l->job[item][2])->seconds;
    r->jobs_done++;
    report_progress(r->o, r->jobs_done == r->jobs, "  runs %zu/%zu", r->jobs_done, r->jobs);
    pthread_mutex_unlock(&r->lock);
    return INVENT_OK;
}

/* the jobs (count) on both cores, one run on each */
static void run_jobs(run *r, size_t (*job)[3], size_t count)
{
    job_list l = {r, job};
    r->jobs_done = 0, r->jobs = count, r->runs += count;
    chapter_must(workers_run(count, workers_count(), job_item, &l), "training the models");
}

/* the rows that choose a rate, at rate index k (a row's edge: EDGE) -> jobs from job[n] on,
 * one per choosing seed; -> the new n */
#define EDGE RATES
static size_t rate_jobs(const run *r, size_t k, size_t (*job)[3], size_t n)
{
    for (size_t row = 0; row < ROWS; row++) {
        size_t at = k;
        if (k == EDGE && r->best[row] != 1 && r->best[row] != RATES - 2)
            continue; /* its best lies inside the first three rates */
        if (k == EDGE)
            at = r->best[row] == 1 ? 0 : RATES - 1;
        for (size_t i = 0; rows[row].rate_of < 0 && i < SELECT_SEEDS; i++)
            job[n][0] = row, job[n][1] = at, job[n++][2] = i;
    }
    return n;
}

/* each choosing row's best rate over those tried, by mean validation loss */
static void pick_rates(run *r)
{
    for (size_t row = 0; row < ROWS; row++) {
        double best = INFINITY;
        for (size_t k = 0; rows[row].rate_of < 0 && k < RATES; k++) {
            if (!rec_at(r, row, k, 0)->done)
                continue;
            double v = 0.0;
            for (size_t i = 0; i < SELECT_SEEDS; i++)
                v += rec_at(r, row, k, i)->valid / SELECT_SEEDS;
            if (v < best)
                best = v, r->best[row] = k;
        }
    }
    for (size_t row = 0; row < ROWS; row++)
        if (rows[row].rate_of >= 0)
            r->best[row] = r->best[rows[row].rate_of];
}

/* the rows that choose a rate: the middle three rates at the first SELECT_SEEDS seeds, then
 * one more beyond the edge where a row's best fell */
static void choose_rates(run *r)
{
    size_t (*job)[3] = SCOPE_KEEP(r->sc, calloc(ROWS * RATES * SELECT_SEEDS, sizeof *job), free);
    size_t n = 0;
    for (size_t k = 1; k < RATES - 1; k++)
        n = rate_jobs(r, k, job, n);
    run_jobs(r, job, n);
    pick_rates(r);
    run_jobs(r, job, rate_jobs(r, EDGE, job, 0));
    pick_rates(r);
}

/* every row at its rate over the paired seeds not run yet */
static void train_rest(run *r)
{
    size_t S = r->s->seeds;
    size_t (*job)[3] = SCOPE_KEEP(r->sc, calloc(ROWS * S, sizeof *job), free);
    size_t n = 0;
    for (size_t row = 0; row < ROWS; row++)
        for (size_t i = rows[row].rate_of < 0 ? SELECT_SEEDS : 0; i < S; i++)
            job[n][0] = row, job[n][1] = r->best[row], job[n++][2] = i;
    run_jobs(r, job, n);
}

/* ------------------------------------------------------------------ statistics */

/* -> row's held-out losses over the paired seeds, at its rate */
static gsl_vector *held_of(const run *r, size_t row)
{
    gsl_vector *v = scope_vector(r->sc, r->s->seeds);
    for (size_t i = 0; i < r->s->seeds; i++)
        gsl_vector_set(v, i, rec_at(r, row, r->best[row], i)->held);
    return v;
}

static double mean_of(const gsl_vector *v)
{
    return gsl_stats_mean(v->data, v->stride, v->size);
}

/* a against b, paired over the seeds -> the interval of mean(a - b) */
static paired_interval interval_of(const gsl_vector *a, const gsl_vector *b)
{
    paired_interval iv;
    chapter_must(paired_interval_of(a, b, LEVEL, &iv), "a paired interval");
    return iv;
}

static paired_verdict verdict_of(const paired_interval *iv)
{
    paired_verdict v;
    chapter_must(paired_verdict_of(iv, MARGIN, &v), "a verdict");
    return v;
}

/* row against reference (FULL, or the cell for its control) */
static paired_interval row_interval(const run *r, size_t row, size_t reference)
{
    return interval_of(held_of(r, row), held_of(r, reference));
}

/* row's mean loss as a share of the full model's steps */
static budget_share share_of(const run *r, size_t row)
{
    static const size_t budget[4] = {Q1, Q2, Q3, FULL};
    gsl_vector *shares = scope_vector(r->sc, 4), *losses = scope_vector(r->sc, 4);
    for (size_t k = 0; k < 4; k++) {
        gsl_vector_set(shares, k, (double)(k + 1) / 4.0);
        gsl_vector_set(losses, k, mean_of(held_of(r, budget[k])));
    }
    budget_share out = {BUDGET_WITHIN, NAN};
    if (budget_share_of(shares, losses, mean_of(held_of(r, row)), &out) != INVENT_OK)
        out.share = NAN; /* the budget rows did not fall with the steps */
    return out;
}

/* row: mean milliseconds per training step over its seeds */
static double ms_per_step(const run *r, size_t row)
{
    double sum = 0.0;
    size_t steps = (r->s->steps * (size_t)rows[row].quarters + 2) / 4;
    for (size_t i = 0; i < r->s->seeds; i++)
        sum += rec_at(r, row, r->best[row], i)->seconds;
    return 1e3 * sum / (double)(r->s->seeds * steps);
}

/* ------------------------------------------------------------------ set-up */

/* part, T, n -> (n) starts of windows spread evenly over the part's tiles, kept in sc */
static size_t *spread(const run *r, corpus_part part, size_t T, size_t n)
{
    size_t tiles = corpus_part_len(r->text, part) / T;
    size_t *all = SCOPE_KEEP(r->sc, calloc(tiles + 1, sizeof(size_t)), free);
    size_t *out = SCOPE_KEEP(r->sc, calloc(n, sizeof(size_t)), free);
    size_t count = corpus_tile(r->text, part, T, tiles, all);
    for (size_t i = 0; i < n; i++)
        out[i] = all[i * count / n];
    return out;
}

/* windows of T characters, B per batch, n of them (a multiple of 4 B) */
static windows windows_of(const run *r, size_t T, size_t B, size_t n)
{
    windows w = {.T = T, .B = B, .n = n, .n_curve = n / 4};
    w.held = spread(r, CORPUS_HELDOUT, T, n);
    w.valid = spread(r, CORPUS_VALID, T, n);
    w.curve = SCOPE_KEEP(r->sc, calloc(w.n_curve, sizeof(size_t)), free);
    for (size_t i = 0; i < w.n_curve; i++)
        w.curve[i] = w.held[4 * i];
    return w;
}

/* the counts' held-out loss, k chosen on the validation windows; by_position: (T) or NULL */
static double counted(const run *r, size_t order, const windows *w, double *by_position)
{
    double k;
    if (isnan(ngram_best_loss(r->text, order, w->valid, w->n, w->T, &k)))
        return NAN;
    ngram *m;
    chapter_must(ngram_count(r->text, order, &m), "counting");
    double loss = ngram_loss(m, r->text, w->held, w->n, w->T, k);
    for (size_t t = 0; by_position && t < w->T; t++) {
        double sum = 0.0;
        for (size_t i = 0; i < w->n; i++) {
            size_t at = w->held[i] + t;
            sum += ngram_loss(m, r->text, &at, 1, 1, k);
        }
        by_position[t] = sum / (double)w->n;
    }
    ngram_free(m);
    return loss;
}

static void setup(run *r)
{
    const settings *s = r->s;
    /* the long windows: as many a step as the short ones (at fewer a step the Transformer
     * learns its 4 times as many positions from 4 times fewer examples of each), and about as
     * many characters scored, in whole groups of 4 batches */
    size_t groups = s->windows / (4 * s->batch);
    groups = (groups * s->context + s->long_context - 1) / s->long_context;
    r->near = windows_of(r, s->context, s->batch, s->windows);
    r->far = windows_of(r, s->long_context, s->batch, groups * 4 * s->batch);
    r->train = SCOPE_KEEP(r->sc, calloc(s->windows, sizeof(size_t)), free);
    gsl_rng *draw = scope_keep_rng(r->sc, rng_new(r->o->seed + 1000));
    chapter_must(corpus_draw(r->text, CORPUS_TRAIN, s->windows, s->context, draw, r->train),
                 "drawing training windows");
    r->rec = SCOPE_KEEP(r->sc, calloc(ROWS * RATES * MAX_SEEDS, sizeof(record)), free);
    for (size_t row = LONG_FULL; row <= LONG_CELL; row++)
        for (size_t k = 0; k < RATES * MAX_SEEDS; k++)
            rec_at(r, row, 0, 0)[k].by_position =
                SCOPE_KEEP(r->sc, calloc(s->long_context, sizeof(double)), free);
    r->counted_by_position = SCOPE_KEEP(r->sc, calloc(s->long_context, sizeof(double)), free);
    r->counted[0] = counted(r, 2, &r->near, NULL);
    r->counted[1] = counted(r, 3, &r->near, NULL);
    counted(r, 3, &r->far, r->counted_by_position);
    pthread_mutex_init(&r->lock, NULL);
}

/* ------------------------------------------------------------------ the table */

/* the verdict text of row against reference */
static const char *verdict_text(const run *r, size_t row, size_t reference)
{
    paired_interval iv = row_interval(r, row, reference);
    return paired_verdict_name(verdict_of(&iv));
}

/* the compute equivalent, as text */
static void share_text(const run *r, size_t row, char *out, size_t len)
{
    budget_share b = share_of(r, row);
    if (isnan(b.share))
        snprintf(out, len, "n/a");
    else if (b.reach == BUDGET_WITHIN)
        snprintf(out, len, "%.2f", b.share);
    else
        snprintf(out, len, "%s%.2f", b.reach == BUDGET_NOT_REACHED ? ">" : "<", b.share);
}

/* -> the trigram's mean held-out loss on the long rows' windows */
static double trigram_long(const run *r)
{
    double sum = 0.0;
    for (size_t t = 0; t < r->s->long_context; t++)
        sum += r->counted_by_position[t];
    return sum / (double)r->s->long_context;
}

static void table(const run *r)
{
    report_section(r->o, "The table");
    report_line(r->o, "  %-16s %9s %8s %9s %24s %-13s %7s %8s", "model", "numbers", "rate",
                "held-out", "minus full [95% interval]", "verdict", "steps", "ms/step");
    for (size_t row = 0; row < ROWS; row++) {
        char share[16];
        share_text(r, row, share, sizeof share);
        size_t ref = rows[row].no_recurrence ? (size_t)rows[row].rate_of : FULL;
        paired_interval iv = row_interval(r, row, ref);
        const char *verdict = row == FULL || rows[row].long_context ? "" : verdict_text(r, row, ref);
        char diff[40] = "-";
        if (!rows[row].long_context) /* scored on other windows: set against nothing */
            snprintf(diff, sizeof diff, "%+.3f [%+.3f, %+.3f]", iv.mean, iv.lo, iv.hi);
        report_line(r->o, "  %-16s %9zu %8.1e %9.3f %24s %-13s %7s %8.1f", rows[row].name,
                    rec_at(r, row, r->best[row], 0)->params, rate_at(r->s, r->best[row]),
                    mean_of(held_of(r, row)), diff, verdict,
                    rows[row].long_context ? "-" : share, ms_per_step(r, row));
    }
    report_line(r->o, "  %-16s %9s %8s %9.3f   (counts of the training text, k chosen on "
                "validation)", "bigram", "", "", r->counted[0]);
    report_line(r->o, "  %-16s %9s %8s %9.3f", "trigram", "", "", r->counted[1]);
    report_line(r->o, "  %-16s %9s %8s %9.3f   (on the long rows' windows)", "trigram, long",
                "", "", trigram_long(r));
    report_text(r->o, "Each difference is paired: at seed i both models start from the same "
                "draw (where their shapes agree) and see the same batches, so the seed's luck, "
                "shared by both, cancels. W = 0 rows are set against their own cell, 'long' rows "
                "(A11) are scored on windows of their own length, so they are set against "
                "nothing here but the trigram on those windows. 'steps' is the compute equivalent: the "
                "share of the full model's steps at which it reaches the row's loss, read off "
                "the full model trained on 1/4, 1/2, 3/4 and all of the steps (linear in log "
                "steps between them; '>1.00' not reached within the budget). ms/step is one run "
                "on one core, two runs side by side.");
}

/* ------------------------------------------------------------------ claims */

/* a claim on row against reference: its verdict, when resolved and when the same test on
 * the near miss (the full model at other seeds; for equivalent, at half the steps) fails;
 * fixed: the verdict fixed in advance (PAIRED_NOT_RESOLVED: none), checked whatever the run */
static void verdict_claim(const run *r, size_t row, size_t reference, const char *what,
                          paired_verdict fixed)
{
    paired_interval iv = row_interval(r, row, reference);
    paired_verdict v = fixed != PAIRED_NOT_RESOLVED ? fixed : verdict_of(&iv);
    int equivalent = v == PAIRED_EQUIVALENT;
    paired_interval near = row_interval(r, equivalent ? Q2 : AGAIN, FULL);
    double got = v == PAIRED_COSTS ? iv.lo : v == PAIRED_HELPS ? -iv.hi : MARGIN - fmax(-iv.lo, iv.hi);
    double miss = v == PAIRED_COSTS ? near.lo : v == PAIRED_HELPS ? -near.hi
                                    : MARGIN - fmax(-near.lo, near.hi);
    double bound = equivalent ? 0.0 : MARGIN;
    char text[320];
    if (fixed == PAIRED_NOT_RESOLVED && (v == PAIRED_NOT_RESOLVED || miss >= bound)) {
        report_text(r->o, "%s: %s %+.3f [%+.3f, %+.3f] nats, %s%s: narrated, not claimed.",
                    rows[row].id, what, iv.mean, iv.lo, iv.hi, paired_verdict_name(v),
                    v == PAIRED_NOT_RESOLVED ? "" : ", but its near miss passes the same test");
        return;
    }
    snprintf(text, sizeof text, "%s %s: the 95%% interval of the paired held-out difference "
             "%s (%s, nats)", what, paired_verdict_name(v),
             v == PAIRED_COSTS ? "lies above +m" : v == PAIRED_HELPS ? "lies below -m"
                                                 : "lies inside +-m",
             v == PAIRED_COSTS ? "its lower end" : v == PAIRED_HELPS ? "minus its upper end"
                                                 : "m minus its end farthest from 0");
    check_at_least(rows[row].id, text, got, bound);
    check_control(rows[row].id, equivalent ? "the full model on half of the steps, as if it were "
                  "an ablation" : "the full model at other seeds, as if it were an ablation");
    check_at_least(rows[row].id, NULL, miss, bound);
}

/* -> whether the budget took the full model below the bigram: where the verdicts fixed in
 * advance (A2, A7) are checked whatever the run; below it they are claimed as they resolve */
static int budget_passed(const run *r)
{
    return mean_of(held_of(r, FULL)) < r->counted[0];
}

/* the ablations and the recurrent cells, each against the full model; the cells also
 * against their own control without recurrence */
static void row_claims(const run *r)
{
    static const size_t claimed[] = {NO_POS, NO_MASK, NO_SCALE, NO_MLP, NO_MLP_WIDE, ONE_HEAD,
                                     NO_WO, FREE_A, ADDITIVE, CELL, GATED};
    report_section(r->o, "Claims");
    report_text(r->o, "The margin m = %.2f nats per character was fixed in the source before "
                "any run: an effect smaller than that is not worth a claim at this scale. The "
                "control of a 'costs' or 'helps' verdict is the full model trained at %zu other "
                "seeds, set against the full model as if it were an ablation: it differs from "
                "it only by luck, so the same test must not find an effect. The control of an "
                "'equivalent' verdict is the full model trained on half of the steps: the test "
                "must see that. A verdict whose control passes too is narrated, not claimed.",
                MARGIN, r->s->seeds);
    int passed = budget_passed(r);
    report_text(r->o, "Two claims are fixed before any run for a budget where the full model "
                "ends below the bigram (%s): a model trained seeing the next character leans "
                "on it, so evaluated causally it costs (A2), and shown the future it does "
                "better (A7). Below that budget, and for the other rows, verdicts are claimed "
                "as they resolve.", passed ? "reached here, so both are checked whatever the "
                "run" : "not reached here, so A2 and A7 are claimed only if they resolve");
    if (!r->s->full)
        report_text(r->o, "Which verdicts resolve in the quick run depends on --seed: %zu seeds "
                    "of a small model trained briefly give wide intervals, and a row whose "
                    "interval ends near +-m resolves at one seed and not at the next (each "
                    "claim made is still checked with its control). What each piece is worth "
                    "is read off the --full table, %s.", r->s->seeds, FULL_RESULTS);
    for (size_t k = 0; k < sizeof claimed / sizeof claimed[0]; k++) {
        char what[80];
        snprintf(what, sizeof what, "%s against the full model:", rows[claimed[k]].name);
        verdict_claim(r, claimed[k], FULL, what,
                      claimed[k] == NO_MASK && passed ? PAIRED_COSTS : PAIRED_NOT_RESOLVED);
    }
    for (size_t row = CELL_0; row <= GATED_0; row++) { /* the W = 0 control costs its cell */
        char what[80];
        snprintf(what, sizeof what, "the %s's recurrence: without it (W = 0) the cell",
                 rows[rows[row].rate_of].name);
        verdict_claim(r, row, (size_t)rows[row].rate_of, what, PAIRED_NOT_RESOLVED);
    }
}

/* A7: the no-mask model's gain from seeing the future on training text, against the full
 * model's (trained with the mask, then shown the future) */
static void leak_claim(const run *r)
{
    size_t S = r->s->seeds;
    gsl_vector *gain = scope_vector(r->sc, S), *full = scope_vector(r->sc, S),
               *zero = scope_vector(r->sc, S);
    gsl_vector_set_zero(zero);
    for (size_t i = 0; i < S; i++) {
        gsl_vector_set(gain, i, rec_at(r, NO_MASK, r->best[NO_MASK], i)->leak);
        gsl_vector_set(full, i, rec_at(r, FULL, r->best[FULL], i)->leak);
    }
    paired_interval g = interval_of(gain, zero), f = interval_of(full, zero);
    report_text(r->o, "The leak: on training windows, the model trained without the mask "
                "does %.3f [%.3f, %.3f] nats better when it is shown the next characters than "
                "when it is not; the full model, trained with the mask, %+.3f [%+.3f, %+.3f].",
                g.mean, g.lo, g.hi, f.mean, f.lo, f.hi);
    if (!budget_passed(r) && (g.lo < MARGIN || f.lo >= MARGIN)) {
        report_text(r->o, "A7 is not resolved at this budget: narrated, not claimed.");
        return;
    }
    check_at_least("A7", "the leak: trained without the mask, the model predicts training text "
                   "better when it sees the future (lower end of the 95% interval of the gain, "
                   "nats; at least m)", g.lo, MARGIN);
    check_control("A7", "the full model, trained with the mask, given the future");
    check_at_least("A7", NULL, f.lo, MARGIN);
}

/* long row, seed i -> its mean loss over the first eighth of the window minus the last */
static double gain_along(const double *by_position, size_t T)
{
    double first = 0.0, last = 0.0;
    size_t e = T / 8 ? T / 8 : 1;
    for (size_t t = 0; t < e; t++)
        first += by_position[t] / (double)e, last += by_position[T - 1 - t] / (double)e;
    return first - last;
}

/* long row -> (seeds) its gain along the window at each seed */
static gsl_vector *gains_of(const run *r, size_t row)
{
    gsl_vector *v = scope_vector(r->sc, r->s->seeds);
    for (size_t i = 0; i < r->s->seeds; i++)
        gsl_vector_set(v, i, gain_along(rec_at(r, row, r->best[row], i)->by_position,
                                        r->s->long_context));
    return v;
}

/* A11: the Transformer gains more along the window than the gated cell */
static void position_claim(const run *r)
{
    size_t T = r->s->long_context;
    gsl_vector *tr = gains_of(r, LONG_FULL), *gru = gains_of(r, LONG_GATED),
               *elman = gains_of(r, LONG_CELL), *counts = scope_vector(r->sc, r->s->seeds);
    gsl_vector_set_all(counts, gain_along(r->counted_by_position, T));
    paired_interval iv = interval_of(tr, gru), near = interval_of(counts, gru);
    report_text(r->o, "Loss by position (A11), in windows of %zu characters: from the first "
                "eighth of the window to the last, the Transformer's held-out loss falls by "
                "%.3f nats, the GRU's by %.3f, the Elman cell's by %.3f and the trigram's by %.3f "
                "(its counts read their context across the window's start, so it is flat by "
                "construction). The Transformer's gain minus the GRU's: %+.3f [%+.3f, %+.3f].",
                T, mean_of(tr), mean_of(gru), mean_of(elman), gain_along(r->counted_by_position, T),
                iv.mean, iv.lo, iv.hi);
    if (iv.hi <= -MARGIN) {
        report_text(r->o, "A11 is reversed at this budget: the whole interval lies below -m, so "
                    "here the GRU's loss falls more along the window than the Transformer's, "
                    "and this run does not support the derivation's case that attention uses a "
                    "long past better than a fixed state. A11 claims only the direction fixed in "
                    "advance, so this is narrated, not claimed. The measured case for "
                    "attention's access to every position stays recall at a distance (chapter "
                    "12's L2), a task built to ask for it; on this text, at this size and "
                    "budget, the loss does not show it.");
        return;
    }
    if (iv.lo < MARGIN) {
        report_text(r->o, "A11 is not resolved at this budget: narrated, not claimed.");
        return;
    }
    check_at_least("A11", "along a long window the Transformer's held-out loss falls more than "
                   "the gated cell's (first eighth minus last, paired over seeds; lower end of "
                   "the 95% interval, nats)", iv.lo, MARGIN);
    check_control("A11", "the trigram, whose memory is two characters, in the Transformer's place");
    check_at_least("A11", NULL, near.lo, MARGIN);
}

/* ------------------------------------------------------------------ narration */

static void setup_text(const run *r)
{
    const settings *s = r->s;
    gpt_shape full = shape_of(s, r->text->vocab, &rows[FULL]);
    report_section(r->o, "The experiment");
    report_text(r->o, "This is the %s run%s. The full model is chapter 13's pre-norm GPT "
                "(%zu layer%s, width %zu, %zu heads, context %zu, GPT-2's initial draw), "
                "trained for %zu steps of %zu windows (AdamW, warm-up and cosine as in chapter "
                "13). Each row is trained at its best peak rate, chosen on the validation part "
                "with %d seeds among %g, %g and %g, and one more beyond the edge (%g or %g) "
                "when its best falls at one; then at %zu paired seeds.",
                s->full ? "full" : "quick", s->full ? "" : " (--full trains a 2-layer, "
                "width-96 version of chapter 13's baby GPT far enough to use its context; "
                "results/ch14_full.tsv holds the last committed run)", s->layers,
                s->layers > 1 ? "s" : "", s->dim, s->heads, s->context, s->steps, s->batch,
                SELECT_SEEDS, rate_at(s, 1), rate_at(s, 2), rate_at(s, 3), rate_at(s, 0),
                rate_at(s, 4), s->seeds);
    report_text(r->o, "The corpus is cut into %zu pieces (fortunes): every tenth is held out "
                "(%zu characters) and the fifth of every ten is for validation (%zu); the other "
                "%zu characters train. Held-out loss is scored on %zu windows of %zu characters "
                "spread evenly over the whole held-out part, every genre of the corpus in it.",
                r->text->pieces, corpus_part_len(r->text, CORPUS_HELDOUT),
                corpus_part_len(r->text, CORPUS_VALID), r->text->n_train, r->near.n, s->context);
    report_text(r->o, "The rows: the ablations of ablation.h; 'positions N(0,1)' is the full "
                "model with its positions drawn as large as this library drew them before "
                "GPT-2's draw (A1 rested on it); 'no MLP, wider' has width %zu so that "
                "attention alone holds the full model's numbers; the Elman cell (chapter 1's, "
                "Elman, 1990) and the GRU (Cho et al., 2014) have states of %zu and %zu, the full "
                "model's %zu non-embedding numbers, which is also its compute per token to "
                "within attention's share (recurrent_size.h); 'W = 0' is each cell without its "
                "recurrence; 'long' rows are trained on windows of %zu (A11), %zu of them a "
                "step like the others: learned positions are learned one window at a time, so "
                "fewer windows a step would teach a long model's positions more slowly.",
                shape_of(s, r->text->vocab, &rows[NO_MLP_WIDE]).dim,
                recurrent_match_gpt(RECURRENT_ELMAN, s->dim, &full).params,
                recurrent_match_gpt(RECURRENT_GRU, s->dim, &full).params,
                recurrent_gpt_params(&full), s->long_context, s->batch);
}

/* where each rate choice fell, and the rows at the grid's edge */
static void rates_text(const run *r)
{
    char edge[400] = "";
    for (size_t row = 0; row < ROWS; row++)
        if (rows[row].rate_of < 0 && r->best[row] != 2)
            snprintf(edge + strlen(edge), sizeof edge - strlen(edge), "%s%s (%g)",
                     edge[0] ? ", " : "", rows[row].name, rate_at(r->s, r->best[row]));
    report_text(r->o, "Rates: every row not listed here chose the base rate, %g.%s%s%s",
                rate_at(r->s, 2), edge[0] ? " The others: " : "", edge, edge[0] ? "." : "");
    char outer[400] = "";
    for (size_t row = 0; row < ROWS; row++)
        if (rows[row].rate_of < 0 && (r->best[row] == 0 || r->best[row] == RATES - 1))
            snprintf(outer + strlen(outer), sizeof outer - strlen(outer), "%s%s",
                     outer[0] ? ", " : "", rows[row].name);
    if (outer[0])
        report_text(r->o, "At the outer edge of the widened grid (%g or %g), so perhaps still "
                    "short of their best: %s.", rate_at(r->s, 0), rate_at(r->s, RATES - 1),
                    outer);
}

static void budget_text(const run *r)
{
    double full = mean_of(held_of(r, FULL));
    int deep = full < r->counted[1] - 0.15;
    report_text(r->o, "How far the budget goes: the full model ends at %.3f nats, against "
                "%.3f for the bigram and %.3f for the trigram on the same windows: %.3f nats %s "
                "the trigram. %s%s%s", full, r->counted[0], r->counted[1],
                fabs(full - r->counted[1]), full < r->counted[1] ? "below" : "above",
                deep ? "The model uses more than the last two characters, so its internals can "
                       "show what each piece is worth." : "At this budget the model has ",
                deep ? "" : full < r->counted[1] ? "not gone far past" : "not reached",
                deep ? "" : " what counting the last two characters gives: the rows measure "
                            "how fast a model starts to learn, and little of what attention is "
                            "for; --full trains far enough.");
}

/* A1 and the initial draw; A10 and what the Transformer buys besides loss */
static void discussion(const run *r)
{
    paired_interval pos = row_interval(r, NO_POS, FULL), unit = row_interval(r, UNIT_POS, FULL);
    paired_interval elman = row_interval(r, CELL, FULL), gru = row_interval(r, GATED, FULL);
    report_text(r->o, "Positions and the initial draw: without positions the model ends %+.3f "
                "[%+.3f, %+.3f] nats from the full model; with its positions drawn N(0, 1), as "
                "large as the token embedding was drawn before this chapter moved to GPT-2's "
                "draw, the full model itself ends %+.3f [%+.3f, %+.3f] from the full model. A "
                "causal model without positions is not blind to order: the mask lets it infer "
                "where it is from how many positions it sees (Haviv et al., 2022). Whatever A1 "
                "says below is said for GPT-2's draw; the earlier finding that 'no positions is "
                "better' came from positions drawn as noise as large as the signal.",
                pos.mean, pos.lo, pos.hi, unit.mean, unit.lo, unit.hi);
    report_text(r->o, "The recurrent cells (A10), each at its own best rate: the Elman cell "
                "ends %+.3f [%+.3f, %+.3f] and the GRU %+.3f [%+.3f, %+.3f] nats from the full "
                "model. A gated cell can match a Transformer on loss at this scale and context; "
                "what the Transformer buys instead is work that runs over every position at "
                "once: here a step of the full model took %.1f ms and a step of the GRU %.1f ms "
                "on one core, but the GRU's %zu steps in time must run one after the other at "
                "any width, where the Transformer's positions are one product (chapter 11); and "
                "recall at a distance, which a fixed state loses (chapter 1, chapter 12's L2) "
                "and the loss by position below measures on real text.",
                elman.mean, elman.lo, elman.hi, gru.mean, gru.lo, gru.hi, ms_per_step(r, FULL),
                ms_per_step(r, GATED), r->s->context);
}

/* ------------------------------------------------------------------ figures */


/* the figures, each kept beside the results at --full as NAME.tsv */
static const char *const figures[] = {"ch14_ablations", "ch14_curves", "ch14_positions"};
#define FIGURES (sizeof figures / sizeof figures[0])

/* figure name, with --results -> its data kept beside the results (results/NAME.tsv), so
 * that the deck draws the trained model's figure (plot.h) */
static void keep_figure(const run *r, plot *p, const char *name)
{
    char file[PLOT_NAME_MAX + 8], path[PATH_MAX];
    snprintf(file, sizeof file, "%s.tsv", name);
    if (r->s->results && results_sibling(r->s->results, file, path, sizeof path) == 0)
        plot_keep(p, path, "chapter 14 --full: the data of its figure", r->command,
                  workers_count());
}

/* the paired differences with their intervals, and the margin */
static void plot_intervals(const run *r)
{
    static const size_t shown[] = {NO_POS, UNIT_POS, NO_MASK, NO_SCALE, NO_MLP, NO_MLP_WIDE,
                                   ONE_HEAD, NO_WO, FREE_A, ADDITIVE, CELL, GATED, AGAIN, Q3,
                                   Q2, Q1};
    size_t n = sizeof shown / sizeof shown[0];
    plot *p = plot_begin(r->o, "ch14_ablations");
    keep_figure(r, p, "ch14_ablations");
    double top = 0.0;
    char var[24];
    plot_block(p, "row, mean paired difference to the full model, 95% interval low, high");
    for (size_t k = 0; k < n; k++) {
        paired_interval iv = row_interval(r, shown[k], FULL);
        PLOT_ROW(p, (double)k, iv.mean, iv.lo, iv.hi);
        top = shown[k] != NO_MASK && iv.hi > top ? iv.hi : top;
        snprintf(var, sizeof var, "label%zu", k);
        plot_set_text(p, var, rows[shown[k]].name);
    }
    plot_set(p, "rows", (double)n);
    plot_set(p, "highest", top + 0.05);
    plot_set(p, "margin", MARGIN);
    plot_set(p, "steps", (double)r->s->steps);
    plot_set(p, "seeds", (double)r->s->seeds);
    plot_render(p, "ch14_ablations.gp");
}

/* each row's learning curve: mean, lowest and highest over the seeds */
static void plot_curves(const run *r)
{
    static const size_t shown[] = {NO_POS, NO_MASK, NO_SCALE, NO_MLP, ONE_HEAD, NO_WO, FREE_A,
                                   ADDITIVE, CELL, GATED};
    size_t n = sizeof shown / sizeof shown[0], S = r->s->seeds;
    plot *p = plot_begin(r->o, "ch14_curves");
    keep_figure(r, p, "ch14_curves");
    char var[24];
    for (size_t k = 0; k <= n; k++) {
        size_t row = k < n ? shown[k] : FULL;
        plot_block(p, "step, mean held-out loss over seeds, lowest, highest");
        for (size_t j = 0; j < POINTS; j++) {
            double v[MAX_SEEDS];
            for (size_t i = 0; i < S; i++)
                v[i] = rec_at(r, row, r->best[row], i)->curve[j];
            double lo, hi;
            gsl_stats_minmax(&lo, &hi, v, 1, S);
            PLOT_ROW(p, (double)((j + 1) * r->s->steps / POINTS), gsl_stats_mean(v, 1, S), lo, hi);
        }
        snprintf(var, sizeof var, "label%zu", k);
        plot_set_text(p, var, rows[row].name);
    }
    plot_set(p, "panels", (double)n);
    plot_set(p, "trigram", r->counted[1]);
    plot_set(p, "steps", (double)r->s->steps);
    plot_render(p, "ch14_curves.gp");
}

/* by_position: (T) -> one block of its means over bins of positions a quarter of an octave
 * wide (1, 2, 3, 4, 5, 6-7, 8-9, ...), each at its middle position (from 1) */
static void plot_binned(plot *p, const double *by_position, size_t T)
{
    plot_block(p, "middle position of the bin (from 1), mean held-out loss over the bin");
    for (size_t lo = 0, j = 0; lo < T; j++) {
        size_t hi = (size_t)ceil(pow(2.0, (double)j / 4.0));
        hi = hi > T ? T : hi;
        if (hi <= lo)
            continue;
        double sum = 0.0;
        for (size_t t = lo; t < hi; t++)
            sum += by_position[t];
        PLOT_ROW(p, (double)(lo + hi + 1) / 2.0, sum / (double)(hi - lo));
        lo = hi;
    }
}

/* A11: loss by position in the long windows, mean over seeds, in bins */
static void plot_positions(const run *r)
{
    static const size_t shown[] = {LONG_FULL, LONG_GATED, LONG_CELL};
    size_t T = r->s->long_context, S = r->s->seeds;
    plot *p = plot_begin(r->o, "ch14_positions");
    keep_figure(r, p, "ch14_positions");
    double *mean = scope_vector(r->sc, T)->data;
    for (size_t k = 0; k < 3; k++) {
        for (size_t t = 0; t < T; t++) {
            mean[t] = 0.0;
            for (size_t i = 0; i < S; i++)
                mean[t] += rec_at(r, shown[k], r->best[shown[k]], i)->by_position[t] / (double)S;
        }
        plot_binned(p, mean, T);
    }
    plot_binned(p, r->counted_by_position, T);
    plot_set(p, "context", (double)T);
    plot_set(p, "windows", (double)r->far.n);
    plot_render(p, "ch14_positions.gp");
}

/* the quick run's verdicts set against the stored --full table's, where they differ */
static void against_full_text(const run *r)
{
    char stored[PATH_MAX]; /* the committed table, wherever the chapter runs from */
    FILE *f = r->s->full ? NULL : fopen(results_stored("ch14_full.tsv", stored, sizeof stored), "r");
    if (!f)
        return;
    char line[512], differ[1200] = "";
    while (fgets(line, sizeof line, f)) {
        char name[64], verdict[32];
        double diff;
        if (line[0] == '#' || sscanf(line, "%63[^\t]\t%*[^\t]\t%*[^\t]\t%*[^\t]\t%*[^\t]\t"
                                     "%*[^\t]\t%lf\t%*[^\t]\t%*[^\t]\t%31[^\t]", name, &diff,
                                     verdict) != 3)
            continue;
        for (size_t row = 1; row < ROWS; row++) {
            size_t ref = rows[row].no_recurrence ? (size_t)rows[row].rate_of : FULL;
            if (strcmp(name, rows[row].name) != 0 || rows[row].long_context)
                continue;
            const char *here = verdict_text(r, row, ref);
            if (strcmp(here, verdict) != 0 && strcmp(verdict, "-") != 0)
                snprintf(differ + strlen(differ), sizeof differ - strlen(differ),
                         "%s%s (here %s; --full: %s, %+.3f nats)", differ[0] ? "; " : "", name, here,
                         verdict, diff);
        }
    }
    fclose(f);
    report_text(r->o, "These verdicts are this budget's, a model of this size trained this "
                "briefly. The --full run stored in %s, trained far enough to use its context, "
                "reached %s%s.", FULL_RESULTS, differ[0] ? "other verdicts on: " : "the same "
                "verdicts on every row", differ);
}

/* ------------------------------------------------------------------ results file */

/* the run's table -> path, with the command, date, machine and wall time */
static void write_results(const run *r, const char *command)
{
    const char *path = r->s->results;
    paths_file pf;
    if (paths_file_open(&pf, path) != 0) {
        report_warn(r->o, "cannot write %s: the results are in the output above", path);
        return;
    }
    FILE *f = pf.f;
    results_stamp(f, "chapter 14 --full results", command, workers_count());
    fprintf(f, "; wall time: %.0f s for %zu runs, %zu more read back from %s; training summed "
            "over all %zu runs: %.0f s of one core\n", r->seconds, r->runs - r->logged,
            r->logged, r->s->runs ? r->s->runs : "no log", r->runs, r->trained);
    fprintf(f, "# margin %.3f nats, %.0f%% intervals, %zu paired seeds, %zu steps\n", MARGIN,
            100 * LEVEL, r->s->seeds, r->s->steps);
    fprintf(f, "row\tclaim\tnumbers\trate\theld_out\tsd\tminus_full\tlo\thi\tverdict\tsteps_share"
               "\tms_per_step\n");
    for (size_t row = 0; row < ROWS; row++) {
        size_t ref = rows[row].no_recurrence ? (size_t)rows[row].rate_of : FULL;
        paired_interval iv = row_interval(r, row, ref);
        gsl_vector *h = held_of(r, row);
        char share[16];
        share_text(r, row, share, sizeof share);
        char diff[64] = "-\t-\t-";
        if (!rows[row].long_context) /* scored on other windows: set against nothing */
            snprintf(diff, sizeof diff, "%+.4f\t%+.4f\t%+.4f", iv.mean, iv.lo, iv.hi);
        fprintf(f, "%s\t%s\t%zu\t%g\t%.4f\t%.4f\t%s\t%s\t%s\t%.1f\n",
                rows[row].name, rows[row].id[0] ? rows[row].id : "-",
                rec_at(r, row, r->best[row], 0)->params, rate_at(r->s, r->best[row]),
                mean_of(h), gsl_stats_sd(h->data, h->stride, h->size), diff,
                row == FULL || rows[row].long_context ? "-" : verdict_text(r, row, ref),
                rows[row].long_context ? "-" : share, ms_per_step(r, row));
    }
    fprintf(f, "bigram\t-\t-\t-\t%.4f\n", r->counted[0]);
    fprintf(f, "trigram\t-\t-\t-\t%.4f\n", r->counted[1]);
    fprintf(f, "trigram, long\t-\t-\t-\t%.4f\n", trigram_long(r));
    if (paths_file_commit(&pf, 1) != 0)
        report_warn(r->o, "cannot write %s: the results are in the output above", path);
    else
        report_text(r->o, "The table is in %s.", path);
}

/* ------------------------------------------------------------------ the run */

static void fill_defaults(void *arg)
{
    settings *s = arg;
    const int f = s->full;
    size_t *v[] = {&s->layers, &s->heads,  &s->dim,   &s->context,
                   &s->batch,  &s->steps,  &s->seeds, &s->long_context};
    const size_t quick[] = {1, 2, 16, 16, 8, 120, 5, 64};
    const size_t full[] = {2, 4, 96, 64, 12, 2000, 5, 256};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (*v[k] == 0)
            *v[k] = f ? full[k] : quick[k];
    if (s->rate == 0.0)
        s->rate = f ? 3e-3 : 1e-2;
    if (!s->results && f)
        s->results = FULL_RESULTS;
    if (!s->runs && f)
        s->runs = FULL_RUNS;
    s->windows = (f ? 20 : 8) * 4 * s->batch;
}

/* s->runs -> s->log, or one line saying why it cannot be read or written */
static int open_log(const invent_opts *o, settings *s)
{
    struct stat st;
    if (paths_check_file(s->runs) != 0)
        return cli_fail(o, "--runs %s: cannot be written (%s)", s->runs, strerror(errno));
    if (stat(s->runs, &st) == 0 && !S_ISREG(st.st_mode))
        return cli_fail(o, "--runs %s: not a regular file", s->runs);
    size_t bad;
    int status = run_log_open(s->runs, &s->log, &bad);
    if (status == INVENT_EFORMAT)
        return cli_fail(o, "--runs %s: line %zu is not a run (a key, then numbers, tab-separated); "
                           "move the file aside to start afresh", s->runs, bad);
    if (status != INVENT_OK)
        return cli_fail(o, "--runs %s: %s (%s)", s->runs, invent_strerror(status),
                        strerror(errno));
    FILE *f = fopen(s->runs, "a");
    if (!f) {
        run_log_free(s->log);
        s->log = NULL;
        return cli_fail(o, "--runs %s: cannot be written (%s)", s->runs, strerror(errno));
    }
    fclose(f);
    return CLI_RUN;
}

/* The least text the claims are checked on (1 MiB) */
#define MIN_CORPUS ((size_t)1 << 20)

static int check_settings(const invent_opts *o, void *arg, corpus **text)
{
    settings *s = arg;
    if (s->dim % s->heads != 0 || s->heads < 2)
        return cli_fail(o, "--heads %zu: at least 2 (one head is an ablation), dividing --dim %zu",
                        s->heads, s->dim);
    if (s->seeds < 3 || s->seeds > MAX_SEEDS)
        return cli_fail(o, "--seeds %zu: from 3 (an interval from fewer pairs is too wide to "
                           "resolve anything) to %d", s->seeds, MAX_SEEDS);
    if (s->steps < 40)
        return cli_fail(o, "--steps %zu: at least 40 (a quarter of them warms up and decays)",
                        s->steps);
    if (s->context < 16)
        return cli_fail(o, "--context %zu: at least 16", s->context);
    if (s->long_context < s->context)
        return cli_fail(o, "--long-context %zu: at least --context (%zu)", s->long_context,
                        s->context);
    const char *why = s->results ? results_check(s->results) : NULL;
    if (why)
        return cli_fail(o, "--results %s: %s", s->results, why);
    for (size_t k = 0; s->results && k < FIGURES; k++) { /* keep_figure's files */
        char file[PLOT_NAME_MAX + 8];
        snprintf(file, sizeof file, "%s.tsv", figures[k]);
        if ((why = results_check_beside(s->results, file)) != NULL)
            return cli_fail(o, "--results %s: %s beside it: %s", s->results, file, why);
    }
    int rc = corpus_option_load(o, s->corpus, s->long_context, text);
    if (rc != CLI_RUN)
        return rc;
    if ((*text)->n < MIN_CORPUS)
        return cli_fail(o, "--corpus %s: %zu characters, too few: the claims compare models on "
                           "held-out text and need at least %zu characters", s->corpus,
                        (*text)->n, (size_t)MIN_CORPUS);
    gpt_shape shape = shape_of(s, (*text)->vocab, &rows[NO_MLP_WIDE]),
              long_shape = shape_of(s, (*text)->vocab, &rows[LONG_FULL]);
    rc = train_memory_refuse(o, &shape, s->batch, s->context, 10, 3, "the chapter");
    if (rc == CLI_RUN)
        rc = train_memory_refuse(o, &long_shape, s->batch, s->long_context, 10, 3,
                                 "the long rows (A11)");
    return rc == CLI_RUN && s->runs ? open_log(o, s) : rc;
}

int main(int argc, char **argv)
{
    settings s = {.corpus = CORPUS_FORTUNES_DIR};
    const cli_text_option texts[] = {
        {"corpus", &s.corpus, "a text file (or folder) to learn"},
        {"results", &s.results, "write the table here (default with --full: "
                                "results/ch14_full.tsv)"},
        {"runs", &s.runs, "log every finished run here and read back the runs it holds, so "
                          "that a stopped or extended experiment runs only what it lacks "
                          "(default with --full: results/ch14_runs.tsv)"}};
    const cli_option options[] = {
        {"full", CLI_FLAG, &s.full, 0, 1, "chapter 13's baby GPT at 2 layers of width 96 "
                                          "(context 64), 2,000 steps, 5 seeds (176 runs, "
                                          "about 70 minutes of a quiet 2-core machine; "
                                          "stopped, it resumes from its run log)"},
        {"layers", CLI_SIZE, &s.layers, 0, 8, "blocks L (0: 1; 2)"},
        {"heads", CLI_SIZE, &s.heads, 0, 16, "heads H, at least 2, dividing the width (0: 2; 4)"},
        {"dim", CLI_SIZE, &s.dim, 0, 256, "width d (0: 16; 96)"},
        {"context", CLI_SIZE, &s.context, 0, 256, "characters per window (0: 16; 64)"},
        {"long-context", CLI_SIZE, &s.long_context, 0, 1024, "A11's windows (0: 64; 256)"},
        {"batch", CLI_SIZE, &s.batch, 0, 64, "windows per step (0: 8; 12)"},
        {"steps", CLI_SIZE, &s.steps, 0, 100000, "training steps per run (0: 120; 2000)"},
        {"seeds", CLI_SIZE, &s.seeds, 0, MAX_SEEDS, "paired seeds per model, 3 to 12 (0: 5)"},
        {"rate", CLI_DOUBLE, &s.rate, 0, 0.05, "the base peak rate: half, once and twice it "
                                                "are tried, then a quarter or four times it "
                                                "where the best is at an edge (0: 1e-2; 3e-3)"},
    };
    const cli_spec spec = {"ch14", "Chapter 14: each choice of the derivation removed from the "
                           "trained model of chapter 13, one at a time, with paired seeds, each "
                           "model at its best rate, and verdicts against a margin fixed in "
                           "advance. Text options: --corpus FILE (default " CORPUS_FORTUNES_DIR
                           "), --results FILE, --runs FILE.",
                           options, (int)(sizeof options / sizeof options[0])};
    const text_chapter c = {texts, 3, &spec,
                            "Chapter 14: the derivation's choices, removed one at a time", &s,
                            fill_defaults, check_settings};
    char command[1024]; /* as typed: the parser takes the text options out of argv */
    results_command(argc, argv, command, sizeof command);
    invent_opts o;
    corpus *text;
    int rc = text_chapter_open(&c, argc, argv, &o, &text);
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    SCOPE_KEEP(sc, text, corpus_free);
    run r = {.o = &o, .s = &s, .sc = sc, .text = text, .command = command};
    setup(&r);
    setup_text(&r);
    double t0 = stopwatch_now();
    choose_rates(&r);
    train_rest(&r);
    r.seconds = stopwatch_now() - t0;
    report_text(&o, "%zu runs took %.0f s; their training, summed over every run (one core "
                "each), took %.0f s, about %.0f minutes of both cores.", r.runs, r.seconds,
                r.trained, r.trained / 120.0);
    if (s.log)
        report_text(&o, "Of them %zu were read back from %s (logged by an earlier invocation "
                    "with the same settings) and %zu trained now.", r.logged, s.runs,
                    r.runs - r.logged);
    rates_text(&r);
    table(&r);
    budget_text(&r);
    discussion(&r);
    row_claims(&r);
    leak_claim(&r);
    position_claim(&r);
    against_full_text(&r);
    plot_intervals(&r);
    plot_curves(&r);
    plot_positions(&r);
    if (s.results)
        write_results(&r, command);
    pthread_mutex_destroy(&r.lock);
    run_log_free(s.log);
    scope_close(sc);
    return chapter_end();
}
