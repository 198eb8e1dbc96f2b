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

/* recall errors for n = 1..seq: column 0 fixed state, column 1 every state */
typedef struct {
    gsl_matrix *error; /* (seq, 2) */
} recall_curve;

static int measure_recall(const invent_opts *o, const sizes *s, gsl_rng *r, recall_curve *out)
{
    rnn_cell *cell = rnn_cell_new(s->state, s->input, RNN_LINEAR, r);
    if (!cell)
        return chapter_fail(o, "creating the recurrent cell", INVENT_ENOMEM);
    int status = INVENT_OK;
    for (size_t n = 1; n <= s->seq && status == INVENT_OK; n++) {
        double fixed, every;
        status = recall_error(cell, n, MEMORY_FINAL_STATE, r, &fixed);
        if (status == INVENT_OK)
            status = recall_error(cell, n, MEMORY_EVERY_STATE, r, &every);
        gsl_matrix_set(out->error, n - 1, 0, fixed);
        gsl_matrix_set(out->error, n - 1, 1, every);
    }
    if (status != INVENT_OK) {
        rnn_cell_free(cell);
        return chapter_fail(o, "measuring recall", status);
    }
    /* dump_matrix reports its own errors */
    int dumped = dump_matrix(o, "W", cell->W) == INVENT_OK &&
                 dump_matrix(o, "U", cell->U) == INVENT_OK &&
                 dump_matrix(o, "recall_error", out->error) == INVENT_OK;
    rnn_cell_free(cell);
    return dumped ? 0 : CHAPTER_EXIT_RUNTIME;
}

static void print_recall_table(const invent_opts *o, const sizes *s, const recall_curve *c)
{
    report_line(o, "   n   n*p   error, final state only   error, every state kept");
    for (size_t n = 1; n <= s->seq; n++)
        report_line(o, "%4zu  %4zu   %22.3g   %24.3g%s", n, n * s->input,
                    gsl_matrix_get(c->error, n - 1, 0), gsl_matrix_get(c->error, n - 1, 1),
                    n * s->input == s->state ? "   <- the state is full" : "");
}

/* R1: exact recall up to capacity, then a growing error. */
static void check_fixed_state(const sizes *s, const recall_curve *c)
{
    double worst_inside = 0.0, least_outside = INFINITY, worst_drop = 0.0;
    double worst_theory = 0.0;
    for (size_t n = 1; n <= s->seq; n++) {
        double e = gsl_matrix_get(c->error, n - 1, 0);
        if (n * s->input <= s->state) {
            worst_inside = fmax(worst_inside, e);
            continue;
        }
        least_outside = fmin(least_outside, e);
        double lost = sqrt(1.0 - (double)s->state / (double)(n * s->input));
        worst_theory = fmax(worst_theory, fabs(e - lost));
        if (n > 1)
            worst_drop = fmax(worst_drop, gsl_matrix_get(c->error, n - 2, 0) - e);
    }
    check_at_most("R1", "a fixed state recalls every past input while n*p <= m", worst_inside,
                  1e-8);
    check_at_least("R1", "once n*p > m, some of the input is lost for good", least_outside,
                   0.05);
    check_at_most("R1", "and the loss grows with n (largest decrease from one n to the next)",
                  worst_drop, 0.02);
    check_at_most("R1", "the error follows sqrt(1 - m/(n*p)), the share of directions lost",
                  worst_theory, 0.08);
}

/* R3: a memory that keeps every state recalls everything, at every length. */
static void check_every_state(const sizes *s, const recall_curve *c)
{
    double worst = 0.0;
    for (size_t n = 1; n <= s->seq; n++)
        worst = fmax(worst, gsl_matrix_get(c->error, n - 1, 1));
    check_at_most("R3", "keeping every past state restores exact recall at every length",
                  worst, 1e-8);
}

static void plot_recall(const invent_opts *o, const sizes *s, const recall_curve *c)
{
    plot *p = plot_begin(o, "ch01_recall");
    plot_set(p, "capacity", (double)s->state / (double)s->input);
    plot_set(p, "state", (double)s->state);
    plot_set(p, "input", (double)s->input);
    plot_block(p, "n  error_final_state  error_every_state  sqrt(1-m/(n*p))");
    for (size_t n = 1; n <= s->seq; n++) {
        double np = (double)(n * s->input);
        double theory = np > (double)s->state ? sqrt(1.0 - (double)s->state / np) : 0.0;
        PLOT_ROW(p, (double)n, gsl_matrix_get(c->error, n - 1, 0),
                 gsl_matrix_get(c->error, n - 1, 1), theory);
    }
    plot_render(p, "ch01_recall.gp");
}

static int recall_section(const invent_opts *o, const sizes *s, gsl_rng *r)
{
    report_section(o, "How much of the past survives in the state");
    report_text(o,
                "We feed random sequences of n tokens (each of size p = %zu) to a linear "
                "recurrent cell with a state of size m = %zu, and ask the best linear read-out "
                "(least squares, fitted on many sequences) to give back every token from the "
                "final state alone. The state is a linear image of n*p numbers in m "
                "dimensions, so recall can be exact only while n*p <= m, here up to n = %zu. "
                "For comparison, a second memory keeps every state h_1 .. h_n.",
                s->input, s->state, s->state / s->input);
    recall_curve c = {gsl_matrix_alloc(s->seq, 2)};
    if (!c.error)
        return chapter_fail(o, "allocating the recall table", INVENT_ENOMEM);
    int rc = measure_recall(o, s, r, &c);
    if (rc == 0) {
        print_recall_table(o, s, &c);
        report_line(o, "%s", "");
        check_fixed_state(s, &c);
        check_every_state(s, &c);
        plot_recall(o, s, &c);
    }
    gsl_matrix_free(c.error);
    return rc;
}

/* R2 at one (N, L): the recurrent stack needs N + L - 1 steps, the other L. */
static void check_steps_example(const invent_opts *o)
{
    uint64_t rec = 0, flat = 0;
    rnn_sequential_steps(4, 2, &rec);
    stack_sequential_steps(4, 2, &flat);
    report_text(o, "With 4 tokens and 2 layers the recurrent stack needs %llu steps in a row, "
                   "the stack without recurrence %llu.",
                (unsigned long long)rec, (unsigned long long)flat);
    check_equal("R2", "4 tokens, 2 layers: a recurrent stack needs 5 sequential steps", rec, 5);
    check_equal("R2", "4 tokens, 2 layers: without recurrence, 2 steps", flat, 2);
}

static int steps_section(const invent_opts *o, const sizes *s)
{
    report_section(o, "How many steps must wait for each other");
    report_text(o, "In a stack of recurrent layers, the cell at (layer l, token t) needs the cell "
                   "below it and the cell before it. Counting the longest chain of such "
                   "dependencies gives the number of steps that cannot run in parallel.");
    check_steps_example(o);
    const uint64_t depths[2] = {s->layers, 3 * s->layers};
    plot *p = plot_begin(o, "ch01_steps");
    int formula_holds = 1;
    for (int k = 0; k < 2; k++) {
        plot_block(p, "N  recurrent_steps  stack_steps");
        plot_set(p, k ? "layers_deep" : "layers", (double)depths[k]);
        for (uint64_t n = 1; n <= s->tokens; n++) {
            uint64_t rec, flat;
            if (rnn_sequential_steps(n, depths[k], &rec) || stack_sequential_steps(n, depths[k], &flat))
                return chapter_fail(o, "counting steps", INVENT_ENOMEM);
            formula_holds &= rec == n + depths[k] - 1 && flat == depths[k];
            PLOT_ROW(p, (double)n, (double)rec, (double)flat);
        }
    }
    char detail[128];
    snprintf(detail, sizeof detail, "N = 1..%zu, L = %llu and %llu: %s", s->tokens,
             (unsigned long long)depths[0], (unsigned long long)depths[1],
             formula_holds ? "every count agrees" : "a count differs from N+L-1 or L");
    check_true("R2", "counted on the dependency grid: N+L-1 steps with recurrence, L without",
               formula_holds, detail);
    plot_render(p, "ch01_steps.gp");
    return 0;
}

int main(int argc, char **argv)
{
    sizes s = {.state = 12, .input = 2, .seq = 16, .layers = 2, .tokens = 64};
    const cli_option options[] = {
        {"state", CLI_SIZE, &s.state, 1, 256, "size m of the recurrent state"},
        {"input", CLI_SIZE, &s.input, 1, 64, "size p of one input token"},
        {"seq", CLI_SIZE, &s.seq, 1, 256, "longest sequence n probed (n*p must outgrow m)"},
        {"layers", CLI_SIZE, &s.layers, 1, 64, "layers L in the step count"},
        {"tokens", CLI_SIZE, &s.tokens, 1, 10000, "longest sequence N in the step count"},
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
    rc = chapter_start(&o, "Chapter 1: a fixed memory fails");
    if (rc != CLI_RUN)
        return rc;
    gsl_rng *r = rng_new(o.seed);
    if (!r)
        return chapter_fail(&o, "creating the random generator", INVENT_ENOMEM);
    rc = recall_section(&o, &s, r);
    if (rc == 0)
        rc = steps_section(&o, &s);
    gsl_rng_free(r);
    if (rc != 0)
        return rc;
    report_section(&o, "What follows");
    report_text(&o, "A state of fixed size forgets once the input outgrows it, and a recurrent "
                    "stack must walk the sequence step by step. Keeping every past state fixes "
                    "recall; the next chapters ask how a layer should read from such a growing "
                    "memory.");
    return chapter_end();
}
