/* Chapter 13: the assembled Transformer, trained on real text.
 *
 * Chapter 10 built one block with random weights; chapter 12 trained single
 * pieces on made-up tasks. Here the argument closes the way nanoGPT and
 * llm.c close it: the block of chapter 10, stacked L times between a token
 * and position embedding and a read-out over the alphabet, is trained in C
 * with the library's own backward passes on real English text (the fortune
 * cookies of Debian's `fortunes` package, or any file given with --corpus),
 * one character at a time, and then writes text of its own.
 *   G1  the first 20 training steps are the ones the formulas prescribe: the
 *       gradient against finite differences, every update against AdamW,
 *       clipping and the schedule written out here (and, with --dump, against
 *       PyTorch: `make check-training`);
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

#include "adamw.h"
#include "checkpoint.h"
#include "cli_text.h"
#include "corpus.h"
#include "gpt.h"
#include "gpt_gradcheck.h"
#include "invent.h"
#include "ngram.h"
#include "sample.h"
#include "schedule.h"

#define G1_STEPS 20  /* steps checked one by one (and written for PyTorch) */
#define FD_SAMPLES 4 /* entries per tensor nudged for the finite differences */

typedef struct {
    int full, post_norm;
    size_t layers, heads, dim, context, batch, steps, warmup, points, windows, sample, top_k;
    double rate, temperature;
    const char *corpus, *save, *load, *prompt;
} settings;

/* Everything one training run holds. */
typedef struct {
    const invent_opts *o;
    const settings *s;
    scope *sc;
    corpus *text;
    gpt_weights *w, *g;     /* weights and their gradients */
    tensor_ref *t;          /* the list of both, nt entries */
    size_t nt;
    adamw opt;
    lr_schedule sch;
    gsl_rng *rng;           /* draws the training batches */
    size_t *x, *y, *starts; /* one batch: (B*T) inputs and targets, (B) window starts */
    size_t *valid, *train;  /* fixed evaluation windows, (windows) each */
    gsl_matrix *curve;      /* (points, 3): step, train loss, validation loss */
    double baseline[NGRAM_MAX_ORDER]; /* unigram, bigram, trigram on the validation windows */
} run;

/* ----------------------------------------------------------------- the data */

/* the windows x, y -> the mean loss over n windows, B at a time */
static double mean_loss(run *r, const size_t *windows, size_t n)
{
    size_t B = r->s->batch, T = r->s->context;
    gpt_trace *tr = SCOPE_KEEP(r->sc, gpt_trace_new(r->w, B, T), gpt_trace_free);
    double sum = 0.0;
    for (size_t i = 0; i + B <= n; i += B) {
        double loss;
        corpus_window(r->text, windows + i, B, T, r->x, r->y);
        chapter_must(gpt_forward(r->w, r->x, r->y, tr, &loss), "evaluating the model");
        sum += loss;
    }
    return sum / (double)(n / B);
}

/* best add-k smoothing of order n on the validation windows (the baseline's best chance) */
static double best_ngram(const run *r, size_t order, double *k_best)
{
    ngram *m;
    if (ngram_bytes(order, r->text->vocab) > ((size_t)1 << 28) ||
        ngram_count(r->text, order, &m) != INVENT_OK)
        return NAN; /* not cheap for this alphabet: left out */
    const double ks[] = {1.0, 0.3, 0.1, 0.03, 0.01};
    double best = INFINITY;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double loss = ngram_loss(m, r->text, r->valid, r->s->windows, r->s->context, ks[i]);
        if (loss < best)
            best = loss, *k_best = ks[i];
    }
    ngram_free(m);
    return best;
}

static void corpus_section(run *r)
{
    const corpus *c = r->text;
    report_section(r->o, "The text, and what counting alone achieves");
    report_text(r->o, "The corpus is %s: %zu characters from %zu file%s, %zu distinct bytes. "
                      "Each byte is one token. The first 90%% (%zu characters) trains the "
                      "model, the last 10%% is held out. Before any network, the counts of "
                      "the training text already predict the next character: the unigram "
                      "from its frequency alone, the bigram from the character before it, "
                      "the trigram from two. Their held-out loss in nats (add-k smoothing, k "
                      "chosen on the held-out windows themselves, which favours the "
                      "baselines) is the bar the trained model must clear:",
                r->s->corpus, c->n, c->files, c->files == 1 ? "" : "s", c->vocab, c->n_train);
    const char *names[NGRAM_MAX_ORDER] = {"unigram", "bigram", "trigram"};
    for (size_t n = 1; n <= NGRAM_MAX_ORDER; n++) {
        double k = 0.0;
        r->baseline[n - 1] = best_ngram(r, n, &k);
        if (isnan(r->baseline[n - 1]))
            report_line(r->o, "  %-8s  left out: %zu^%zu counts are not cheap", names[n - 1],
                        c->vocab, n);
        else
            report_line(r->o, "  %-8s  %.4f nats  (k = %g)", names[n - 1], r->baseline[n - 1],
                        k);
    }
    report_line(r->o, "  (uniform over the alphabet: %.4f nats)", log((double)c->vocab));
}
