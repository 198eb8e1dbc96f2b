/* A chapter's life: parse the command line, set up the checks, print the
 * title; at the end, turn claims and figures into the exit status.
 *   0  every claim held and every figure was rendered
 *   1  a claim failed
 *   2  bad command line, or an output path (--dump, --plot-dir, --claims)
 *      that cannot be written (one line on stderr, before any work)
 *   3  something else went wrong (a figure, a file, memory) */
#ifndef INVENT_CHAPTER_H
#define INVENT_CHAPTER_H

#include "cli.h"

#define CHAPTER_EXIT_CLAIM 1
#define CHAPTER_EXIT_USAGE 2
#define CHAPTER_EXIT_RUNTIME 3

/* argv -> opts, output paths checked; returns CLI_RUN to go on, else the
 * exit code to return now */
int chapter_begin(int argc, char **argv, const cli_spec *spec, const char *title,
                  invent_opts *opts);

/* Reports a library failure ("computing the recall error: out of memory")
 * and returns CHAPTER_EXIT_RUNTIME for main to return. */
int chapter_fail(const invent_opts *opts, const char *what, int status);

/* Summary of the checks -> the exit status described above. */
int chapter_end(void);

#endif
