/* Claim checks: every numerical claim of a chapter goes through here. Each
 * check prints the claim id (from CLAIMS.md), the claim, what was measured
 * and PASS or FAIL; counts failures; and, with --claims FILE, appends one
 * tab-separated line for `make verify`:
 *   id  PASS|FAIL    chapter  claim                 measurement  claim
 *   id  FAILS|HOLDS  chapter  what the control changes  measurement  control
 * check_finish gives the chapter its exit status.
 *
 * Controls. A check that cannot fail proves nothing, so every claim check is
 * also run on a case where it must not hold: right after it, call
 * check_control(id, what) and then the same check function on the control's
 * numbers (one control or more per check). The control is printed under its
 * claim; it must FAIL. A control that passes (HOLDS) means the check cannot
 * tell right from wrong, and a control that follows no check of its id
 * belongs to nothing: each counts as a failure. A claim check that no control
 * of its id follows before the next claim check (NONE) is untested: it is
 * named (unless --quiet) and counted in the summary, and `make verify`, which
 * pairs the lines of the claims file the same way, fails on it; the
 * program's exit status does not, so that a program whose checks are not
 * claims of the ledger (the benchmark's) can use this module too. */
#ifndef INVENT_CHECK_H
#define INVENT_CHECK_H

#include <stdint.h>

#include <gsl/gsl_matrix.h>

#include "cli.h"

/* Starts counting for one program; resets the counters. */
void check_setup(const invent_opts *o);

/* |got - want| <= tol; returns 1 on PASS, 0 on FAIL (NaN fails) */
int check_close(const char *id, const char *claim, double got, double want, double tol);

/* max_ij |got - want| <= tol over two matrices of one shape */
int check_matrix_close(const char *id, const char *claim, const gsl_matrix *got,
                       const gsl_matrix *want, double tol);

/* value <= bound (an error that must be small); NaN fails */
int check_at_most(const char *id, const char *claim, double value, double bound);

/* value >= bound (a gap that must be large); NaN fails */
int check_at_least(const char *id, const char *claim, double value, double bound);

/* got == want, exactly, for counts */
int check_equal(const char *id, const char *claim, uint64_t got, uint64_t want);

/* a yes/no fact; detail says what was seen */
int check_true(const char *id, const char *claim, int ok, const char *detail);

/* The next check is the control of claim id, on a case changed as `what`
 * says ("causal mask on"); its claim text is not printed and may be NULL. */
void check_control(const char *id, const char *what);

/* (checks run, checks failed) so far; a control that holds counts as failed */
int check_count_run(void);
int check_count_failed(void);

/* claim checks so far (controls not counted); those settled without a control
 * (by the next claim check, or by check_finish) */
int check_count_checks(void);
int check_count_missing(void);

/* Whether a line could not be appended to the claims file (reported once). */
int check_claims_lost(void);

/* Settles the last claim check; prints the summary line ("K of N checks
 * passed; controls: C of N checks fail as they should, H hold, M missing");
 * returns the exit status: 3 if a line could not be appended to the claims
 * file (reported once), else 0 if every claim passed and no control held,
 * else 1. */
int check_finish(void);

#endif
