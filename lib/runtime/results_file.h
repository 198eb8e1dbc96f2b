/* A results file: the table a --full run leaves behind for the README and the
 * decks (results/chNN_full.tsv), stamped with the command as typed, the date
 * and the machine, written whole beside its path and renamed over it, so that
 * a run that stops early never leaves half a table. */
#ifndef INVENT_RESULTS_FILE_H
#define INVENT_RESULTS_FILE_H

#include <stdio.h>

/* argc, argv as typed (before the option parser reorders it) -> out (len): the command */
void results_command(int argc, char **argv, char *out, size_t len);

/* path -> NULL when it is a regular file or a new one, with room for PATH.part beside
 * it; else why not, as a phrase. Checked before any work: the rename would replace a
 * device such as /dev/null. */
const char *results_check(const char *path);

/* path -> PATH.part open for writing (its name in part, len bytes), or NULL */
FILE *results_open(const char *path, char *part, size_t len);

/* f: what, command, threads -> the first line ("# what; command: ...") and the start of
 * the second ("# date: ...; machine: ..., N worker threads"), which the caller ends */
void results_stamp(FILE *f, const char *what, const char *command, int threads);

/* f, part -> closed and renamed over path: 0, or -1 with part removed */
int results_close(FILE *f, const char *part, const char *path);

#endif
