/* Chapter 12: learning.
 *
 * The derivation so far argued with random weights and counting. Here the
 * arguments meet gradient descent: the backward pass of every piece is
 * written by hand and checked against finite differences (claim L1), and
 * small models are trained, over several seeds, to see which arguments
 * survive learning:
 *   L2  a fixed-size recurrent state against attention on associative recall;
 *   L3  one product unit against one bias-free tanh unit on a task that needs
 *       an interaction between two inputs (sign agreement);
 *   I5  the additive tanh score with a bias and a few units, on the same task;
 *   L4  one free matrix A against the factored W_q^T W_k, each trained until
 *       its validation loss stops improving, at the rate that validation
 *       chose, compared on a test set, paired by seed and teacher;
 *   L5  how the final loss of each form depends on the learning rate.
 * Every claim is shown beside a control that must fail: a wrong backward
 * pass, a product without the interaction, a unit with a bias, the other form.
 * The default run is the quick version that `make verify` runs; --full
 * repeats it with more seeds, lengths, rates and steps (a few minutes).
 * Everything runs in double precision with GSL, sequentially: the models
 * are tiny, and the same --seed gives the same numbers.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics.h>

#include "invent.h"

#define MAX_SEEDS 10
#define MAX_LENGTHS 8
#define MAX_RATES 4
#define MAX_STATE 40 /* largest recurrent state m of L2 (2 * 16 keys, and then some) */
#define FORMS 5      /* L4: free A, W_q^T W_k at ranks r* - 1, r*, d, free A from a random start */
#define SCORES 7     /* L3 and I5: the score functions trained */
#define GRID 61      /* L3: the decision regions are drawn on GRID x GRID points */

typedef struct {
    int full;       /* --full: more seeds, lengths, rates and steps */
    size_t seeds;   /* training runs per setting */
    size_t keys;    /* L2: distinct keys (and values) */
    size_t state;   /* L2: the recurrent state m */
    size_t hidden;  /* I5: hidden units h of the additive score with a bias */
    size_t dim;     /* L4: token size d */
    size_t teacher; /* L4: rank r* of the teacher's score matrix */
} sizes;

/* The derived settings of one run of the chapter (quick or full). */
typedef struct {
    size_t lengths[MAX_LENGTHS], n_lengths; /* L2: key-value pairs per sequence */
    double rates[MAX_RATES];                /* L4, L5: Adam's learning rates, rising */
    size_t n_rates;
    size_t ranks[FORMS]; /* L4: 0 (the free A), r* - 1, r*, d, 0 (random start) */
    train_plan recall, recall_attention, score, bilinear; /* recall: the recurrent reader's */
    size_t train_examples, test_examples;
    size_t recall_examples; /* L2's training sequences */
} schedule;

/* seed of run j of experiment e: every (setting, seed) pair gets its own
 * stream, shared by the models it compares, so they see the same data */
static unsigned long run_seed(const invent_opts *o, unsigned e, size_t setting, size_t j)
{
    return o->seed * 1000003UL + e * 10007UL + setting * 101UL + j;
}

static double mean_of(const double *v, size_t n)
{
    return gsl_stats_mean(v, 1, n);
}

static double sd_of(const double *v, size_t n)
{
    return n > 1 ? gsl_stats_sd(v, 1, n) : 0.0;
}

/* a model that make() built into *m -> *m, freed when sc closes */
static void keep_model(scope *sc, int status, train_model *m, const char *what)
{
    chapter_must(status, what);
    scope_keep_object(sc, m->self, m->release);
}

/* trains m -> its curve (points, 3): (step, held-out loss, held-out accuracy) */
static gsl_matrix *train(scope *sc, const invent_opts *o, const char *label, train_model *m,
                         const task_data *tr, const task_data *te, const train_plan *plan,
                         gsl_rng *r)
{
    gsl_matrix *curve = scope_matrix(sc, plan->points, 3);
    chapter_must(train_run(o, label, m, tr, te, plan, r, curve), label);
    return curve;
}

/* the held-out accuracy at the end of a curve */
static double final_accuracy(const gsl_matrix *curve)
{
    return gsl_matrix_get(curve, curve->size1 - 1, 2);
}

/* ------------------------------------------------------------------ L1 */

static void gradient_section(const invent_opts *o)
{
    report_section(o, "L1: backward passes, checked against finite differences");
    report_text(o, "Every backward pass in the library is written by hand, beside its forward "
                   "pass, and checked the same way: a random probe R turns the output Y into "
                   "the scalar sum(R * Y), each input and parameter entry is nudged by +-1e-5, "
                   "and the central difference is compared with the gradient the backward pass "
                   "returned (relative error in the Frobenius norm). Beside each, the same "
                   "check runs on a near miss: the backward pass with the mistake a first "
                   "attempt at it makes (a dropped term, a forgotten factor).");
    report_line(o, "  %-28s %-30s %-15s %s", "backward pass", "gradients checked",
                "relative error", "near miss, its error");
    size_t n;
    const gradcheck_case *cases = gradcheck_cases(&n);
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(o->seed));
    double err[16], wrong[16], worst = 0.0;
    n = n < 16 ? n : 16;
    for (size_t k = 0; k < n; k++) {
        err[k] = cases[k].run(r, 0);
        wrong[k] = cases[k].run(r, 1);
        worst = isnan(err[k]) || isnan(worst) ? NAN : fmax(worst, err[k]);
        report_line(o, "  %-28s %-30s %.2e        %.2f", cases[k].name, cases[k].gradients,
                    err[k], wrong[k]);
    }
    scope_close(sc);
    report_line(o, "%s", "");
    char claim[160], what[160];
    for (size_t k = 0; k < n; k++) {
        snprintf(claim, sizeof claim, "backward pass of %s", cases[k].name);
        check_at_most("L1", claim, err[k], 1e-6);
        snprintf(what, sizeof what, "%s: %s", cases[k].name, cases[k].near_miss);
        check_control("L1", what);
        check_at_most("L1", NULL, wrong[k], 1e-6);
    }
    report_text(o, "The worst disagreement, %.1e, is what rounding and the O(h^2) error of a "
                   "central difference leave at a step of 1e-5: the gradients are right, not "
                   "merely close. Every near miss is off by a number of order one, so a "
                   "backward pass with any of these mistakes could not pass.", worst);
}

/* ------------------------------------------------------------------ L2 */

/* L2 compares readers of about the same size: counts within 25% of each other */
static int similar_counts(size_t a, size_t b)
{
    double ratio = (double)a / (double)b;
    return ratio > 0.8 && ratio < 1.25;
}

/* -> the parameter counts of the recurrent reader with state m and of the attention reader */
static void recall_param_counts(const sizes *s, size_t m, size_t *rnn_n, size_t *att_n)
{
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(0)); /* the weights are thrown away */
    train_model rnn, att;
    keep_model(sc, learn_recall_rnn(2 * s->keys, m, s->keys, r, &rnn), &rnn, "counting L2");
    keep_model(sc, learn_recall_attention(2 * s->keys, 1, s->keys, s->keys, r, &att), &att,
               "counting L2");
    *rnn_n = params_count(rnn.params);
    *att_n = params_count(att.params);
    scope_close(sc);
}

typedef struct {
    double rnn[MAX_LENGTHS][MAX_SEEDS], attention[MAX_LENGTHS][MAX_SEEDS];
    double blind[MAX_LENGTHS][MAX_SEEDS]; /* control: the trained attention, W_q zeroed */
    double query_only[MAX_SEEDS];         /* control: the shortest's reader, the query alone */
    size_t rnn_capped, runs;              /* recurrent runs stopped by the step cap, of all */
    size_t rnn_params, attention_params;
} recall_results;

/* the held-out accuracy of m on data */
static double accuracy_on(const train_model *m, const task_data *data)
{
    double loss, accuracy;
    chapter_must(train_evaluate(m, data, &loss, &accuracy), "evaluating a reader");
    return accuracy;
}

/* trains m -> its held-out accuracy; *capped += 1 when the step cap stopped it */
static double train_reader(scope *sc, const invent_opts *o, const char *label, train_model *m,
                           const task_data *tr, const task_data *te, const train_plan *plan,
                           gsl_rng *r, size_t *capped)
{
    gsl_matrix *curve = train(sc, o, label, m, tr, te, plan, r);
    *capped += gsl_matrix_get(curve, plan->points - 1, 0) == (double)plan->steps;
    return final_accuracy(curve);
}

/* one (length, seed): both readers on the same sequences, then the near misses: the
 * trained attention reader with W_q zeroed, and the recurrent reader given the query alone */
static void recall_run(const invent_opts *o, const sizes *s, const schedule *sc, size_t li,
                       size_t j, recall_results *res)
{
    size_t pairs = sc->lengths[li], p = 2 * s->keys, unused = 0;
    scope *run = scope_open();
    gsl_rng *r = scope_keep_rng(run, rng_new(run_seed(o, 2, li, j)));
    task_data *tr = SCOPE_KEEP(run, task_recall(sc->recall_examples, pairs, s->keys, s->keys, r),
                               task_data_free);
    task_data *te = SCOPE_KEEP(run, task_recall(sc->test_examples, pairs, s->keys, s->keys, r),
                               task_data_free);
    train_model rnn, att;
    keep_model(run, learn_recall_rnn(p, s->state, s->keys, r, &rnn), &rnn, "making L2's reader");
    keep_model(run, learn_recall_attention(p, 1, s->keys, s->keys, r, &att), &att,
               "making L2's attention reader");
    char label[96];
    snprintf(label, sizeof label, "L2 recurrent, %zu pairs, run %zu", pairs, j + 1);
    res->rnn[li][j] = train_reader(run, o, label, &rnn, tr, te, &sc->recall, r, &res->rnn_capped);
    snprintf(label, sizeof label, "L2 attention, %zu pairs, run %zu", pairs, j + 1);
    res->attention[li][j] = train_reader(run, o, label, &att, tr, te, &sc->recall_attention, r,
                                         &unused);
    res->runs++;
    res->rnn_params = params_count(rnn.params);
    res->attention_params = params_count(att.params);
    learn_recall_attention_blind(&att);
    res->blind[li][j] = accuracy_on(&att, te);
    if (li == 0) {
        task_data *last = SCOPE_KEEP(run, task_last_token(te), task_data_free);
        res->query_only[j] = accuracy_on(&rnn, last);
    }
    scope_close(run);
}

static void recall_table(const invent_opts *o, const sizes *s, const schedule *sc,
                         const recall_results *res)
{
    report_line(o, "  pairs   sequence   recurrent accuracy   attention accuracy   W_q zeroed"
                   "   guessing among the values seen");
    double gap = 0.0;
    for (size_t li = 0; li < sc->n_lengths; li++) {
        double rnn = mean_of(res->rnn[li], s->seeds);
        double guess = task_recall_guess_accuracy(sc->lengths[li], s->keys);
        gap = fmax(gap, fabs(rnn - guess));
        report_line(o, "  %5zu   %8zu      %.3f +- %.3f       %.3f +- %.3f       %.3f        %.3f",
                    sc->lengths[li], sc->lengths[li] + 1, rnn, sd_of(res->rnn[li], s->seeds),
                    mean_of(res->attention[li], s->seeds), sd_of(res->attention[li], s->seeds),
                    mean_of(res->blind[li], s->seeds), guess);
    }
    report_line(o, "  (mean +- sd over %zu runs, held-out accuracy)", s->seeds);
    report_line(o, "%s", "");
    report_text(o, "The last column is what a reader scores if it remembers which values "
                   "appeared but not which key each came with, and picks one of them at random. "
                   "%s (largest gap %.3f).",
                gap < 0.05 ? "The recurrent reader stays close to it at every length: in its "
                             "state it has learned the set of values, not the bindings"
                           : "The recurrent reader departs from it: it has learned some of the "
                             "bindings",
                gap);
}

static void recall_checks(const sizes *s, const schedule *sc, const recall_results *res)
{
    size_t last = sc->n_lengths - 1, n = s->seeds;
    double worst = 1.0, worst_blind = 1.0;
    for (size_t li = 0; li < sc->n_lengths; li++) {
        worst = fmin(worst, mean_of(res->attention[li], n));
        worst_blind = fmin(worst_blind, mean_of(res->blind[li], n));
    }
    double rnn_last = mean_of(res->rnn[last], n), att_last = mean_of(res->attention[last], n);
    check_at_least("L2", "one attention layer recalls at every length (lowest mean accuracy)",
                   worst, 0.95);
    check_control("L2", "the same trained readers with W_q zeroed: every stored pair weighs "
                        "the same");
    check_at_least("L2", NULL, worst_blind, 0.95);
    check_at_least("L2", "below its capacity the recurrent reader recalls too: one pair "
                         "(mean accuracy)", mean_of(res->rnn[0], n), 0.95);
    check_control("L2", "the same trained reader given the query alone, its state read before "
                        "the pair reached it");
    check_at_least("L2", NULL, mean_of(res->query_only, n), 0.95);
    check_at_least("L2", "the recurrent reader's accuracy falls from the shortest to the "
                         "longest sequence (drop in mean accuracy)",
                   mean_of(res->rnn[0], n) - rnn_last, 0.2);
    check_control("L2", "the same drop, measured for the attention reader");
    check_at_least("L2", NULL, mean_of(res->attention[0], n) - att_last, 0.2);
    check_at_least("L2", "at the longest sequence attention beats the fixed state (gap in "
                         "mean accuracy)", att_last - rnn_last, 0.3);
    check_control("L2", "the same gap, for the trained attention with W_q zeroed");
    check_at_least("L2", NULL, mean_of(res->blind[last], n) - rnn_last, 0.3);
}

static void recall_plot(const invent_opts *o, const sizes *s, const schedule *sc,
                        const recall_results *res)
{
    plot *p = plot_begin(o, "ch12_recall");
    plot_set(p, "keys", (double)s->keys);
    plot_set(p, "state", (double)s->state);
    plot_set(p, "runs", (double)s->seeds);
    plot_set(p, "rnn_params", (double)res->rnn_params);
    plot_set(p, "att_params", (double)res->attention_params);
    plot_block(p, "pairs  rnn_mean  rnn_sd  attention_mean  attention_sd  guess");
    for (size_t li = 0; li < sc->n_lengths; li++)
        PLOT_ROW(p, (double)sc->lengths[li], mean_of(res->rnn[li], s->seeds),
                 sd_of(res->rnn[li], s->seeds), mean_of(res->attention[li], s->seeds),
                 sd_of(res->attention[li], s->seeds),
                 task_recall_guess_accuracy(sc->lengths[li], s->keys));
    plot_block(p, "pairs  blind_mean  blind_sd (the control: attention with W_q zeroed)");
    for (size_t li = 0; li < sc->n_lengths; li++)
        PLOT_ROW(p, (double)sc->lengths[li], mean_of(res->blind[li], s->seeds),
                 sd_of(res->blind[li], s->seeds));
    plot_render(p, "ch12_recall.gp");
}

static void recall_section(const invent_opts *o, const sizes *s, const schedule *sc)
{
    report_section(o, "L2: associative recall, a fixed state against attention");
    report_text(o, "Each sequence holds n key-value pairs, one pair per token (the one-hot "
                   "key of %zu and the one-hot value of %zu side by side), and ends with a "
                   "query token that repeats one of the keys; the answer is the value stored "
                   "with it (the recall task of Ba et al., 2016, and Olsson et al., 2022). "
                   "The recurrent reader folds the tokens into a tanh state of size m = %zu "
                   "and answers from the last state; the attention reader keeps every token "
                   "and lets the query look back at them through one attention layer (one "
                   "head, W_o). Both end in the same linear read-out and are trained with "
                   "Adam (Kingma and Ba, 2015) on %zu sequences (batches of %zu), until %zu "
                   "evaluations in a row on %zu held-out ones have not lowered the best loss "
                   "by 1%%, or for at most %zu steps (the attention reader, which is perfect "
                   "within a few hundred, for at most %zu).",
                s->keys, s->keys, s->state, sc->recall_examples, sc->recall.batch,
                sc->recall.patience, sc->test_examples, sc->recall.steps,
                sc->recall_attention.steps);
    recall_results res = {0};
    for (size_t li = 0; li < sc->n_lengths; li++)
        for (size_t j = 0; j < s->seeds; j++)
            recall_run(o, s, sc, li, j, &res);
    gsl_matrix_view rnn = gsl_matrix_view_array_with_tda(&res.rnn[0][0], sc->n_lengths,
                                                         s->seeds, MAX_SEEDS);
    gsl_matrix_view att = gsl_matrix_view_array_with_tda(&res.attention[0][0], sc->n_lengths,
                                                         s->seeds, MAX_SEEDS);
    chapter_dump(o, "recall_accuracy_recurrent", &rnn.matrix);
    chapter_dump(o, "recall_accuracy_attention", &att.matrix);
    report_text(o, "Parameters: recurrent reader %zu, attention reader %zu (within 25%% of "
                   "each other, as the command line requires).",
                res.rnn_params, res.attention_params);
    recall_table(o, s, sc, &res);
    recall_checks(s, sc, &res);
    recall_plot(o, s, sc, &res);
    report_text(o, "A state of fixed size must hold a code for every pair it may be asked "
                   "about, and gradient descent has to discover that code; the attention "
                   "reader never compresses: the pair it needs is still there to be looked "
                   "up, by matching the query's key against every stored key. With its W_q "
                   "zeroed after training, so that every stored pair weighs the same, the "
                   "same attention reader falls to %.3f at %zu pairs (guessing: %.3f): its "
                   "recall is the key match. Given the query alone, the recurrent reader "
                   "that recalls one pair ends at %.3f: its recall comes through the state.",
                mean_of(res.blind[sc->n_lengths - 1], s->seeds),
                sc->lengths[sc->n_lengths - 1],
                task_recall_guess_accuracy(sc->lengths[sc->n_lengths - 1], s->keys),
                mean_of(res.query_only, s->seeds));
    report_text(o, "%zu of the %zu recurrent runs were stopped by the step cap, not by the "
                   "rule. %s",
                res.rnn_capped, res.runs,
                res.rnn_capped && !s->full
                    ? "Where a run was capped, its accuracy is what that budget reached, not "
                      "the state's capacity; --full trains up to 20000 steps on four times "
                      "the data."
                : res.rnn_capped ? "Where a run was capped, its accuracy is what 20000 steps "
                                   "reached, a lower bound on what the state can hold."
                               : "Every recurrent run ended because its held-out loss stopped "
                                 "improving: what falls with the pairs is what the state "
                                 "holds, not what the budget allowed.");
}

/* ------------------------------------------------------------------ L3, I5 */

typedef struct {
    score_kind kind;
    size_t units; /* 0: the I5 size, --hidden */
    const char *name;
} score_variant;

static const score_variant variants[SCORES] = {
    {SCORE_PRODUCT, 1, "product (W_q x_L)(W_k x_i), 1 unit"},
    {SCORE_ADDITIVE, 1, "additive v tanh(.), no bias, 1 unit"},
    {SCORE_ADDITIVE, 0, "additive, no bias"},
    {SCORE_ADDITIVE_BIAS, 1, "additive with a bias, 1 unit"},
    {SCORE_ADDITIVE_BIAS, 2, "additive with a bias"},
    {SCORE_ADDITIVE_BIAS, 0, "additive with a bias"},
    {SCORE_SELF_PRODUCT, 1, "self-product (W_q x_L)(W_k x_L), 1 unit"},
};

static const char *const kind_names[] = {"product", "tanh", "tanh + bias",
                                          "self-product"}; /* by score_kind */

/* the variants drawn as decision regions: the product, one bias-free unit, I5's */
static const size_t drawn[3] = {0, 1, 5};

typedef struct {
    double acc[SCORES][MAX_SEEDS];
    size_t params[SCORES];
    gsl_matrix *region[3]; /* (GRID, GRID): P(same sign) of the first run's drawn models */
} score_results;

static size_t units_of(const sizes *s, size_t v)
{
    return variants[v].units ? variants[v].units : s->hidden;
}

/* P(class 1) of m over the grid [-3, 3]^2 -> R, row = x_L, column = x_i */
static void decision_region(const train_model *m, gsl_matrix *R)
{
    scope *sc = scope_open();
    gsl_matrix *x = scope_matrix(sc, 1, 2), *z = scope_matrix(sc, 1, 2);
    for (size_t a = 0; a < GRID; a++)
        for (size_t b = 0; b < GRID; b++) {
            gsl_matrix_set(x, 0, 0, -3.0 + 6.0 * (double)b / (GRID - 1));
            gsl_matrix_set(x, 0, 1, -3.0 + 6.0 * (double)a / (GRID - 1));
            chapter_must(m->forward(m->self, x, z), "drawing a decision region");
            double margin = gsl_matrix_get(z, 0, 1) - gsl_matrix_get(z, 0, 0);
            gsl_matrix_set(R, a, b, 1.0 / (1.0 + exp(-margin)));
        }
    scope_close(sc);
}

/* run j: every variant on the same data */
static void score_run(const invent_opts *o, const sizes *s, const schedule *sc, size_t j,
                      score_results *res)
{
    scope *run = scope_open();
    gsl_rng *r = scope_keep_rng(run, rng_new(run_seed(o, 3, 0, j)));
    task_data *tr = SCOPE_KEEP(run, task_sign_agreement(sc->train_examples, 3.0, r),
                               task_data_free);
    task_data *te = SCOPE_KEEP(run, task_sign_agreement(sc->test_examples, 3.0, r),
                               task_data_free);
    char label[96];
    for (size_t v = 0; v < SCORES; v++) {
        train_model m;
        keep_model(run, learn_score(variants[v].kind, units_of(s, v), r, &m), &m, "making a score");
        snprintf(label, sizeof label, "L3 %s x %zu, run %zu", kind_names[variants[v].kind],
                 units_of(s, v), j + 1);
        res->acc[v][j] = final_accuracy(train(run, o, label, &m, tr, te, &sc->score, r));
        res->params[v] = params_count(m.params);
        for (size_t k = 0; k < 3 && j == 0; k++)
            if (drawn[k] == v)
                decision_region(&m, res->region[k]);
    }
    scope_close(run);
}

static void score_table(const invent_opts *o, const sizes *s, const score_results *res)
{
    report_line(o, "  %-38s %5s %10s   held-out accuracy (mean +- sd, %zu runs)", "score",
                "units", "parameters", s->seeds);
    for (size_t v = 0; v < SCORES; v++)
        report_line(o, "  %-38s %5zu %10zu   %.3f +- %.3f", variants[v].name, units_of(s, v),
                    res->params[v], mean_of(res->acc[v], s->seeds), sd_of(res->acc[v], s->seeds));
    report_line(o, "%s", "");
}

enum { PRODUCT, ODD1, ODD, BIAS1, BIAS2, BIASED, SELF }; /* variants[], in order */

static void score_checks(const sizes *s, const score_results *res)
{
    double acc[SCORES];
    for (size_t v = 0; v < SCORES; v++)
        acc[v] = mean_of(res->acc[v], s->seeds);
    check_at_least("L3", "one product unit learns sign agreement (mean held-out accuracy)",
                   acc[PRODUCT], 0.95);
    check_control("L3", "a product whose two factors both read x_L: no interaction with x_i");
    check_at_least("L3", NULL, acc[SELF], 0.95);
    check_at_least("L3", "one bias-free tanh unit does not: the product ends far above it "
                         "(gap in mean accuracy)", acc[PRODUCT] - acc[ODD1], 0.3);
    char what[160];
    snprintf(what, sizeof what, "the same gap, against the additive score with a bias and %zu "
                                "units", s->hidden);
    check_control("L3", what);
    check_at_least("L3", NULL, acc[PRODUCT] - acc[BIASED], 0.3);
    check_at_most("L3", "the bias-free unit stays at chance, short of the 0.75 an odd score "
                        "could reach (mean accuracy)", acc[ODD1], 0.6);
    check_control("L3", "one tanh unit with a bias (a half-plane, ceiling 0.75)");
    check_at_most("L3", NULL, acc[BIAS1], 0.6);
    char claim[160];
    snprintf(claim, sizeof claim, "with a bias and %zu units the additive score learns sign "
                                  "agreement too (mean held-out accuracy)", s->hidden);
    check_at_least("I5", claim, acc[BIASED], 0.8);
    check_control("I5", "the same units without the bias");
    check_at_least("I5", NULL, acc[ODD], 0.8);
}

static void score_plot(const invent_opts *o, const sizes *s, const score_results *res)
{
    plot *p = plot_begin(o, "ch12_regions");
    plot_set(p, "hidden", (double)s->hidden);
    for (size_t k = 0; k < 3; k++) {
        char var[16];
        snprintf(var, sizeof var, "acc%zu", k);
        plot_set(p, var, mean_of(res->acc[drawn[k]], s->seeds));
        plot_block(p, "x_i_index x_L_index P(same sign)");
        plot_matrix(p, res->region[k]);
    }
    plot_set(p, "grid", GRID);
    plot_render(p, "ch12_regions.gp");
}

static void score_narration(const invent_opts *o, const sizes *s, const score_results *res)
{
    report_text(o, "Why the bias-free sum fails however it is trained: without a bias inside "
                   "the tanh, the additive score is an odd function, s(-x_i, -x_L) = "
                   "-s(x_i, x_L), with one unit or with %zu, while the target is even. "
                   "Opposite points get opposite scores, so around any offset at least one "
                   "quadrant of the four is on the wrong side: 75%% is its ceiling. Training "
                   "does not even reach it (%.3f): two opposite points share a label, and "
                   "their cross-entropy, -log sig(c + s) - log sig(c - s), is even and convex "
                   "in s, smallest at s = 0, so the loss prefers a flat score to one that is "
                   "confidently wrong on a whole quadrant.",
                s->hidden, mean_of(res->acc[ODD1], s->seeds));
    report_text(o, "A bias breaks the symmetry, and then the additive score is a small network "
                   "of tanh units that can carve the plane into quadrants: with %zu units it "
                   "reaches %.3f (one unit with a bias: %.3f, two: %.3f; one unit with a "
                   "bias is a half-plane, whose ceiling is 75%%). The source calls the "
                   "additive score \"only weakly interacting\" and \"less flexible\"; what "
                   "the runs show is sharper for one bias-free unit (it learns nothing) and "
                   "milder for additive attention with a bias and a few units (it learns the "
                   "interaction). What the product buys is economy: one unit, %zu "
                   "parameters, gets %.3f, because x_i x_L is the interaction itself, while "
                   "the same product with both factors read from x_L gets %.3f; its cost is "
                   "one multiply-add per coordinate, and for many tokens at once it is "
                   "exactly what one matrix product computes.",
                s->hidden, mean_of(res->acc[BIASED], s->seeds), mean_of(res->acc[BIAS1], s->seeds),
                mean_of(res->acc[BIAS2], s->seeds), res->params[PRODUCT],
                mean_of(res->acc[PRODUCT], s->seeds), mean_of(res->acc[SELF], s->seeds));
}

static void score_section(const invent_opts *o, const sizes *s, const schedule *sc)
{
    report_section(o, "L3 and I5: an interaction, learned by a product, and by a sum only "
                      "with a bias");
    report_text(o, "Two scalars x_i and x_L are drawn uniformly from [-3, 3]; the label says "
                   "whether they have the same sign, the target of chapter 4's figure that "
                   "needs both large-output regions of x_i * x_L. The scores below read the "
                   "pair: the product (W_q x_L) . (W_k x_i) and the additive v . tanh(W_1 x_i "
                   "+ W_2 x_L + b) of Bahdanau et al. (2015), with and without the bias b; "
                   "each score plus a learned offset is the logit of \"same sign\". Adam, "
                   "%zu steps of %zu examples, %zu training and %zu held-out pairs.",
                sc->score.steps, sc->score.batch, sc->train_examples, sc->test_examples);
    scope *sec = scope_open();
    score_results res = {0};
    for (size_t k = 0; k < 3; k++)
        res.region[k] = scope_matrix(sec, GRID, GRID);
    for (size_t j = 0; j < s->seeds; j++)
        score_run(o, s, sc, j, &res);
    chapter_dump(o, "region_product", res.region[0]);
    chapter_dump(o, "region_additive", res.region[1]);
    chapter_dump(o, "region_additive_bias", res.region[2]);
    score_table(o, s, &res);
    score_checks(s, &res);
    score_narration(o, s, &res);
    score_plot(o, s, &res);
    scope_close(sec);
}

/* ------------------------------------------------------------------ L4, L5 */

enum { FREE, SHORT, MATCH, FULL, FREE_RANDOM }; /* the forms, in schedule.ranks order */

typedef struct {
    double valid[FORMS][MAX_RATES][MAX_SEEDS]; /* lowest validation loss (the stopping rule's) */
    double test[FORMS][MAX_RATES][MAX_SEEDS];  /* test loss where the rule stopped */
    double tail[FORMS][MAX_RATES][MAX_SEEDS];  /* share of ||A||^2 beyond the top r* */
    double largest[FORMS][MAX_RATES][MAX_SEEDS]; /* the learned A's largest singular value */
    double top[FORMS][MAX_SEEDS];              /* the same at the form's best rate */
    size_t capped[FORMS][MAX_RATES];           /* runs stopped by the step cap */
    double again[MAX_SEEDS];                   /* control: free A, other batch orders */
    double low[2][MAX_SEEDS];                  /* control: r* - 1 and r* on a rank r* - 1 teacher */
    size_t params[FORMS];
    gsl_vector *spectrum[FORMS][MAX_RATES], *teacher; /* (d): singular values, run 1 */
} bilinear_results;

typedef struct {
    gsl_matrix *A; /* (d, d): the teacher's score matrix */
    task_data *train, *valid, *test;
} teacher_data;

/* seed j's teacher of the given rank and its three sets (the same on every call) */
static teacher_data teacher_for(scope *sc, const invent_opts *o, const sizes *s,
                                const schedule *sch, size_t j, size_t rank)
{
    gsl_rng *r = scope_keep_rng(sc, rng_new(run_seed(o, 4, rank, j)));
    teacher_data t;
    t.A = scope_keep_matrix(sc, task_teacher(s->dim, rank, r));
    t.train = SCOPE_KEEP(sc, task_teacher_argmax(sch->train_examples, 8, t.A, r), task_data_free);
    t.valid = SCOPE_KEEP(sc, task_teacher_argmax(sch->test_examples, 8, t.A, r), task_data_free);
    t.test = SCOPE_KEEP(sc, task_teacher_argmax(sch->test_examples, 8, t.A, r), task_data_free);
    return t;
}

/* share of ||A||_F^2 beyond the top k singular values sv (largest first) */
static double tail_share(const gsl_vector *sv, size_t k)
{
    double tail = 0.0, all = 0.0;
    for (size_t i = 0; i < sv->size; i++) {
        double v = gsl_vector_get(sv, i);
        all += v * v;
        tail += i >= k ? v * v : 0.0;
    }
    return all > 0.0 ? tail / all : 0.0;
}

static const char *form_name(const schedule *sc, size_t k, char *buf, size_t n)
{
    if (k == FREE_RANDOM)
        snprintf(buf, n, "free A, random start");
    else if (sc->ranks[k])
        snprintf(buf, n, "W_q^T W_k, r = %zu", sc->ranks[k]);
    else
        snprintf(buf, n, "free A");
    return buf;
}

/* a free A started where W_q^T W_k of rank d starts: the product of two random factors */
static void random_start(scope *sc, const sizes *s, train_model *m, gsl_rng *r)
{
    train_model f;
    keep_model(sc, learn_bilinear(s->dim, s->dim, r, &f), &f, "making a random start");
    gsl_matrix *A = scope_matrix(sc, s->dim, s->dim);
    chapter_must(learn_bilinear_matrix(&f, A), "a random start");
    chapter_must(learn_bilinear_set_matrix(m, A), "a random start");
}

/* what one run leaves */
typedef struct {
    double valid, test, tail, largest;
    int capped;
} run_result;

/* form k at rate li on teacher t, run j, stream e -> *out; sv: (d) receives the learned
 * A's singular values */
static run_result bilinear_run(const invent_opts *o, const sizes *s, const schedule *sc,
                               const teacher_data *t, size_t k, size_t li, size_t j, unsigned e,
                               gsl_vector *sv, size_t *params)
{
    scope *run = scope_open();
    gsl_rng *r = scope_keep_rng(run, rng_new(run_seed(o, e, k * MAX_RATES + li, j)));
    train_plan plan = sc->bilinear;
    plan.rate = sc->rates[li];
    train_model m;
    keep_model(run, learn_bilinear(s->dim, sc->ranks[k], r, &m), &m, "making a bilinear score");
    if (k == FREE_RANDOM)
        random_start(run, s, &m, r);
    char label[96], name[40];
    snprintf(label, sizeof label, "L4 %s, rate %g, run %zu%s", form_name(sc, k, name, sizeof name),
             plan.rate, j + 1, e == 5 ? "" : "'");
    gsl_matrix *curve = train(run, o, label, &m, t->train, t->valid, &plan, r);
    gsl_vector_const_view valid = gsl_matrix_const_column(curve, 1);
    run_result out = {.valid = gsl_vector_min(&valid.vector)};
    double accuracy;
    chapter_must(train_evaluate(&m, t->test, &out.test, &accuracy), "the test set");
    out.capped = gsl_matrix_get(curve, plan.points - 1, 0) == (double)plan.steps;
    gsl_matrix *A = scope_matrix(run, s->dim, s->dim);
    chapter_must(learn_bilinear_matrix(&m, A), "reading the learned A");
    chapter_must(linalg_singular_values(A, sv), "the singular values of A");
    out.tail = tail_share(sv, s->teacher);
    out.largest = gsl_vector_get(sv, 0);
    *params = params_count(m.params);
    scope_close(run);
    return out;
}

/* -> the rate index at which form k's mean lowest validation loss is smallest */
static size_t best_rate(const sizes *s, const schedule *sc, const bilinear_results *res,
                        size_t k)
{
    size_t best = 0;
    for (size_t li = 1; li < sc->n_rates; li++)
        if (mean_of(res->valid[k][li], s->seeds) < mean_of(res->valid[k][best], s->seeds))
            best = li;
    return best;
}

/* every form at every rate on every seed's teacher */
static void bilinear_grid(const invent_opts *o, const sizes *s, const schedule *sc,
                          bilinear_results *res)
{
    for (size_t j = 0; j < s->seeds; j++) {
        scope *seed = scope_open();
        teacher_data t = teacher_for(seed, o, s, sc, j, s->teacher);
        gsl_vector *sv = scope_vector(seed, s->dim);
        if (j == 0)
            chapter_must(linalg_singular_values(t.A, res->teacher), "the teacher's spectrum");
        for (size_t k = 0; k < FORMS; k++)
            for (size_t li = 0; li < sc->n_rates; li++) {
                run_result r = bilinear_run(o, s, sc, &t, k, li, j, 5,
                                            j == 0 ? res->spectrum[k][li] : sv, &res->params[k]);
                res->valid[k][li][j] = r.valid;
                res->test[k][li][j] = r.test;
                res->tail[k][li][j] = r.tail;
                res->largest[k][li][j] = r.largest;
                res->capped[k][li] += (size_t)r.capped;
            }
        scope_close(seed);
    }
}

/* the near misses: the free A again with other batch orders, and r* - 1 against r* on a
 * teacher of rank r* - 1, each at its form's best rate */
static void bilinear_controls(const invent_opts *o, const sizes *s, const schedule *sc,
                              bilinear_results *res)
{
    size_t bf = best_rate(s, sc, res, FREE), bs = best_rate(s, sc, res, SHORT);
    size_t bm = best_rate(s, sc, res, MATCH), unused;
    for (size_t j = 0; j < s->seeds; j++) {
        scope *seed = scope_open();
        gsl_vector *sv = scope_vector(seed, s->dim);
        teacher_data t = teacher_for(seed, o, s, sc, j, s->teacher);
        res->again[j] = bilinear_run(o, s, sc, &t, FREE, bf, j, 6, sv, &unused).test;
        teacher_data low = teacher_for(seed, o, s, sc, j, s->teacher - 1);
        res->low[0][j] = bilinear_run(o, s, sc, &low, SHORT, bs, j, 7, sv, &unused).test;
        res->low[1][j] = bilinear_run(o, s, sc, &low, MATCH, bm, j, 7, sv, &unused).test;
        scope_close(seed);
    }
}

/* form k's test loss at its best rate, over the seeds */
static const double *best_test(const sizes *s, const schedule *sc, const bilinear_results *res,
                               size_t k)
{
    return res->test[k][best_rate(s, sc, res, k)];
}

/* a, b: n paired runs -> the geometric mean of a_j / b_j; *worst: the largest ratio */
static double paired_ratio(const double *a, const double *b, size_t n, double *worst)
{
    double log_sum = 0.0, top = 0.0;
    for (size_t j = 0; j < n; j++) {
        log_sum += log(a[j] / b[j]);
        top = fmax(top, a[j] / b[j]);
    }
    if (worst)
        *worst = top;
    return exp(log_sum / (double)n);
}

/* a, b: n paired runs -> the median of a_j / b_j (one run stuck on one teacher does not
 * decide it) */
static double paired_median(const double *a, const double *b, size_t n)
{
    double ratio[MAX_SEEDS];
    for (size_t j = 0; j < n; j++)
        ratio[j] = a[j] / b[j];
    gsl_sort(ratio, 1, n);
    return gsl_stats_median_from_sorted_data(ratio, 1, n);
}

static void bilinear_table(const invent_opts *o, const sizes *s, const schedule *sc,
                           const bilinear_results *res)
{
    char head[160] = "", name[40];
    for (size_t li = 0; li < sc->n_rates; li++)
        snprintf(head + strlen(head), sizeof head - strlen(head), "   rate %-9g", sc->rates[li]);
    report_line(o, "  %-21s %6s%s", "form", "params", head);
    for (size_t k = 0; k < FORMS; k++) {
        char row[200] = "";
        size_t b = best_rate(s, sc, res, k);
        for (size_t li = 0; li < sc->n_rates; li++)
            snprintf(row + strlen(row), sizeof row - strlen(row), "  %c%.3f +- %.3f%s",
                     li == b ? '>' : ' ', mean_of(res->test[k][li], s->seeds),
                     sd_of(res->test[k][li], s->seeds), res->capped[k][li] ? "*" : " ");
        report_line(o, "  %-21s %6zu%s", form_name(sc, k, name, sizeof name), res->params[k], row);
    }
    report_line(o, "  (test loss where the stopping rule stopped, mean +- sd over %zu runs; >: "
                   "the rate with the lowest validation loss; *: some runs stopped at the cap "
                   "of %zu steps)", s->seeds, sc->bilinear.steps);
    report_line(o, "%s", "");
    report_line(o, "  singular values of the learned A (run 1, each form at its best rate):");
    report_line(o, "    %2s %9s %9s %9s %9s", "j", "free A", "r = d", "random", "teacher");
    size_t bf = best_rate(s, sc, res, FREE), bd = best_rate(s, sc, res, FULL);
    size_t br = best_rate(s, sc, res, FREE_RANDOM);
    for (size_t i = 0; i < s->dim; i++)
        report_line(o, "    %2zu %9.4f %9.4f %9.4f %9.4f", i + 1,
                    gsl_vector_get(res->spectrum[FREE][bf], i),
                    gsl_vector_get(res->spectrum[FULL][bd], i),
                    gsl_vector_get(res->spectrum[FREE_RANDOM][br], i),
                    gsl_vector_get(res->teacher, i));
    report_line(o, "%s", "");
}

/* form k's test loss at the largest rate over its loss at its best rate (paired) */
static double sensitivity(const sizes *s, const schedule *sc, const bilinear_results *res,
                          size_t k)
{
    return paired_ratio(res->test[k][sc->n_rates - 1], best_test(s, sc, res, k), s->seeds, NULL);
}

static void bilinear_checks(const sizes *s, const schedule *sc, const bilinear_results *res)
{
    size_t n = s->seeds;
    const double *free_t = best_test(s, sc, res, FREE);
    check_at_most("L4", "each form at its best rate, W_q^T W_k with r = r* ends below the free "
                        "A on the test set (geometric mean of the ratios paired by seed and "
                        "teacher)", paired_ratio(best_test(s, sc, res, MATCH), free_t, n, NULL),
                  0.8);
    check_control("L4", "the free A against itself, trained again with other batch orders");
    check_at_most("L4", NULL, paired_ratio(res->again, free_t, n, NULL), 0.8);
    double better[MAX_SEEDS];
    for (size_t j = 0; j < n; j++)
        better[j] = fmin(free_t[j], best_test(s, sc, res, MATCH)[j]);
    check_at_least("L4", "one rank short of the teacher it cannot: its test loss is at least "
                         "3 times the better of free A and r = r* (median of the paired ratios)",
                   paired_median(best_test(s, sc, res, SHORT), better, n), 3.0);
    check_control("L4", "the same r* - 1 against r* on a teacher of rank r* - 1");
    check_at_least("L4", NULL, paired_median(res->low[0], res->low[1], n), 3.0);
    check_at_least("L5", "the largest rate hurts W_q^T W_k (r = r*) more than the free A: the "
                         "ratio of its test loss there to its loss at its best rate, over the "
                         "free A's same ratio (paired)",
                   sensitivity(s, sc, res, MATCH) / sensitivity(s, sc, res, FREE), 2.0);
    check_control("L5", "the same, for the free A started at a random product, unfactored");
    check_at_least("L5", NULL,
                   sensitivity(s, sc, res, FREE_RANDOM) / sensitivity(s, sc, res, FREE), 2.0);
}

static void bilinear_plot(const invent_opts *o, const sizes *s, const schedule *sc,
                          const bilinear_results *res)
{
    plot *p = plot_begin(o, "ch12_factoring");
    plot_set(p, "dim", (double)s->dim);
    plot_set(p, "teacher", (double)s->teacher);
    plot_set(p, "runs", (double)s->seeds);
    plot_set(p, "forms", FORMS);
    plot_set(p, "rate_lo", sc->rates[0]);
    plot_set(p, "rate_hi", sc->rates[sc->n_rates - 1]);
    for (size_t k = 0; k < FORMS; k++) {
        char name[40], var[32];
        snprintf(var, sizeof var, "name%zu", k);
        plot_set_text(p, var, form_name(sc, k, name, sizeof name));
        plot_block(p, "rate  mean_test_loss  sd");
        for (size_t li = 0; li < sc->n_rates; li++)
            PLOT_ROW(p, sc->rates[li], mean_of(res->test[k][li], s->seeds),
                     sd_of(res->test[k][li], s->seeds));
    }
    const gsl_vector *f = res->spectrum[FREE][best_rate(s, sc, res, FREE)];
    const gsl_vector *d = res->spectrum[FULL][best_rate(s, sc, res, FULL)];
    plot_block(p, "i  free_A  r_equals_d  teacher (each / its largest)");
    for (size_t i = 0; i < s->dim; i++)
        PLOT_ROW(p, (double)(i + 1), gsl_vector_get(f, i) / gsl_vector_get(f, 0),
                 gsl_vector_get(d, i) / gsl_vector_get(d, 0),
                 gsl_vector_get(res->teacher, i) / gsl_vector_get(res->teacher, 0));
    plot_render(p, "ch12_factoring.gp");
}

/* mean over seeds of form k's tail share at its best rate */
static double tail_mean(const sizes *s, const schedule *sc, const bilinear_results *res, size_t k)
{
    return mean_of(res->tail[k][best_rate(s, sc, res, k)], s->seeds);
}

/* what the measurements say about why the forms differ, in as many words as they support */
static void bilinear_verdict(const invent_opts *o, const sizes *s, const schedule *sc,
                             const bilinear_results *res)
{
    size_t n = s->seeds, top = sc->n_rates - 1;
    const double *free_t = best_test(s, sc, res, FREE);
    double worst_match, worst_full, worst_again;
    double match = paired_ratio(best_test(s, sc, res, MATCH), free_t, n, &worst_match);
    double full = paired_ratio(best_test(s, sc, res, FULL), free_t, n, &worst_full);
    double again = paired_ratio(res->again, free_t, n, &worst_again);
    double start = paired_ratio(best_test(s, sc, res, FREE_RANDOM), free_t, n, NULL);
    double t_free = tail_mean(s, sc, res, FREE), t_full = tail_mean(s, sc, res, FULL);
    double t_rand = tail_mean(s, sc, res, FREE_RANDOM);
    size_t capped = 0;
    for (size_t k = 0; k < FORMS; k++)
        capped += res->capped[k][best_rate(s, sc, res, k)];
    report_text(o, "Paired by seed and teacher, each form at the rate its validation loss "
                   "chose: W_q^T W_k with r = r* ends at %.2f of the free A's test loss "
                   "(%.2f in its worst pair), with r = d at %.2f (worst %.2f); the free A "
                   "trained again with other batch orders at %.2f (worst %.2f), which is how "
                   "far noise alone moves it. %s",
                match, worst_match, full, worst_full, again, worst_again,
                capped ? "Some runs at the chosen rates stopped at the step cap, so part of "
                         "a gap can be speed; --full trains longer."
                       : "Every run at the chosen rates stopped because its validation loss "
                         "no longer improved.");
    report_text(o, "Why, tested one candidate at a time. Parameter count and rank: r = d has "
                   "twice the free A's parameters and no rank limit, and ends at %.2f of its "
                   "loss, %s. Initialisation: the "
                   "free A starts at zero, W_q^T W_k at the product of two small random "
                   "factors; a free A started at such a product ends at %.2f of the free A's "
                   "loss, so the start %s. The learned matrices: beyond the top %zu "
                   "directions the free A keeps %.2f%% of its squared norm (from the random "
                   "start %.2f%%, r = d %.2f%%), and its largest singular value reaches %.1f "
                   "against %.1f for r = d (means over runs).",
                full,
                full <= 0.8  ? "so neither fewer parameters nor a rank limit is what helps here"
                : full < 0.95 ? "so the rank limit is part of what helps here, not all of it"
                              : "level with the free A or above it: at this size what helps is the "
                                "rank limit r = r*, not factoring as such",
                start, start < 0.8 ? "accounts for much of the gap" : "is not what helps",
                s->teacher, 100.0 * t_free, 100.0 * t_rand, 100.0 * t_full,
                mean_of(res->top[FREE], n), mean_of(res->top[FULL], n));
    if (full <= 0.8 && start >= 0.8)
        report_text(o, "With count, rank and start ruled out, what is left is how each form "
                       "moves under the optimiser. Adam steps every entry of a free A by about "
                       "the learning rate, whatever its gradient, while a step of W_q or W_k "
                       "moves A = W_q^T W_k in proportion to the other factor, so a direction "
                       "that has grown grows faster; gradient descent on such a product from "
                       "a small start is also known to lean towards small nuclear norm "
                       "(Gunasekar et al., 2017). The optimiser itself is not varied here "
                       "(every run uses Adam), so this reading is what the measurements "
                       "leave, not what they show.");
    report_text(o, "The learning rate matters as much as the form (L5): at the largest rate, "
                   "%g, the free A ends at %.3f and W_q^T W_k (r = r*) at %.3f; a comparison "
                   "at one shared rate can show either form ahead.",
                sc->rates[top], mean_of(res->test[FREE][top], n),
                mean_of(res->test[MATCH][top], n));
}

static void bilinear_section(const invent_opts *o, const sizes *s, const schedule *sc)
{
    report_section(o, "L4 and L5: one free matrix A against W_q^T W_k, at several learning rates");
    report_text(o, "A teacher scores 8 Gaussian candidates x_i (d = %zu) against a query x_L "
                   "with x_L^T A* x_i, A* of rank r* = %zu; the label is its favourite. Students "
                   "learn the same kind of score: a free d x d matrix A (started at zero), or "
                   "W_q^T W_k through rank r (started small and random), with Adam (batches "
                   "of %zu) at %zu learning rates, on %zu training examples, %zu runs each, "
                   "every form on the same teachers and data. A run stops when %zu "
                   "evaluations in a row (every %zu steps) on %zu validation examples have "
                   "not lowered its best loss by 1%%, or after %zu steps; the learning rate "
                   "of each form is the one with the lowest mean validation loss; what is "
                   "reported is the loss on %zu test examples that neither choice saw.",
                s->dim, s->teacher, sc->bilinear.batch, sc->n_rates, sc->train_examples,
                s->seeds, sc->bilinear.patience, sc->bilinear.steps / (sc->bilinear.points - 1),
                sc->test_examples, sc->bilinear.steps, sc->test_examples);
    scope *sec = scope_open();
    bilinear_results res = {0};
    res.teacher = scope_vector(sec, s->dim);
    for (size_t k = 0; k < FORMS; k++)
        for (size_t li = 0; li < sc->n_rates; li++)
            res.spectrum[k][li] = scope_vector(sec, s->dim);
    bilinear_grid(o, s, sc, &res);
    for (size_t k = 0; k < FORMS; k++)
        memcpy(res.top[k], res.largest[k][best_rate(s, sc, &res, k)], sizeof res.top[k]);
    bilinear_controls(o, s, sc, &res);
    for (size_t k = 0; k < FORMS; k++) {
        char name[40];
        snprintf(name, sizeof name, k == FREE_RANDOM ? "test_loss_random_start"
                                                     : "test_loss_rank%zu", sc->ranks[k]);
        gsl_matrix_view L = gsl_matrix_view_array_with_tda(&res.test[k][0][0], sc->n_rates,
                                                           s->seeds, MAX_SEEDS);
        chapter_dump(o, name, &L.matrix);
    }
    bilinear_table(o, s, sc, &res);
    bilinear_checks(s, sc, &res);
    bilinear_plot(o, s, sc, &res);
    bilinear_verdict(o, s, sc, &res);
    scope_close(sec);
}

/* ------------------------------------------------------------------ main */

/* --state must keep the two L2 readers of similar size; -> 0, or an exit code */
static int check_state(const invent_opts *o, const sizes *s)
{
    size_t rnn_n = 0, att_n = 0, lo = 0, hi = 0;
    recall_param_counts(s, s->state, &rnn_n, &att_n);
    if (similar_counts(rnn_n, att_n))
        return 0;
    for (size_t m = 1; m <= MAX_STATE; m++) {
        size_t a = 0, b = 0;
        recall_param_counts(s, m, &a, &b);
        if (similar_counts(a, b)) {
            lo = lo ? lo : m;
            hi = m;
        }
    }
    return cli_fail(o, "--state %zu gives the recurrent reader %zu parameters against the "
                       "attention reader's %zu; L2 compares readers of similar size (within "
                       "25%%): with --keys %zu use --state %zu to %zu, or 0",
                    s->state, rnn_n, att_n, s->keys, lo, hi);
}

static schedule make_schedule(const sizes *s)
{
    schedule sc = {
        .recall = {.steps = 1200, .batch = 16, .rate = 0.02, .points = 13, .patience = 3},
        .recall_attention = {.steps = 500, .batch = 16, .rate = 0.02, .points = 6,
                             .patience = 3},
        .score = {.steps = 1000, .batch = 16, .rate = 0.05, .points = 2},
        .bilinear = {.steps = 12000, .batch = 16, .points = 121, .patience = 5},
        .rates = {0.01, 0.03, 0.1},
        .n_rates = 3,
        .ranks = {0, s->teacher - 1, s->teacher, s->dim, 0},
        .train_examples = 1024,
        .test_examples = 256,
        .recall_examples = 4096,
    };
    const size_t quick[] = {1, 2, 4, 8}, full[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const size_t *len = s->full ? full : quick;
    for (size_t i = 0; i < (s->full ? 8u : 4u); i++)
        if (len[i] <= s->keys) /* a sequence holds each key at most once */
            sc.lengths[sc.n_lengths++] = len[i];
    if (s->full) {
        sc.recall = (train_plan){.steps = 20000, .batch = 16, .rate = 0.01, .points = 101,
                                 .patience = 10};
        sc.recall_attention.steps = 3000;
        sc.recall_examples = 16384;
        sc.score.steps = 600;
        sc.bilinear = (train_plan){.steps = 20000, .batch = 16, .points = 201, .patience = 10};
        sc.rates[0] = 0.003, sc.rates[1] = 0.01, sc.rates[2] = 0.03, sc.rates[3] = 0.1;
        sc.n_rates = 4;
        sc.train_examples = 2048;
    }
    return sc;
}

/* the rules between sizes that the option ranges cannot say; -> 0, or exit 2 */
static int check_sizes(const invent_opts *o, sizes *s)
{
    if (2 * s->teacher >= s->dim)
        return cli_fail(o, "--teacher (%zu) must be below half of --dim (%zu): the ranks "
                           "r* - 1, r* and d are compared", s->teacher, s->dim);
    if (s->seeds == 0)
        s->seeds = s->full ? 8 : 5;
    if (s->seeds < 5)
        return cli_fail(o, "--seeds (%zu) must be 0 or at least 5: L4 compares the spread of "
                           "the final loss over runs", s->seeds);
    if (s->state == 0) /* m^2 + 3 K m + K = 10 K^2 + K, the attention reader's count */
        s->state = 2 * s->keys;
    return check_state(o, s);
}

int main(int argc, char **argv)
{
    sizes s = {.seeds = 0, .keys = 8, .state = 0, .hidden = 4, .dim = 8, .teacher = 2};
    const cli_option options[] = {
        {"full", CLI_FLAG, &s.full, 0, 1,
         "the full experiment: more seeds, lengths, rates and steps (a few minutes; the "
         "default is the quick version, a few seconds)"},
        {"seeds", CLI_SIZE, &s.seeds, 0, MAX_SEEDS,
         "training runs per setting (0: 5 quick, 8 with --full; at least 5 for L4)"},
        {"keys", CLI_SIZE, &s.keys, 4, 16, "L2: number of keys, and of values"},
        {"state", CLI_SIZE, &s.state, 0, MAX_STATE,
         "L2: size m of the recurrent state (0: 2 * keys, which gives both readers the same "
         "number of parameters; others must stay within 25% of that count)"},
        {"hidden", CLI_SIZE, &s.hidden, 4, 16,
         "I5: hidden units of the additive score with a bias (at least 4: with fewer, "
         "training often stalls short of the quadrants)"},
        {"dim", CLI_SIZE, &s.dim, 8, 12, "L4: token size d (below 8 the gain L4 measures is "
                                          "within the spread of the runs: at d = 6, seed 6, "
                                          "0.97 of the free A's loss)"},
        {"teacher", CLI_SIZE, &s.teacher, 2, 3, "L4: rank r* of the teacher's score matrix "
                                                "(below d / 2)"},
    };
    const cli_spec spec = {"ch12",
                           "Chapter 12: the arguments tested on trained models (backward "
                           "passes, recall, interaction, factoring, learning rates). Quick by "
                           "default; --full for the complete run.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    rc = check_sizes(&o, &s);
    if (rc != 0)
        return rc;
    rc = chapter_start(&o, "Chapter 12: learning");
    if (rc != CLI_RUN)
        return rc;
    schedule sc = make_schedule(&s);
    report_text(&o, "This is the %s run: %zu seeds per setting. %s", s.full ? "full" : "quick",
                s.seeds, s.full ? "" : "Add --full for more lengths, rates, steps and seeds.");
    gradient_section(&o);
    recall_section(&o, &s, &sc);
    score_section(&o, &s, &sc);
    bilinear_section(&o, &s, &sc);
    return chapter_close(&o, 0,
                         "Trained, not just argued: a fixed state runs out where attention does "
                         "not; a product learns an interaction with one unit where a sum needs a "
                         "bias and several; and which form of the score trains better depends on "
                         "the learning rate as much as on the form. Chapter 13 trains the whole "
                         "block.");
}
