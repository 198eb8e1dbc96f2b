/* Chapter 1: a fixed memory fails.
 *
 * A recurrent network reads a sequence one token at a time and folds each
 * token into a state of fixed size. However long the sequence grows, the
 * state does not. This chapter measures what that costs: how much of the
 * past can still be read back from the state (claims R1, R3), and how many
 * steps must run one after the other (claim R2). The cure it points to, a
 * memory that grows with the input, is where the rest of the derivation
 * starts.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "invent.h"

typedef struct {
    size_t state;  /* m: size of the recurrent state */
    size_t input;  /* p: size of one input token */
    size_t seq;    /* longest sequence probed for recall */
    size_t layers; /* L: depth of the stacks compared in R2 */
    size_t tokens; /* longest sequence in the step-count figure */
} sizes;

/* Exact recall, up to rounding: the read-out (recall_error_qr) misses by about
 * 1e-16 times the condition number of the map from the inputs to the state,
 * which a long sequence of small inputs can push to 1e6 and beyond. The
 * allowance is 100 times that rounding, and never below 1e-8; the smallest
 * share lost one token past the capacity is above 0.1 at every allowed size. */
static double exact_allowance(const rnn_cell *cell, const sizes *s)
{
    double cond;
    chapter_must(recall_condition(cell, s->state / s->input, &cond),
                 "measuring the conditioning of the state");
    return fmax(1e-8, 100.0 * DBL_EPSILON * cond);
}

/* Exact recall from every state kept: each input is U^+ (h_t - W h_(t-1)), a map
 * as well conditioned as U, so rounding stays near 1e-15. */
#define EVERY_EXACT 1e-8

/* How far the measured error may stray from a curve, as the mean over the K
 * lengths past the capacity of its deviation in standard deviations of its
 * chance variation (recall_error_spread, a first-order estimate), times
 * sqrt(K): a standard normal when the curve is right, so four leaves a chance
 * failure rare over many seeds. The finite fit raises the error by 2.8% at the
 * default sizes, a few standard deviations at each length: one length alone
 * cannot tell the corrected curve from the uncorrected one, K of them can. */
#define RECALL_SIGMAS 4.0

/* How far apart the two curves lie, in the statistic of off_the_curve: the
 * uncorrected one must be further than RECALL_SIGMAS by a margin of four chance
 * deviations, or R1 could not tell them apart and its control would hold. */
#define RECALL_SEPARATION (RECALL_SIGMAS + 4.0)

/* m, p, seq -> the expected distance of the uncorrected curve from the fitted
 * one, sum over the K lengths past the capacity of (expected / uncorrected - 1)
 * / spread, over sqrt(K) */
static double curve_separation(size_t m, size_t p, size_t seq)
{
    double sum = 0.0;
    size_t lengths = 0;
    for (size_t n = m / p + 1; n <= seq; n++, lengths++)
        sum += (recall_expected_error(m, p, n, MEMORY_FINAL_STATE) /
                    sqrt(1.0 - (double)m / (double)(n * p)) -
                1.0) /
               recall_error_spread(m, p, n);
    return lengths ? sum / sqrt((double)lengths) : 0.0;
}

/* Columns of the recall table, one row per sequence length n = 1..seq: the two
 * memories' errors, the expected error, and the lost share sqrt(1 - m/(n p))
 * without the finite fit's correction. */
enum { FIXED, EVERY, EXPECTED, UNCORRECTED, RECALL_COLUMNS };

/* cell -> error: (seq, 3), the recall error of the fixed state, of every state
 * kept, and the error the lost directions predict for the fixed state */
static gsl_matrix *measure_recall(const sizes *s, const rnn_cell *cell, scope *sc, gsl_rng *r)
{
    gsl_matrix *error = scope_matrix(sc, s->seq, RECALL_COLUMNS);
    for (size_t n = 1; n <= s->seq; n++) {
        chapter_must(recall_error_qr(cell, n, MEMORY_FINAL_STATE, r, gsl_matrix_ptr(error, n - 1, FIXED)),
                     "reading back from the final state");
        chapter_must(recall_error(cell, n, MEMORY_EVERY_STATE, r, gsl_matrix_ptr(error, n - 1, EVERY)),
                     "reading back from every state");
        gsl_matrix_set(error, n - 1, EXPECTED,
                       recall_expected_error(s->state, s->input, n, MEMORY_FINAL_STATE));
        double np = (double)(n * s->input);
        gsl_matrix_set(error, n - 1, UNCORRECTED,
                       np > (double)s->state ? sqrt(1.0 - (double)s->state / np) : 0.0);
    }
    return error;
}

static void print_recall_table(const invent_opts *o, const sizes *s, const gsl_matrix *e)
{
    report_line(o, "   n   n*p   error, final state   expected   error, every state kept");
    for (size_t n = 1; n <= s->seq; n++)
        report_line(o, "%4zu  %4zu   %18.3g   %8.3f   %23.3g%s", n, n * s->input,
                    gsl_matrix_get(e, n - 1, FIXED), gsl_matrix_get(e, n - 1, EXPECTED),
                    gsl_matrix_get(e, n - 1, EVERY),
                    n * s->input == s->state ? "   <- the state is full" : "");
    report_line(o, "%s", "");
}

/* e: (seq, 3), column k -> largest value of column k over n = from..to (1-based) */
static double largest(const gsl_matrix *e, size_t column, size_t from, size_t to)
{
    double worst = 0.0;
    for (size_t n = from; n <= to; n++)
        worst = fmax(worst, gsl_matrix_get(e, n - 1, column));
    return worst;
}

/* e: (seq, 4) -> |sum over the K lengths n past the capacity of the fixed state's
 * deviation from the curve in column `curve`, (e[n] / curve[n] - 1) / spread(n)|
 * / sqrt(K): the mean deviation in standard deviations of a mean of K */
static double off_the_curve(const sizes *s, const gsl_matrix *e, size_t curve)
{
    double sum = 0.0;
    size_t lengths = 0;
    for (size_t n = s->state / s->input + 1; n <= s->seq; n++, lengths++)
        sum += (gsl_matrix_get(e, n - 1, FIXED) / gsl_matrix_get(e, n - 1, curve) - 1.0) /
               recall_error_spread(s->state, s->input, n);
    return fabs(sum) / sqrt((double)lengths);
}

/* R1: exact recall up to the capacity; past it, the error of the directions lost. */
static void check_fixed_state(const sizes *s, const gsl_matrix *e, double exact)
{
    size_t full = s->state / s->input; /* the longest n with n p <= m */
    check_at_most("R1", "a fixed state recalls every past input while n*p <= m (largest error; "
                        "allowed: 100 times the rounding at the state's conditioning)",
                  largest(e, FIXED, 1, full), exact);
    check_control("R1", "one token past the capacity, n*p > m");
    check_at_most("R1", NULL, gsl_matrix_get(e, full, FIXED), exact);
    check_at_most("R1", "past it the error is that of the directions lost, sqrt(1 - m/(n*p)), "
                        "raised by fitting the read-out on finitely many sequences (mean "
                        "deviation from that curve over the lengths past the capacity, in "
                        "standard deviations of the mean)",
                  off_the_curve(s, e, EXPECTED), RECALL_SIGMAS);
    check_control("R1", "the uncorrected curve sqrt(1 - m/(n*p)), the finite fit forgotten");
    check_at_most("R1", NULL, off_the_curve(s, e, UNCORRECTED), RECALL_SIGMAS);
}

/* R3: a memory that keeps every state recalls everything, at every length. */
static void check_every_state(const sizes *s, const gsl_matrix *e)
{
    check_at_most("R3", "keeping every past state restores exact recall at every length "
                        "(largest error)",
                  largest(e, EVERY, 1, s->seq), EVERY_EXACT);
    check_control("R3", "the fixed state, at the same lengths");
    check_at_most("R3", NULL, largest(e, FIXED, 1, s->seq), EVERY_EXACT);
}

static void plot_recall(const invent_opts *o, const sizes *s, const gsl_matrix *e)
{
    plot *p = plot_begin(o, "ch01_recall");
    plot_set(p, "capacity", (double)s->state / (double)s->input);
    plot_set(p, "state", (double)s->state);
    plot_set(p, "input", (double)s->input);
    plot_block(p, "n  error_final_state  error_every_state  expected  sqrt(1-m/(n*p))");
    for (size_t n = 1; n <= s->seq; n++) {
        PLOT_ROW(p, (double)n, gsl_matrix_get(e, n - 1, FIXED), gsl_matrix_get(e, n - 1, EVERY),
                 gsl_matrix_get(e, n - 1, EXPECTED), gsl_matrix_get(e, n - 1, UNCORRECTED));
    }
    plot_render(p, "ch01_recall.gp");
}

/* -> 0, or CHAPTER_EXIT_RUNTIME when a dump failed (it said why) */
static int recall_section(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    report_section(o, "How much of the past survives in the state");
    report_text(o,
                "We feed random sequences of n tokens (each of size p = %zu) to a linear "
                "recurrent cell with a state of size m = %zu, and ask the best linear read-out "
                "(least squares, fitted on many sequences) to give back every token from the "
                "final state alone. The state is a linear image of n*p numbers in m "
                "dimensions, so recall can be exact only while n*p <= m, here up to n = %zu. "
                "Past that, the share 1 - m/(n*p) of the input's directions is invisible to "
                "the state; a read-out fitted on N sequences with m inputs also loses a "
                "little on fresh ones, by the factor (N - 1)/(N - m - 1) on the squared error "
                "(N = 2m + 200 here). Their product is the expected error; the finite fit and "
                "the 256 fresh sequences it is measured on let it stray by a few percent at "
                "each length. The fit raises the error by only %.1f%%, so one length cannot "
                "tell the corrected curve from the uncorrected one; the mean deviation over "
                "every length past the capacity can, and the uncorrected curve is the "
                "control. For comparison, a second memory keeps every state h_1 .. h_n.",
                s->input, s->state, s->state / s->input,
                100.0 * (recall_expected_error(s->state, s->input, s->seq, MEMORY_FINAL_STATE) /
                             sqrt(1.0 - (double)s->state / (double)(s->seq * s->input)) -
                         1.0));
    scope *sc = scope_open();
    rnn_cell *cell = SCOPE_KEEP(sc, rnn_cell_new(s->state, s->input, RNN_LINEAR, r), rnn_cell_free);
    gsl_matrix *e = measure_recall(s, cell, sc, r);
    print_recall_table(o, s, e);
    check_fixed_state(s, e, exact_allowance(cell, s));
    check_every_state(s, e);
    plot_recall(o, s, e);
    int dump_failed = dump_matrix(o, "W", cell->W) || dump_matrix(o, "U", cell->U) ||
                      dump_matrix(o, "recall_error", e);
    scope_close(sc);
    return dump_failed ? CHAPTER_EXIT_RUNTIME : 0;
}

/* (N, L, rule) -> the longest chain of dependent steps on the grid */
static uint64_t steps_of(uint64_t n, uint64_t layers, step_rule rule)
{
    uint64_t steps;
    chapter_must(sequential_steps(n, layers, rule, &steps), "counting the sequential steps");
    return steps;
}

/* R2 at one (N, L): the recurrent stack needs N + L - 1 steps, the other L. The
 * controls count the grid of a wrong derivation: the recurrent layers run one
 * after the other, or the stack without recurrence fed its own outputs. */
static void check_steps_example(const invent_opts *o)
{
    uint64_t rec = steps_of(4, 2, STEPS_RECURRENT), flat = steps_of(4, 2, STEPS_STACKED);
    report_text(o, "With 4 tokens and 2 layers the recurrent stack needs %llu steps in a row, "
                   "the stack without recurrence %llu.",
                (unsigned long long)rec, (unsigned long long)flat);
    check_equal("R2", "4 tokens, 2 layers: a recurrent stack needs 5 sequential steps", rec, 5);
    check_control("R2", "the layers counted one after the other, no wavefront");
    check_equal("R2", NULL, steps_of(4, 2, STEPS_LAYER_BY_LAYER), 5);
    check_equal("R2", "4 tokens, 2 layers: without recurrence, 2 steps", flat, 2);
    check_control("R2", "the stack counted as in generation, each token waiting for the last");
    check_equal("R2", NULL, steps_of(4, 2, STEPS_GENERATED), 2);
}

/* The sequence lengths N of the step count: every N up to 64, then steps of about
 * N/64 (the count costs N L), always ending at last. */
static uint64_t next_length(uint64_t n, uint64_t last)
{
    uint64_t next = n + 1 + n / 64;
    return n < last && next > last ? last : next;
}

/* R2 over the grid of (N, L): the claim (claim text) or a control (what), from
 * the number of (N, L) pairs whose counts disagree with N+L-1 and L */
static void steps_verdict(const char *claim, const char *what, int wrong, int pairs,
                          const sizes *s, const uint64_t depths[2])
{
    char detail[160];
    snprintf(detail, sizeof detail, "%d of %d pairs (N from 1 to %zu, L = %llu and %llu) disagree",
             wrong, pairs, s->tokens, (unsigned long long)depths[0], (unsigned long long)depths[1]);
    if (what)
        check_control("R2", what);
    check_true("R2", claim, wrong == 0, detail);
}

static void steps_section(const invent_opts *o, const sizes *s)
{
    report_section(o, "How many steps must wait for each other");
    report_text(o, "In a stack of recurrent layers, the cell at (layer l, token t) needs the cell "
                   "below it and the cell before it. Counting the longest chain of such "
                   "dependencies gives the number of steps that cannot run in parallel. The "
                   "layers run as a wavefront: layer 2 starts on token 1 while layer 1 reads "
                   "token 2. Two counts are easy to get wrong, and serve as the controls: "
                   "running the recurrent layers one after the other (N L steps), and counting "
                   "the stack without recurrence as if it produced its own next input, as it "
                   "does when it generates (N L again, where reading a given sequence takes L).");
    check_steps_example(o);
    const uint64_t depths[2] = {s->layers, 3 * s->layers};
    plot *p = plot_begin(o, "ch01_steps");
    int wrong = 0, by_layer_wrong = 0, generated_wrong = 0, pairs = 0;
    for (int k = 0; k < 2; k++) {
        plot_block(p, "N  recurrent_steps  stack_steps");
        plot_set(p, k ? "layers_deep" : "layers", (double)depths[k]);
        for (uint64_t n = 1; n <= s->tokens; n = next_length(n, s->tokens), pairs++) {
            uint64_t rec = steps_of(n, depths[k], STEPS_RECURRENT);
            uint64_t flat = steps_of(n, depths[k], STEPS_STACKED);
            int rec_right = rec == n + depths[k] - 1, flat_right = flat == depths[k];
            wrong += !(rec_right && flat_right);
            by_layer_wrong += !(steps_of(n, depths[k], STEPS_LAYER_BY_LAYER) == n + depths[k] - 1 &&
                                flat_right);
            generated_wrong += !(rec_right && steps_of(n, depths[k], STEPS_GENERATED) == depths[k]);
            PLOT_ROW(p, (double)n, (double)rec, (double)flat);
        }
    }
    steps_verdict("counted on the dependency grid: N+L-1 steps with recurrence, L without", NULL,
                  wrong, pairs, s, depths);
    steps_verdict(NULL, "the recurrent layers counted one after the other: N L steps",
                  by_layer_wrong, pairs, s, depths);
    steps_verdict(NULL, "the stack without recurrence counted as in generation: N L steps",
                  generated_wrong, pairs, s, depths);
    plot_render(p, "ch01_steps.gp");
}

int main(int argc, char **argv)
{
    sizes s = {.state = 12, .input = 2, .seq = 16, .layers = 2, .tokens = 64};
    const cli_option options[] = {
        {"state", CLI_SIZE, &s.state, 1, 256, "size m of the recurrent state"},
        {"input", CLI_SIZE, &s.input, 1, 64, "size p of one input token"},
        {"seq", CLI_SIZE, &s.seq, 1, 256,
         "longest sequence n probed (n*p must outgrow m, by enough lengths for R1 to tell "
         "the fitted recall curve from the uncorrected one)"},
        {"layers", CLI_SIZE, &s.layers, 1, 64, "layers L in the step count"},
        {"tokens", CLI_SIZE, &s.tokens, 2, 10000,
         "longest sequence N in the step count (2 or more: one token cannot tell the stacks "
         "apart)"},
    };
    const cli_spec spec = {"ch01", "Chapter 1: why a recurrent network's fixed memory fails.",
                           options, (int)(sizeof options / sizeof options[0])};
    invent_opts o;
    int rc = chapter_parse(argc, argv, &spec, &o);
    if (rc != CLI_RUN)
        return rc;
    if (s.input > s.state)
        return cli_fail(&o, "--input (%zu) must not exceed --state (%zu)", s.input, s.state);
    if (s.seq * s.input <= s.state)
        return cli_fail(&o, "--seq %zu is too short to outgrow the state: need seq * input > %zu",
                        s.seq, s.state);
    if (s.seq * s.state > 2048)
        return cli_fail(&o, "--seq times --state must be at most 2048 (the every-state probe "
                            "solves a least-squares problem that wide), got %zu", s.seq * s.state);
    double separation = curve_separation(s.state, s.input, s.seq);
    if (separation < RECALL_SEPARATION)
        return cli_fail(&o, "--seq %zu leaves too few lengths past the capacity to tell the "
                            "fitted recall curve from the uncorrected one (%.1f standard "
                            "deviations apart, R1 needs %.0f): give a longer --seq",
                        s.seq, separation, RECALL_SEPARATION);
    rc = chapter_start(&o, "Chapter 1: a fixed memory fails");
    if (rc != CLI_RUN)
        return rc;
    scope *sc = scope_open();
    gsl_rng *r = scope_keep_rng(sc, rng_new(o.seed));
    rc = recall_section(&o, &s, r);
    if (rc == 0)
        steps_section(&o, &s);
    scope_close(sc);
    return chapter_close(&o, rc,
                         "A state of fixed size forgets once the input outgrows it, and a "
                         "recurrent stack must walk the sequence step by step. Keeping every "
                         "past state fixes recall; the next chapters ask how a layer should read "
                         "from such a growing memory.");
}
