/* A chapter's life: parse the command line; check how the sizes go together
 * (the chapter's own rules, with cli_fail); only then touch the outputs, set
 * up the checks and print the title; at the end, turn claims and figures
 * into the exit status. Nothing is printed on stdout and nothing is created
 * on disk before chapter_start, so a refused command line leaves no trace.
 *   0  every claim held and every figure was rendered
 *   1  a claim failed
 *   2  bad command line, or an output path (--dump, --plot-dir, --claims)
 *      that cannot be written (one line on stderr, before any work)
 *   3  something else went wrong (a figure, a dump, the claims file,
 *      standard output, memory); it outranks 1, since the claims may then
 *      not all have been recorded
 * Every exit, --help included, checks that standard output was written, and
 * waits at most 5 s for library exit handlers (thread pools; see chapter.c). */
#ifndef INVENT_CHAPTER_H
#define INVENT_CHAPTER_H

#include <gsl/gsl_matrix.h>

#include "cli.h"

#define CHAPTER_EXIT_CLAIM 1
#define CHAPTER_EXIT_USAGE 2
#define CHAPTER_EXIT_RUNTIME 3

/* argv -> opts and the chapter's sizes; returns CLI_RUN to go on, else the
 * exit code to return now (0 after --help, 2 after one line on stderr).
 * Paths must not be empty; the output paths are checked by chapter_start.
 * The environment variables the linked layers read (INVENT_THREADS,
 * INVENT_SIMD) are checked here too, by the checks they registered
 * (env_checks.h). */
int chapter_parse(int argc, char **argv, const cli_spec *spec, invent_opts *opts);

/* After the chapter's own checks of its sizes: output paths checked, all
 * before any is created (a directory too long for the names written in it,
 * a FIFO as --claims: refused), then created; claim checks set up, title
 * printed; returns CLI_RUN to go on, else the exit code to return now */
int chapter_start(invent_opts *opts, const char *title);

/* chapter_parse, then chapter_start, for a chapter whose sizes need no rule of
 * their own in between; returns CLI_RUN to go on, else the exit code to
 * return now */
int chapter_begin(int argc, char **argv, const cli_spec *spec, invent_opts *opts,
                  const char *title);

/* For chapter programs: a library call that must succeed. On a status other
 * than INVENT_OK it reports "what: reason" and ends the program with exit
 * status 3 (out of memory, a shape or a file that does not fit). */
void chapter_must(int status, const char *what);

/* For chapter programs: m: (rows, cols) -> DIR/name.npy with --dump, nothing
 * without it; a file that cannot be written ends the program, as
 * chapter_must does, with the one line dump_matrix printed and exit 3. */
void chapter_dump(const invent_opts *o, const char *name, const gsl_matrix *m);

/* Reports a library failure ("computing the recall error: input/output
 * error") and returns CHAPTER_EXIT_RUNTIME for main to return; out of
 * memory ends the program at once, as scope_out_of_memory does. */
int chapter_fail(const invent_opts *opts, const char *what, int status);

/* Summary of the checks -> the exit status described above. */
int chapter_end(void);

/* rc: the derivation's exit status (0: it ran to the end), next: the question the next
 * chapter takes up -> rc when it is not 0; else the "What follows" section with next,
 * then chapter_end()'s status: every chapter's last line */
int chapter_close(const invent_opts *o, int rc, const char *next);

#endif
