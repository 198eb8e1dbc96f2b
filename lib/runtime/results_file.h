/* A results file: the table a --full run leaves behind for the README and the
 * decks (results/chNN_full.tsv, and the files beside it), stamped with the
 * command as typed, the date and the machine. Written whole with paths_file
 * (paths.h), so that a run that stops early never leaves half a table. */
#ifndef INVENT_RESULTS_FILE_H
#define INVENT_RESULTS_FILE_H

#include <stdio.h>

/* argc, argv as typed (before the option parser reorders it) -> out (len): the command */
void results_command(int argc, char **argv, char *out, size_t len);

/* path -> NULL when it is a regular file or a new one, with room for the temporary name
 * beside it; else why not, as a phrase. Checked before any work: the rename would
 * replace a device such as /dev/null. */
const char *results_check(const char *path);

/* path, name -> out (len): the file name in path's folder ("results/ch13_full.tsv",
 * "ch13_sample.tsv" -> "results/ch13_sample.tsv"), for a table written beside the
 * results; -1 when it does not fit */
int results_sibling(const char *path, const char *name, char *out, size_t len);

/* path, name -> NULL when the file name beside path (results_sibling) passes results_check;
 * else why not, as a phrase */
const char *results_check_beside(const char *path, const char *name);

/* name -> the committed results file of that name in the project's results folder
 * (INVENT_RESULTS_DIR, set by the build to an absolute path), so that a chapter run
 * from any folder finds the stored --full tables it compares itself with */
const char *results_stored(const char *name, char *out, size_t len);

/* f: what, command, threads -> the first line ("# what; command: ...") and the start of
 * the second ("# date: ...; machine: ..., N worker threads"), which the caller ends */
void results_stamp(FILE *f, const char *what, const char *command, int threads);

#endif
