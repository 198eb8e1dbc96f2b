/* Claim checks: every numerical claim of a chapter goes through here. Each
 * check prints the claim id (from CLAIMS.md), the claim, what was measured
 * and PASS or FAIL; counts failures; and, with --claims FILE, appends one
 * tab-separated line (id, PASS|FAIL, chapter, claim, measurement) for
 * `make verify`. check_finish gives the chapter its exit status. */
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

/* (checks run, checks failed) so far */
int check_count_run(void);
int check_count_failed(void);

/* Prints the summary line; returns the exit status: 0 if all passed, else 1. */
int check_finish(void);

#endif
