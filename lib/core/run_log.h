/* A log of finished runs: one line per run, a key that names everything the
 * run depends on and the numbers it gave, appended as each run ends. A long
 * experiment that is stopped, or extended by more rows, seeds or rates, reads
 * the log back and runs only what it lacks. A line cut short by a kill is
 * dropped when the log is opened; any other line that does not parse makes
 * the whole log refused, never silently skipped. */
#ifndef INVENT_RUN_LOG_H
#define INVENT_RUN_LOG_H

#include <stddef.h>

typedef struct run_log run_log;

/* path (created at the first run_log_add if missing) -> *out with its runs; *bad_line:
 * the line number that did not parse (INVENT_EFORMAT), else 0; INVENT_EIO, INVENT_ENOMEM */
int run_log_open(const char *path, run_log **out, size_t *bad_line);

/* key -> numbers (n) as logged: INVENT_OK, or INVENT_ERANGE when the key is not
 * logged with exactly n numbers */
int run_log_find(const run_log *l, const char *key, double *numbers, size_t n);

/* key (no tab or newline), numbers (n, finite) -> appended to the file and the log, flushed
 * whole; INVENT_ERANGE for a bad key or number, INVENT_EIO, INVENT_ENOMEM. Not thread-safe:
 * callers that add from several threads hold a lock. */
int run_log_add(run_log *l, const char *key, const double *numbers, size_t n);

/* -> how many runs the log holds */
size_t run_log_count(const run_log *l);

void run_log_free(run_log *l);

#endif
