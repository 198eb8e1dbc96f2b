/* --dump DIR: a chapter hands every named tensor to dump_*; with the flag
 * set it lands in DIR/<name>.npy, without it nothing happens. */
#ifndef INVENT_DUMP_H
#define INVENT_DUMP_H

#include <gsl/gsl_matrix.h>

#include "cli.h"
#include "npy.h"

/* m: (rows, cols) -> DIR/name.npy as float64; reports and returns an error
 * status when the file cannot be written, INVENT_OK otherwise */
int dump_matrix(const invent_opts *o, const char *name, const gsl_matrix *m);

/* data: shape[0] x ... -> DIR/name.npy with the given dtype (float kernels) */
int dump_array(const invent_opts *o, const char *name, npy_dtype dtype, int ndim,
               const size_t *shape, const void *data);

#endif
