#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mat.h"
#include "paths.h"
#include "report.h"

static struct {
    const invent_opts *opts;
    int run, failed;          /* every check; failed claims and held controls */
    int controls, held;       /* controls among them; those that held */
    int claims_lost;          /* a line could not be appended to the claims file */
    const char *control_what; /* set by check_control for the next check */
} state;

void check_setup(const invent_opts *o)
{
    state.opts = o;
    state.run = 0;
    state.failed = 0;
    state.controls = 0;
    state.held = 0;
    state.claims_lost = 0;
    state.control_what = NULL;
}

void check_control(const char *id, const char *what)
{
    (void)id; /* named at the call for the reader; the next check carries it */
    state.control_what = what;
}

/* One tab-separated line: id, verdict, program, text, detail, kind; the
 * line is appended whole or not at all. After a failure (a full disk) the
 * rest of the run's claims are not written and the exit status is 3. */
static void append_claim_line(const char *id, const char *verdict, const char *text,
                              const char *detail, const char *kind)
{
    char line[2048];
    const char *program = state.opts->program;
    if (state.claims_lost)
        return;
    int n = snprintf(line, sizeof line, "%s\t%s\t%s\t%s\t%s\t%s\n", id, verdict, program, text,
                     detail, kind);
    int ok = n >= 0 && (size_t)n < sizeof line; /* the texts are far shorter */
    if (!ok)
        errno = EMSGSIZE;
    if (ok && paths_append(state.opts->claims_file, line, (size_t)n) == 0)
        return;
    report_error(program, "cannot append the claims to '%s' (%s); this run's claims are lost",
                 state.opts->claims_file, strerror(errno));
    state.claims_lost = 1;
}

/* "PASS" in green, "FAIL" in red, on a terminal that allows colour */
static void print_mark(const char *mark, int good)
{
    if (report_use_color(STDOUT_FILENO))
        printf("\033[1;%dm%s\033[0m", good ? 32 : 31, mark);
    else
        fputs(mark, stdout);
}

static void print_claim_line(const char *id, int ok, const char *claim, const char *detail)
{
    printf("  %-3s ", id);
    print_mark(ok ? "PASS" : "FAIL", ok);
    printf("  %s\n             %s\n", claim, detail);
}

/* A control is good when its check fails: the check can tell. */
static void print_control_line(int holds, const char *what, const char *detail)
{
    printf("      control (%s): %s\n        ", what, detail);
    print_mark(holds ? "HOLDS" : "fails", !holds);
    printf("%s\n", holds ? ": the check cannot tell this case from the claim (a defect)"
                          : ", as it should");
}

/* Records a control's verdict; returns ok as the check computed it. */
static int record_control(const char *id, int ok, const char *detail)
{
    const char *what = state.control_what;
    state.control_what = NULL;
    state.controls++;
    if (ok) {
        state.failed++;
        state.held++;
    }
    if (!state.opts->quiet || ok)
        print_control_line(ok, what, detail);
    if (state.opts->claims_file)
        append_claim_line(id, ok ? "HOLDS" : "FAILS", what, detail, "control");
    return ok;
}

/* Records one verdict (of a claim, or of a control after check_control);
 * returns ok. */
static int record(const char *id, const char *claim, int ok, const char *detail)
{
    state.run++;
    if (state.control_what)
        return record_control(id, ok, detail);
    if (!ok)
        state.failed++;
    if (!state.opts->quiet || !ok)
        print_claim_line(id, ok, claim, detail);
    if (state.opts->claims_file)
        append_claim_line(id, ok ? "PASS" : "FAIL", claim, detail, "claim");
    return ok;
}

int check_close(const char *id, const char *claim, double got, double want, double tol)
{
    double err = fabs(got - want);
    char detail[160];
    snprintf(detail, sizeof detail, "got %.6g, want %.6g: error %.3g (tolerance %.3g)", got,
             want, err, tol);
    return record(id, claim, err <= tol, detail);
}

int check_matrix_close(const char *id, const char *claim, const gsl_matrix *got,
                       const gsl_matrix *want, double tol)
{
    char detail[160];
    if (got->size1 != want->size1 || got->size2 != want->size2) {
        snprintf(detail, sizeof detail, "shapes differ: (%zu, %zu) against (%zu, %zu)",
                 got->size1, got->size2, want->size1, want->size2);
        return record(id, claim, 0, detail);
    }
    double worst = mat_max_abs_diff(got, want);
    snprintf(detail, sizeof detail, "largest difference %.3g over %zu x %zu (tolerance %.3g)",
             worst, got->size1, got->size2, tol);
    return record(id, claim, worst <= tol, detail);
}

int check_at_most(const char *id, const char *claim, double value, double bound)
{
    char detail[160];
    snprintf(detail, sizeof detail, "measured %.4g, must be at most %.4g", value, bound);
    return record(id, claim, value <= bound, detail);
}

int check_at_least(const char *id, const char *claim, double value, double bound)
{
    char detail[160];
    snprintf(detail, sizeof detail, "measured %.4g, must be at least %.4g", value, bound);
    return record(id, claim, value >= bound, detail);
}

int check_equal(const char *id, const char *claim, uint64_t got, uint64_t want)
{
    char detail[160];
    snprintf(detail, sizeof detail, "counted %llu, expected %llu", (unsigned long long)got,
             (unsigned long long)want);
    return record(id, claim, got == want, detail);
}

int check_true(const char *id, const char *claim, int ok, const char *detail)
{
    return record(id, claim, ok != 0, detail);
}

int check_count_run(void) { return state.run; }

int check_claims_lost(void) { return state.claims_lost; }

int check_count_failed(void) { return state.failed; }

int check_finish(void)
{
    int claims = state.run - state.controls;
    int claims_failed = state.failed - state.held;
    if (!state.opts->quiet || state.failed)
        printf("\n%s: %d of %d checks passed; %d of %d controls fail, as they should\n",
               state.opts->program, claims - claims_failed, claims, state.controls - state.held,
               state.controls);
    if (state.claims_lost)
        return 3;
    return state.failed ? 1 : 0;
}
