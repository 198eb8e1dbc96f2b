/* --dump for chapter programs: a named matrix lands in DIR/<name>.npy, or
 * the program ends, like chapter_must, with exit status 3 and the one line
 * that dump_matrix printed. */
#ifndef INVENT_CHAPTER_DUMP_H
#define INVENT_CHAPTER_DUMP_H

#include <gsl/gsl_matrix.h>

#include "cli.h"

/* m: (rows, cols) -> DIR/name.npy; nothing without --dump; exit 3 on failure */
void chapter_dump(const invent_opts *o, const char *name, const gsl_matrix *m);

#endif
