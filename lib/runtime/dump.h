/* --dump DIR: a chapter hands every named tensor to dump_*; with the flag
 * set it lands in DIR/<name>.npy, without it nothing happens. Each file is
 * written whole or not at all. The first file that cannot be written is
 * reported (one line) and ends the dumping: later calls write nothing and
 * return INVENT_EIO, and the chapter's exit status becomes 3. */
#ifndef INVENT_DUMP_H
#define INVENT_DUMP_H

#include <stdio.h>

#include <gsl/gsl_matrix.h>

#include "cli.h"
#include "npy.h"
#include "paths.h"

/* The longest tensor or file name a program may dump. */
#define DUMP_NAME_MAX 64

/* The longest name written inside DIR (".npy" and a temporary suffix
 * included): chapter_start refuses a DIR too long to hold it. */
#define DUMP_LONGEST_FILE (DUMP_NAME_MAX + 4 + PATHS_TEMP_EXTRA)

/* m: (rows, cols) -> DIR/name.npy as float64; reports and returns an error
 * status when the file cannot be written, INVENT_OK otherwise */
int dump_matrix(const invent_opts *o, const char *name, const gsl_matrix *m);

/* data: shape[0] x ... -> DIR/name.npy with the given dtype (float kernels) */
int dump_array(const invent_opts *o, const char *name, npy_dtype dtype, int ndim,
               const size_t *shape, const void *data);

/* write_text(f, ctx) -> DIR/file (a text file such as "bench.csv"), whole or not
 * at all; write_text returns nonzero when it could not write everything */
int dump_text(const invent_opts *o, const char *file,
              int (*write_text)(FILE *f, const void *ctx), const void *ctx);

/* How many dumps failed in this program (for the exit status). */
int dump_failures(void);

#endif
