#include "check.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "mat.h"
#include "report.h"

static struct {
    const invent_opts *opts;
    int run, failed;
    int claims_lost; /* the claims file could not be appended to */
} state;

void check_setup(const invent_opts *o)
{
    state.opts = o;
    state.run = 0;
    state.failed = 0;
    state.claims_lost = 0;
}

static void append_claim_line(const char *id, int ok, const char *claim, const char *detail)
{
    FILE *f = fopen(state.opts->claims_file, "a");
    if (!f) { /* checked at start-up; it vanished since */
        if (!state.claims_lost)
            report_warn(state.opts, "cannot append to claims file '%s'", state.opts->claims_file);
        state.claims_lost = 1;
        state.failed++;
        return;
    }
    fprintf(f, "%s\t%s\t%s\t%s\t%s\n", id, ok ? "PASS" : "FAIL", state.opts->program, claim,
            detail);
    fclose(f);
}

static void print_claim_line(const char *id, int ok, const char *claim, const char *detail)
{
    int color = report_use_color(STDOUT_FILENO);
    const char *mark = ok ? "PASS" : "FAIL";
    if (color)
        printf("  %-3s \033[1;%dm%s\033[0m  %s\n", id, ok ? 32 : 31, mark, claim);
    else
        printf("  %-3s %s  %s\n", id, mark, claim);
    printf("             %s\n", detail);
}

/* Records one verdict; returns ok. */
static int record(const char *id, const char *claim, int ok, const char *detail)
{
    state.run++;
    if (!ok)
        state.failed++;
    if (!state.opts->quiet || !ok)
        print_claim_line(id, ok, claim, detail);
    if (state.opts->claims_file)
        append_claim_line(id, ok, claim, detail);
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

int check_count_failed(void) { return state.failed; }

int check_finish(void)
{
    if (!state.opts->quiet || state.failed)
        printf("\n%s: %d of %d checks passed\n", state.opts->program, state.run - state.failed,
               state.run);
    return state.failed ? 1 : 0;
}
