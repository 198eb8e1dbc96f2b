#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mat.h"
#include "paths.h"
#include "report.h"

/* The check that the next controls belong to: every claim check must be
 * followed by at least one control of its id, before the next claim check. */
typedef struct {
    int open;          /* a claim check was recorded and is not yet settled */
    char id[16];
    char claim[160];   /* its text, cut to fit, to name it when no control follows */
    int controls, held; /* its controls so far; those that held */
} pending_check;

typedef struct {
    const invent_opts *opts;
    int run, failed;          /* every check; failed claims and held controls */
    int controls, held;       /* controls among them; those that held */
    int checks, told, missing; /* claim checks settled; told apart by all their controls; without one */
    int orphans;              /* controls that follow no claim check of their id */
    int claims_lost;          /* a line could not be appended to the claims file */
    const char *control_what; /* set by check_control for the next check */
    pending_check pending;
} check_state;

static check_state state;

void check_setup(const invent_opts *o)
{
    state = (check_state){.opts = o};
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

/* "  R1  NONE  <claim>": a claim check that no control followed */
static void print_missing_line(const pending_check *p)
{
    printf("  %-3s ", p->id);
    print_mark("NONE", 0);
    printf("  no control checked this claim: %s\n", p->claim);
}

/* Settles the pending claim check: told apart (every control failed), held
 * (a control passed: counted when it was recorded) or missing (none). */
static void settle_pending(void)
{
    pending_check *p = &state.pending;
    if (!p->open)
        return;
    p->open = 0;
    state.checks++;
    if (p->controls == 0) {
        state.missing++;
        if (!state.opts->quiet)
            print_missing_line(p);
    } else if (p->held == 0) {
        state.told++;
    }
}

static void open_pending(const char *id, const char *claim)
{
    settle_pending();
    pending_check *p = &state.pending;
    *p = (pending_check){.open = 1};
    snprintf(p->id, sizeof p->id, "%s", id);
    snprintf(p->claim, sizeof p->claim, "%s", claim ? claim : "");
}

/* Records a control's verdict; returns ok as the check computed it. A control
 * counts for the claim check before it when that check has its id; one that
 * follows no check of its id holds nothing and is a defect too. */
static int record_control(const char *id, int ok, const char *detail)
{
    const char *what = state.control_what;
    state.control_what = NULL;
    state.controls++;
    pending_check *p = &state.pending;
    int orphan = !p->open || strcmp(p->id, id) != 0;
    if (!orphan)
        p->controls++;
    if (ok || orphan) {
        state.failed++;
        state.held++;
        p->held += !orphan;
        state.orphans += orphan;
    }
    if (!state.opts->quiet || ok || orphan)
        print_control_line(ok, what, detail);
    if (orphan)
        printf("        (a defect: no claim check of %s comes before this control)\n", id);
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
    open_pending(id, claim);
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

int check_count_checks(void) { return state.checks + state.pending.open; }

int check_count_missing(void) { return state.missing; }

int check_finish(void)
{
    settle_pending();
    int claims = state.run - state.controls;
    int claims_failed = state.failed - state.held;
    int held = state.checks - state.told - state.missing;
    if (!state.opts->quiet || state.failed)
        printf("\n%s: %d of %d checks passed; controls: %d of %d checks fail as they should, "
               "%d hold, %d missing\n",
               state.opts->program, claims - claims_failed, claims, state.told, state.checks,
               held, state.missing);
    if (state.orphans)
        printf("%s: %d controls follow no claim check of their id\n", state.opts->program,
               state.orphans);
    if (state.claims_lost)
        return 3;
    return state.failed ? 1 : 0;
}
