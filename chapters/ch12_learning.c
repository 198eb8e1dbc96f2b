/* Chapter 12: learning.
 *
 * The derivation so far argued with random weights and counting. Here the
 * arguments meet gradient descent: the backward passes of every piece are
 * written by hand and checked against finite differences (claim L1), and
 * three small experiments train real models, over several seeds, to see
 * whether the arguments survive learning:
 *   L2  a fixed-size recurrent state against attention on associative recall;
 *   L3  the product score against the additive tanh score on a task that
 *       needs an interaction between two inputs;
 *   L4  one free matrix A against the factored W_q^T W_k of rank r.
 * The default run is the quick version (a few seconds) that `make verify`
 * runs; --full repeats it with more seeds and lengths (under a minute).
 * Everything runs in double precision with GSL, sequentially: the models
 * are tiny, and the same --seed gives the same numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_statistics.h>

#include "invent.h"

#define MAX_SEEDS 8
#define MAX_LENGTHS 8
#define MAX_RANKS 4
#define MAX_STATE 40 /* largest recurrent state m of L2 (2 * 16 keys, and then some) */

typedef struct {
    int full;       /* --full: more seeds, lengths and steps */
    size_t seeds;   /* training runs per setting */
    size_t keys;    /* L2: distinct keys (and values) */
    size_t state;   /* L2: the recurrent state m */
    size_t hidden;  /* L3: hidden units h of both scores */
    size_t dim;     /* L4: token size d */
    size_t teacher; /* L4: rank of the teacher's score matrix */
} sizes;

/* The derived settings of one run of the chapter (quick or full). */
typedef struct {
    size_t lengths[MAX_LENGTHS], n_lengths; /* L2: key-value pairs per sequence */
    size_t ranks[MAX_RANKS], n_ranks;       /* L4: ranks r of W_q^T W_k; 0 = free A */
    train_plan recall, score, bilinear;
    size_t train_examples, test_examples;
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

/* ------------------------------------------------------------------ L1 */

static int gradient_section(const invent_opts *o)
{
    report_section(o, "Backward passes, checked against finite differences");
    report_text(o, "Every backward pass in the library is written by hand, one per forward "
                   "piece. Each one is checked the same way: a random probe R turns the "
                   "output Y into the scalar sum(R * Y), each input and parameter entry is "
                   "nudged by +-1e-5, and the central difference is compared with the "
                   "gradient the backward pass returned (relative error in the Frobenius norm).");
    report_line(o, "  %-28s %-28s %s", "backward pass", "gradients checked", "relative error");
    size_t n;
    const gradcheck_case *cases = gradcheck_cases(&n);
    double err[16], worst = 0.0;
    n = n < 16 ? n : 16;
    gsl_rng *r = rng_new(o->seed);
    if (!r)
        return chapter_fail(o, "setting up the gradient checks", INVENT_ENOMEM);
    for (size_t k = 0; k < n; k++) {
        err[k] = cases[k].run(r);
        worst = isnan(err[k]) || isnan(worst) ? NAN : fmax(worst, err[k]);
        report_line(o, "  %-28s %-28s %.2e", cases[k].name, cases[k].gradients, err[k]);
    }
    gsl_rng_free(r);
    report_line(o, "%s", "");
    char claim[160];
    snprintf(claim, sizeof claim, "every hand-written backward pass (%zu of them) agrees with "
                                  "finite differences (worst relative error)", n);
    check_at_most("L1", claim, worst, 1e-6);
    for (size_t k = 0; k < n; k++) {
        snprintf(claim, sizeof claim, "backward pass of %s", cases[k].name);
        check_at_most("L1", claim, err[k], 1e-6);
    }
    report_text(o, "The worst disagreement, %.1e, is what rounding and the O(h^2) error of a "
                   "central difference leave at a step of 1e-5: the gradients are right, not "
                   "merely close.", worst);
    return 0;
}

/* ------------------------------------------------------------------ L2 */

/* L2 compares readers of about the same size: counts within 25% of each other */
static int similar_counts(size_t a, size_t b)
{
    double ratio = (double)a / (double)b;
    return ratio > 0.8 && ratio < 1.25;
}

/* -> the parameter counts of the recurrent reader with state m and of the attention reader */
static int recall_param_counts(const sizes *s, size_t m, size_t *rnn_n, size_t *att_n)
{
    gsl_rng *r = rng_new(0); /* the weights are thrown away: only the counts matter */
    train_model rnn = {0}, att = {0};
    int status = r ? learn_recall_rnn(2 * s->keys, m, s->keys, r, &rnn) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = learn_recall_attention(2 * s->keys, 1, s->keys, s->keys, r, &att);
    if (status == INVENT_OK) {
        *rnn_n = params_count(rnn.params);
        *att_n = params_count(att.params);
    }
    train_model_release(&rnn);
    train_model_release(&att);
    gsl_rng_free(r);
    return status;
}

typedef struct {
    double rnn[MAX_LENGTHS][MAX_SEEDS], attention[MAX_LENGTHS][MAX_SEEDS];
    size_t rnn_params, attention_params;
} recall_results;

/* trains one model on one dataset pair -> held-out accuracy */
static int train_one(const invent_opts *o, const char *label, train_model *m, const task_data *tr,
                     const task_data *te, const train_plan *plan, gsl_rng *r, double *accuracy)
{
    gsl_matrix *curve = gsl_matrix_alloc(plan->points, 3);
    int status = curve ? train_run(o, label, m, tr, te, plan, r, curve) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        *accuracy = gsl_matrix_get(curve, plan->points - 1, 2);
    gsl_matrix_free(curve);
    return status;
}

/* one (length, seed): both readers on the same sequences */
static int recall_run(const invent_opts *o, const sizes *s, const schedule *sc, size_t li,
                      size_t j, recall_results *res)
{
    size_t pairs = sc->lengths[li], p = 2 * s->keys;
    gsl_rng *r = rng_new(run_seed(o, 2, li, j));
    task_data *tr = r ? task_recall(sc->train_examples, pairs, s->keys, s->keys, r) : NULL;
    task_data *te = tr ? task_recall(sc->test_examples, pairs, s->keys, s->keys, r) : NULL;
    train_model rnn = {0}, att = {0};
    int status = te ? learn_recall_rnn(p, s->state, s->keys, r, &rnn) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = learn_recall_attention(p, 1, s->keys, s->keys, r, &att);
    char label[96];
    snprintf(label, sizeof label, "L2 recurrent, %zu pairs, run %zu", pairs, j + 1);
    if (status == INVENT_OK)
        status = train_one(o, label, &rnn, tr, te, &sc->recall, r, &res->rnn[li][j]);
    snprintf(label, sizeof label, "L2 attention, %zu pairs, run %zu", pairs, j + 1);
    if (status == INVENT_OK)
        status = train_one(o, label, &att, tr, te, &sc->recall, r, &res->attention[li][j]);
    if (status == INVENT_OK) {
        res->rnn_params = params_count(rnn.params);
        res->attention_params = params_count(att.params);
    }
    train_model_release(&rnn);
    train_model_release(&att);
    task_data_free(tr);
    task_data_free(te);
    gsl_rng_free(r);
    return status;
}

static void recall_table(const invent_opts *o, const sizes *s, const schedule *sc,
                         const recall_results *res)
{
    report_line(o, "  pairs   sequence   recurrent accuracy   attention accuracy   guessing "
                   "among the values seen");
    double gap = 0.0;
    for (size_t li = 0; li < sc->n_lengths; li++) {
        double rnn = mean_of(res->rnn[li], s->seeds);
        double guess = task_recall_guess_accuracy(sc->lengths[li], s->keys);
        gap = fmax(gap, fabs(rnn - guess));
        report_line(o, "  %5zu   %8zu      %.3f +- %.3f       %.3f +- %.3f       %.3f",
                    sc->lengths[li], sc->lengths[li] + 1, rnn, sd_of(res->rnn[li], s->seeds),
                    mean_of(res->attention[li], s->seeds), sd_of(res->attention[li], s->seeds),
                    guess);
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
    size_t last = sc->n_lengths - 1;
    double worst_attention = 1.0;
    for (size_t li = 0; li < sc->n_lengths; li++)
        worst_attention = fmin(worst_attention, mean_of(res->attention[li], s->seeds));
    double rnn_first = mean_of(res->rnn[0], s->seeds), rnn_last = mean_of(res->rnn[last], s->seeds);
    check_at_least("L2", "one attention layer recalls at every length (lowest mean accuracy)",
                   worst_attention, 0.95);
    check_at_least("L2", "the recurrent reader's accuracy falls from the shortest to the "
                         "longest sequence (drop in mean accuracy)",
                   rnn_first - rnn_last, 0.2);
    check_at_least("L2", "at the longest sequence attention beats the fixed state (gap in "
                         "mean accuracy)",
                   mean_of(res->attention[last], s->seeds) - rnn_last, 0.3);
    check_true("L2", "the two readers have similar parameter counts (within 25%)",
               similar_counts(res->rnn_params, res->attention_params),
               "counted from the models' parameter lists");
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
    plot_render(p, "ch12_recall.gp");
}

static int recall_section(const invent_opts *o, const sizes *s, const schedule *sc)
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
                   "Adam (Kingma and Ba, 2015) on %zu sequences for %zu steps (batches of %zu), then "
                   "tested on %zu new ones.",
                s->keys, s->keys, s->state, sc->train_examples, sc->recall.steps,
                sc->recall.batch, sc->test_examples);
    recall_results *res = calloc(1, sizeof *res);
    int dump_failed = 0;
    if (!res)
        return chapter_fail(o, "allocating the recall results", INVENT_ENOMEM);
    int status = INVENT_OK;
    for (size_t li = 0; li < sc->n_lengths && status == INVENT_OK; li++)
        for (size_t j = 0; j < s->seeds && status == INVENT_OK; j++)
            status = recall_run(o, s, sc, li, j, res);
    if (status == INVENT_OK) {
        gsl_matrix_view rnn = gsl_matrix_view_array_with_tda(&res->rnn[0][0], sc->n_lengths,
                                                             s->seeds, MAX_SEEDS);
        gsl_matrix_view att = gsl_matrix_view_array_with_tda(&res->attention[0][0],
                                                             sc->n_lengths, s->seeds, MAX_SEEDS);
        dump_failed = dump_matrix(o, "recall_accuracy_recurrent", &rnn.matrix) != INVENT_OK ||
                      dump_matrix(o, "recall_accuracy_attention", &att.matrix) != INVENT_OK;
    }
    if (status == INVENT_OK && !dump_failed) {
        report_text(o, "Parameters: recurrent reader %zu, attention reader %zu.",
                    res->rnn_params, res->attention_params);
        recall_table(o, s, sc, res);
        recall_checks(s, sc, res);
        recall_plot(o, s, sc, res);
        report_text(o, "A state of fixed size must hold a code for every pair it may be asked "
                       "about, and gradient descent has to discover that code; the attention "
                       "reader never compresses: the pair it needs is still there to be "
                       "looked up, by matching the query's key against every stored key.");
    }
    free(res);
    if (status != INVENT_OK)
        return chapter_fail(o, "training the recall readers", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0; /* dump_matrix has said what went wrong */
}

/* ------------------------------------------------------------------ L3 */

#define GRID 61

typedef struct {
    double product[MAX_SEEDS], additive[MAX_SEEDS];
    size_t product_params, additive_params;
    gsl_matrix *region[2]; /* (GRID, GRID): P(same sign) of the first run's models */
} score_results;

/* P(class 1) of m over the grid [-3, 3]^2 -> R, row = x_L, column = x_i */
static int decision_region(const train_model *m, gsl_matrix *R)
{
    gsl_matrix *x = gsl_matrix_alloc(1, 2), *z = gsl_matrix_alloc(1, 2);
    int status = x && z ? INVENT_OK : INVENT_ENOMEM;
    for (size_t a = 0; a < GRID && status == INVENT_OK; a++)
        for (size_t b = 0; b < GRID && status == INVENT_OK; b++) {
            gsl_matrix_set(x, 0, 0, -3.0 + 6.0 * (double)b / (GRID - 1));
            gsl_matrix_set(x, 0, 1, -3.0 + 6.0 * (double)a / (GRID - 1));
            status = m->forward(m->self, x, z);
            double margin = gsl_matrix_get(z, 0, 1) - gsl_matrix_get(z, 0, 0);
            gsl_matrix_set(R, a, b, 1.0 / (1.0 + exp(-margin)));
        }
    gsl_matrix_free(x);
    gsl_matrix_free(z);
    return status;
}

static int score_run(const invent_opts *o, const sizes *s, const schedule *sc, size_t j,
                     score_results *res)
{
    gsl_rng *r = rng_new(run_seed(o, 3, 0, j));
    task_data *tr = r ? task_sign_agreement(sc->train_examples, 3.0, r) : NULL;
    task_data *te = tr ? task_sign_agreement(sc->test_examples, 3.0, r) : NULL;
    train_model m[2] = {{0}, {0}};
    int status = te ? learn_score(SCORE_PRODUCT, s->hidden, r, &m[0]) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = learn_score(SCORE_ADDITIVE, s->hidden, r, &m[1]);
    double *acc[2] = {&res->product[j], &res->additive[j]};
    const char *name[2] = {"product", "additive tanh"};
    for (int k = 0; k < 2 && status == INVENT_OK; k++) {
        char label[96];
        snprintf(label, sizeof label, "L3 %s score, run %zu", name[k], j + 1);
        status = train_one(o, label, &m[k], tr, te, &sc->score, r, acc[k]);
        if (status == INVENT_OK && j == 0)
            status = decision_region(&m[k], res->region[k]);
    }
    if (status == INVENT_OK) {
        res->product_params = params_count(m[0].params);
        res->additive_params = params_count(m[1].params);
    }
    train_model_release(&m[0]);
    train_model_release(&m[1]);
    task_data_free(tr);
    task_data_free(te);
    gsl_rng_free(r);
    return status;
}

static void score_plot(const invent_opts *o, const sizes *s, const score_results *res)
{
    plot *p = plot_begin(o, "ch12_regions");
    plot_set(p, "hidden", (double)s->hidden);
    plot_set(p, "product_acc", mean_of(res->product, s->seeds));
    plot_set(p, "additive_acc", mean_of(res->additive, s->seeds));
    for (int k = 0; k < 2; k++) {
        plot_block(p, k ? "additive: x_i_index x_L_index P(same sign)"
                        : "product: x_i_index x_L_index P(same sign)");
        plot_matrix(p, res->region[k]);
    }
    plot_set(p, "grid", GRID);
    plot_render(p, "ch12_regions.gp");
}

static void score_checks(const sizes *s, const score_results *res)
{
    double prod = mean_of(res->product, s->seeds), add = mean_of(res->additive, s->seeds);
    check_at_least("L3", "the product score learns sign agreement (mean held-out accuracy)",
                   prod, 0.95);
    check_at_most("L3", "the additive tanh score does not: it stays at its 3-of-4-quadrants "
                        "ceiling of 0.75, give or take sampling noise (mean held-out "
                        "accuracy, at most 0.8)",
                  add, 0.8);
    check_at_least("L3", "with fewer parameters, the product is ahead (accuracy gap)",
                   prod - add, 0.15);
}

static int score_section(const invent_opts *o, const sizes *s, const schedule *sc)
{
    report_section(o, "L3: an interaction, learned by a product and not by a sum");
    report_text(o, "Two scalars x_i and x_L are drawn uniformly from [-3, 3]; the label says "
                   "whether they have the same sign, the target of chapter 4's figure that "
                   "needs both large-output regions of x_i * x_L. Two scores of the same size "
                   "h = %zu read the pair: the product (W_q x_L) . (W_k x_i) and the additive "
                   "v . tanh(W_1 x_i + W_2 x_L) of Bahdanau et al. (2015); each score plus a "
                   "learned offset is the logit of \"same sign\".", s->hidden);
    score_results res = {0};
    res.region[0] = gsl_matrix_alloc(GRID, GRID);
    res.region[1] = gsl_matrix_alloc(GRID, GRID);
    int status = res.region[0] && res.region[1] ? INVENT_OK : INVENT_ENOMEM;
    for (size_t j = 0; j < s->seeds && status == INVENT_OK; j++)
        status = score_run(o, s, sc, j, &res);
    int dump_failed = status == INVENT_OK &&
                      (dump_matrix(o, "region_product", res.region[0]) != INVENT_OK ||
                       dump_matrix(o, "region_additive", res.region[1]) != INVENT_OK);
    if (status == INVENT_OK && !dump_failed) {
        report_line(o, "  score           parameters   held-out accuracy (mean +- sd, %zu runs)",
                    s->seeds);
        report_line(o, "  product         %10zu   %.3f +- %.3f", res.product_params,
                    mean_of(res.product, s->seeds), sd_of(res.product, s->seeds));
        report_line(o, "  additive tanh   %10zu   %.3f +- %.3f", res.additive_params,
                    mean_of(res.additive, s->seeds), sd_of(res.additive, s->seeds));
        report_line(o, "%s", "");
        report_text(o, "Why the sum fails however it is trained: without a bias inside the "
                       "tanh, the additive score is an odd function, s(-x_i, -x_L) = "
                       "-s(x_i, x_L), while the target is even. Opposite points always get "
                       "opposite scores, so around any offset at least one quadrant of the "
                       "four is on the wrong side: 75%% is the ceiling. The product is even "
                       "by construction and gets all four.");
        double add = mean_of(res.additive, s->seeds);
        if (add < 0.6)
            report_text(o, "Training does not even reach that ceiling: the additive score ends "
                           "at %.3f, near chance. Two opposite points share a label, and their "
                           "cross-entropy, -log sig(c + s) - log sig(c - s) for a score s and "
                           "-s, is even and convex in s, so it is smallest at s = 0: the loss "
                           "prefers a flat score (loss ln 2, chance accuracy) to the 75%% "
                           "solution, which is confidently wrong on a whole quadrant.", add);
        score_checks(s, &res);
        score_plot(o, s, &res);
    }
    gsl_matrix_free(res.region[0]);
    gsl_matrix_free(res.region[1]);
    if (status != INVENT_OK)
        return chapter_fail(o, "training the two scores", status);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0; /* dump_matrix has said what went wrong */
}

/* ------------------------------------------------------------------ L4 */

typedef struct {
    double final_loss[MAX_RANKS][MAX_SEEDS], accuracy[MAX_RANKS][MAX_SEEDS];
    size_t params[MAX_RANKS];
    gsl_matrix *curves[MAX_RANKS]; /* (points, seeds): held-out loss */
    gsl_vector *spectrum;          /* (d): singular values of the free A, first run */
    gsl_vector *teacher_spectrum;  /* (d) */
    double top_share[MAX_SEEDS];   /* share of ||A||_F^2 in the teacher's rank */
    size_t learned_rank[MAX_SEEDS];
} bilinear_results;

/* the free A's singular values -> results (spectrum for run 0) */
static int free_matrix_rank(const invent_opts *o, const sizes *s, const train_model *m, size_t j,
                            bilinear_results *res)
{
    gsl_matrix *A = gsl_matrix_alloc(s->dim, s->dim);
    gsl_vector *sv = gsl_vector_alloc(s->dim);
    int status = A && sv ? learn_bilinear_matrix(m, A) : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = linalg_singular_values(A, sv);
    if (status == INVENT_OK) {
        double top = 0.0, all = 0.0;
        for (size_t i = 0; i < s->dim; i++) {
            double v = gsl_vector_get(sv, i);
            all += v * v;
            top += i < s->teacher ? v * v : 0.0;
        }
        res->top_share[j] = all > 0.0 ? top / all : 0.0;
        res->learned_rank[j] = linalg_rank(sv, 0.1);
    }
    if (status == INVENT_OK && j == 0) {
        gsl_vector_memcpy(res->spectrum, sv);
        status = dump_matrix(o, "free_A_learned", A);
    }
    gsl_matrix_free(A);
    gsl_vector_free(sv);
    return status;
}

static int bilinear_one(const invent_opts *o, const sizes *s, const schedule *sc, size_t k,
                        size_t j, const task_data *tr, const task_data *te, gsl_rng *r,
                        bilinear_results *res)
{
    train_model m = {0};
    gsl_matrix *curve = gsl_matrix_alloc(sc->bilinear.points, 3);
    int status = curve ? learn_bilinear(s->dim, sc->ranks[k], r, &m) : INVENT_ENOMEM;
    char label[96];
    if (sc->ranks[k])
        snprintf(label, sizeof label, "L4 W_q^T W_k, r = %zu, run %zu", sc->ranks[k], j + 1);
    else
        snprintf(label, sizeof label, "L4 free A, run %zu", j + 1);
    if (status == INVENT_OK)
        status = train_run(o, label, &m, tr, te, &sc->bilinear, r, curve);
    if (status == INVENT_OK) {
        size_t last = sc->bilinear.points - 1;
        res->final_loss[k][j] = gsl_matrix_get(curve, last, 1);
        res->accuracy[k][j] = gsl_matrix_get(curve, last, 2);
        res->params[k] = params_count(m.params);
        for (size_t t = 0; t <= last; t++)
            gsl_matrix_set(res->curves[k], t, j, gsl_matrix_get(curve, t, 1));
        if (sc->ranks[k] == 0)
            status = free_matrix_rank(o, s, &m, j, res);
    }
    train_model_release(&m);
    gsl_matrix_free(curve);
    return status;
}

static int bilinear_run(const invent_opts *o, const sizes *s, const schedule *sc, size_t j,
                        bilinear_results *res)
{
    gsl_rng *r = rng_new(run_seed(o, 4, 0, j));
    gsl_matrix *teacher = r ? task_teacher(s->dim, s->teacher, r) : NULL;
    task_data *tr = teacher ? task_teacher_argmax(sc->train_examples, 8, teacher, r) : NULL;
    task_data *te = tr ? task_teacher_argmax(sc->test_examples, 8, teacher, r) : NULL;
    int status = te ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK && j == 0)
        status = linalg_singular_values(teacher, res->teacher_spectrum);
    if (status == INVENT_OK && j == 0)
        status = dump_matrix(o, "teacher_A", teacher);
    for (size_t k = 0; k < sc->n_ranks && status == INVENT_OK; k++)
        status = bilinear_one(o, s, sc, k, j, tr, te, r, res);
    task_data_free(tr);
    task_data_free(te);
    gsl_matrix_free(teacher);
    gsl_rng_free(r);
    return status;
}

static const char *rank_name(size_t rank, char *buf, size_t n)
{
    if (rank)
        snprintf(buf, n, "W_q^T W_k, r = %zu", rank);
    else
        snprintf(buf, n, "free A");
    return buf;
}

static void bilinear_table(const invent_opts *o, const sizes *s, const schedule *sc,
                           const bilinear_results *res)
{
    report_line(o, "  model               parameters   final loss (mean +- sd)   accuracy");
    for (size_t k = 0; k < sc->n_ranks; k++) {
        char name[40];
        report_line(o, "  %-19s %10zu   %.4f +- %.4f         %.3f",
                    rank_name(sc->ranks[k], name, sizeof name), res->params[k],
                    mean_of(res->final_loss[k], s->seeds), sd_of(res->final_loss[k], s->seeds),
                    mean_of(res->accuracy[k], s->seeds));
    }
    report_line(o, "%s", "");
    report_line(o, "  singular values of the learned free A (run 1), and of the teacher:");
    for (size_t i = 0; i < s->dim; i++)
        report_line(o, "    %zu   %8.4f   %8.4f", i + 1, gsl_vector_get(res->spectrum, i),
                    gsl_vector_get(res->teacher_spectrum, i));
    double share[MAX_SEEDS], rank[MAX_SEEDS];
    for (size_t j = 0; j < s->seeds; j++) {
        share[j] = res->top_share[j];
        rank[j] = (double)res->learned_rank[j];
    }
    report_line(o, "%s", "");
    report_text(o, "Over %zu runs the free A puts %.1f%% (sd %.1f percentage points) of its squared norm in "
                   "its top %zu singular directions; its numerical rank (singular values above "
                   "10%% of the largest) is %.1f on average.",
                s->seeds, 100.0 * mean_of(share, s->seeds), 100.0 * sd_of(share, s->seeds),
                s->teacher, mean_of(rank, s->seeds));
}

/* index of rank r in the schedule, or n_ranks */
static size_t rank_index(const schedule *sc, size_t rank)
{
    size_t k = 0;
    while (k < sc->n_ranks && sc->ranks[k] != rank)
        k++;
    return k;
}

static void bilinear_checks(const sizes *s, const schedule *sc, const bilinear_results *res)
{
    size_t free_k = rank_index(sc, 0), low = rank_index(sc, s->teacher - 1),
           match = rank_index(sc, s->teacher);
    double free_loss = mean_of(res->final_loss[free_k], s->seeds);
    double match_loss = mean_of(res->final_loss[match], s->seeds);
    check_at_most("L4", "factored at the teacher's rank, W_q^T W_k does as well as the free A "
                        "(final loss, factored / free)",
                  match_loss / free_loss, 1.25);
    check_at_least("L4", "one rank short of the teacher, it cannot (final loss against the "
                         "better of free A and rank r*)",
                   mean_of(res->final_loss[low], s->seeds) / fmin(free_loss, match_loss), 1.5);
    for (size_t k = 0; k < sc->n_ranks; k++) {
        uint64_t want = sc->ranks[k] ? 2 * sc->ranks[k] * s->dim : s->dim * s->dim;
        char claim[96], name[40];
        snprintf(claim, sizeof claim, "%s has %s parameters",
                 rank_name(sc->ranks[k], name, sizeof name), sc->ranks[k] ? "2 r d" : "d^2");
        check_equal("L4", claim, res->params[k], want);
    }
    check_at_least("L4", "the free A learns a low-rank matrix: its top singular directions, "
                         "as many as the teacher's rank, hold most of its squared norm (mean share)",
                   mean_of(res->top_share, s->seeds), 0.9);
}

static void bilinear_plot(const invent_opts *o, const sizes *s, const schedule *sc,
                          const bilinear_results *res)
{
    plot *p = plot_begin(o, "ch12_factoring");
    plot_set(p, "dim", (double)s->dim);
    plot_set(p, "teacher", (double)s->teacher);
    plot_set(p, "runs", (double)s->seeds);
    plot_set(p, "models", (double)sc->n_ranks);
    for (size_t k = 0; k < sc->n_ranks; k++) {
        char name[40], var[32];
        snprintf(var, sizeof var, "name%zu", k);
        plot_set_text(p, var, rank_name(sc->ranks[k], name, sizeof name));
        plot_block(p, "step  mean_held_out_loss  sd");
        for (size_t t = 0; t < sc->bilinear.points; t++) {
            gsl_vector_const_view row = gsl_matrix_const_row(res->curves[k], t);
            double v[MAX_SEEDS];
            for (size_t j = 0; j < s->seeds; j++)
                v[j] = gsl_vector_get(&row.vector, j);
            PLOT_ROW(p, (double)(t * sc->bilinear.steps / (sc->bilinear.points - 1)),
                     mean_of(v, s->seeds), sd_of(v, s->seeds));
        }
    }
    plot_block(p, "i  singular_value_free_A  singular_value_teacher (each / its largest)");
    for (size_t i = 0; i < s->dim; i++)
        PLOT_ROW(p, (double)(i + 1),
                 gsl_vector_get(res->spectrum, i) / gsl_vector_get(res->spectrum, 0),
                 gsl_vector_get(res->teacher_spectrum, i) /
                     gsl_vector_get(res->teacher_spectrum, 0));
    plot_render(p, "ch12_factoring.gp");
}

static void bilinear_free(bilinear_results *res)
{
    for (size_t k = 0; k < MAX_RANKS; k++)
        gsl_matrix_free(res->curves[k]);
    gsl_vector_free(res->spectrum);
    gsl_vector_free(res->teacher_spectrum);
    free(res);
}

static bilinear_results *bilinear_alloc(const sizes *s, const schedule *sc)
{
    bilinear_results *res = calloc(1, sizeof *res);
    if (!res)
        return NULL;
    int ok = (res->spectrum = gsl_vector_alloc(s->dim)) &&
             (res->teacher_spectrum = gsl_vector_alloc(s->dim));
    for (size_t k = 0; k < sc->n_ranks && ok; k++)
        ok = (res->curves[k] = gsl_matrix_alloc(sc->bilinear.points, s->seeds)) != NULL;
    if (!ok) {
        bilinear_free(res);
        return NULL;
    }
    return res;
}

/* the narration that depends on which of free A and rank r* ended lower */
static void bilinear_verdict(const invent_opts *o, const sizes *s, const schedule *sc,
                             const bilinear_results *res)
{
    double free_loss = mean_of(res->final_loss[rank_index(sc, 0)], s->seeds);
    double match_loss = mean_of(res->final_loss[rank_index(sc, s->teacher)], s->seeds);
    char why[512] = ".";
    if (match_loss < free_loss)
        snprintf(why, sizeof why,
                 ": lower, not just as low. With the same data and the same number of Adam "
                 "steps the product of two matrices gets further than one matrix on its own, "
                 "at r = %zu (%zu numbers) as well: factored parameters train "
                 "faster (Arora, Cohen and Hazan, 2018) and lean towards low rank (Gunasekar "
                 "et al., 2017), while the free A spends steps on directions the teacher "
                 "never uses.", 2 * s->teacher, 4 * s->teacher * s->dim);
    double rank[MAX_SEEDS];
    for (size_t j = 0; j < s->seeds; j++)
        rank[j] = (double)res->learned_rank[j];
    report_text(o, "Given d^2 = %zu free numbers, A ends with numerical rank %.1f on average "
                   "(the teacher's is %zu). With 2 r d = %zu numbers at r = %zu, W_q^T W_k "
                   "ends at a loss of %.3f against the free A's %.3f%s A rank below the task's "
                   "is a real limit: factoring is a bet on the rank, and it pays when the rank "
                   "suffices.",
                s->dim * s->dim, mean_of(rank, s->seeds), s->teacher, 2 * s->teacher * s->dim,
                s->teacher, match_loss, free_loss, why);
}

static int bilinear_section(const invent_opts *o, const sizes *s, const schedule *sc)
{
    report_section(o, "L4: one free matrix A against W_q^T W_k");
    report_text(o, "A teacher scores 8 Gaussian candidates x_i (d = %zu) against a query x_L "
                   "with x_L^T A* x_i, A* of rank %zu; the label is its favourite. Students "
                   "learn the same kind of score: a free d x d matrix A (started at zero), or "
                   "W_q^T W_k through rank r (started small and random), each trained with Adam "
                   "on the same %zu examples, %zu steps (batches of %zu).",
                s->dim, s->teacher, sc->train_examples, sc->bilinear.steps, sc->bilinear.batch);
    bilinear_results *res = bilinear_alloc(s, sc);
    if (!res)
        return chapter_fail(o, "allocating the L4 results", INVENT_ENOMEM);
    int status = INVENT_OK;
    for (size_t j = 0; j < s->seeds && status == INVENT_OK; j++)
        status = bilinear_run(o, s, sc, j, res);
    for (size_t k = 0; k < sc->n_ranks && status == INVENT_OK; k++) {
        char name[40];
        snprintf(name, sizeof name, "heldout_loss_rank%zu", sc->ranks[k]);
        status = dump_matrix(o, name, res->curves[k]);
    }
    if (status == INVENT_OK) {
        bilinear_table(o, s, sc, res);
        bilinear_checks(s, sc, res);
        bilinear_plot(o, s, sc, res);
        bilinear_verdict(o, s, sc, res);
    }
    bilinear_free(res);
    if (status == INVENT_EIO) /* only dump_matrix fails so, and it has said where */
        return CHAPTER_EXIT_RUNTIME;
    return status == INVENT_OK ? 0 : chapter_fail(o, "training the bilinear scores", status);
}

/* ------------------------------------------------------------------ main */

/* --state must keep the two L2 readers of similar size; -> 0, or an exit code */
static int check_state(const invent_opts *o, const sizes *s)
{
    size_t rnn_n = 0, att_n = 0, lo = 0, hi = 0;
    int status = recall_param_counts(s, s->state, &rnn_n, &att_n);
    if (status != INVENT_OK)
        return chapter_fail(o, "counting the L2 parameters", status);
    if (similar_counts(rnn_n, att_n))
        return 0;
    for (size_t m = 1; m <= MAX_STATE && status == INVENT_OK; m++) {
        size_t a = 0, b = 0;
        status = recall_param_counts(s, m, &a, &b);
        if (status == INVENT_OK && similar_counts(a, b)) {
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
        .recall = {.steps = 300, .batch = 16, .rate = 0.02, .points = 2},
        .score = {.steps = 300, .batch = 16, .rate = 0.05, .points = 2},
        .bilinear = {.steps = 300, .batch = 16, .rate = 0.02, .points = 16},
        .train_examples = 1024,
        .test_examples = 256,
    };
    const size_t quick[] = {1, 2, 4, 8}, full[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const size_t *len = s->full ? full : quick;
    for (size_t i = 0; i < (s->full ? 8u : 4u); i++)
        if (len[i] <= s->keys) /* a sequence holds each key at most once */
            sc.lengths[sc.n_lengths++] = len[i];
    const size_t ranks[] = {0, s->teacher - 1, s->teacher, 2 * s->teacher};
    sc.n_ranks = 4;
    for (size_t k = 0; k < sc.n_ranks; k++)
        sc.ranks[k] = ranks[k];
    if (s->full) {
        sc.recall.steps = 2000;
        sc.score.steps = sc.bilinear.steps = 600;
        sc.train_examples = 2048;
        sc.test_examples = 512;
    }
    return sc;
}

int main(int argc, char **argv)
{
    sizes s = {.seeds = 0, .keys = 8, .state = 0, .hidden = 4, .dim = 8, .teacher = 2};
    const cli_option options[] = {
        {"full", CLI_FLAG, &s.full, 0, 1,
         "the full experiment: more seeds, lengths and steps (under a minute; the default "
         "is the quick version, a few seconds)"},
        {"seeds", CLI_SIZE, &s.seeds, 0, MAX_SEEDS,
         "training runs per setting (0: 3 quick, 5 with --full)"},
        {"keys", CLI_SIZE, &s.keys, 4, 16, "L2: number of keys, and of values"},
        {"state", CLI_SIZE, &s.state, 0, MAX_STATE,
         "L2: size m of the recurrent state (0: 2 * keys, which gives both readers the same "
         "number of parameters; others must stay within 25% of that count)"},
        {"hidden", CLI_SIZE, &s.hidden, 1, 64, "L3: hidden units h of both scores"},
        {"dim", CLI_SIZE, &s.dim, 4, 16,
         "L4: token size d (up to 16: beyond, a free d x d A overfits the 1024 examples and "
         "the ranks no longer separate)"},
        {"teacher", CLI_SIZE, &s.teacher, 2, 4,
         "L4: rank of the teacher's score matrix (at most d / 2; up to 4, for the same "
         "reason)"},
    };
    const cli_spec spec = {"ch12",
                           "Chapter 12: the arguments tested on trained models (backward "
                           "passes, recall, interaction, factoring). Quick by default; --full "
                           "for the complete run.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (2 * s.teacher > s.dim)
        return cli_fail(&o, "--teacher (%zu) must be at most half of --dim (%zu): rank 2r is "
                            "trained too", s.teacher, s.dim);
    if (s.seeds == 0)
        s.seeds = s.full ? 5 : 3;
    if (s.state == 0) /* m^2 + 3 K m + K = 10 K^2 + K, the attention reader's count */
        s.state = 2 * s.keys;
    rc = check_state(&o, &s);
    if (rc != 0)
        return rc;
    rc = chapter_start(&o, "Chapter 12: learning");
    if (rc != CLI_RUN)
        return rc;
    schedule sc = make_schedule(&s);
    report_text(&o, "This is the %s run: %zu seeds per setting. %s", s.full ? "full" : "quick",
                s.seeds, s.full ? "" : "Add --full for more lengths, more steps and more seeds.");
    rc = gradient_section(&o);
    if (rc == 0)
        rc = recall_section(&o, &s, &sc);
    if (rc == 0)
        rc = score_section(&o, &s, &sc);
    if (rc == 0)
        rc = bilinear_section(&o, &s, &sc);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "Trained, not just argued: a fixed state runs out where attention does not, "
                    "a product learns the interaction a sum cannot express, and factoring A "
                    "costs nothing while the rank is enough.");
    return chapter_end();
}
