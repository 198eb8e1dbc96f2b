/* NumPy's .npy format (version 1.0, little-endian, C order): any tensor a
 * chapter computes can be written out and opened with numpy.load, and read
 * back here. */
#ifndef INVENT_NPY_H
#define INVENT_NPY_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

#define NPY_MAX_DIMS 4

typedef enum { NPY_F64, NPY_F32 } npy_dtype;

typedef struct {
    npy_dtype dtype;
    int ndim;                    /* 0 (a scalar) to NPY_MAX_DIMS */
    size_t shape[NPY_MAX_DIMS];
    void *data;                  /* C order; owned, release with npy_free */
} npy_array;

/* data: shape[0] x ... x shape[ndim-1] values of dtype -> the file at path,
 * whole or not at all (written to a temporary name beside it, then renamed);
 * INVENT_EIO leaves errno saying why */
int npy_save(const char *path, npy_dtype dtype, int ndim, const size_t *shape,
             const void *data);

/* m: (rows, cols) -> a float64 file of shape (rows, cols) */
int npy_save_matrix(const char *path, const gsl_matrix *m);

/* the file at path -> *out (float64 or float32, C order, up to 4 dims).
 * Opened without blocking; the header is checked (dtype, order,
 * endianness, a shape of whole numbers up to 2^40 per axis) and the file's
 * size must be what the shape says before anything is allocated.
 * INVENT_EIO (errno) when it cannot be opened, INVENT_EFORMAT otherwise,
 * *why (when not NULL) saying what, in a few words */
int npy_read(const char *path, npy_array *out, const char **why);

/* npy_read without the reason */
int npy_load(const char *path, npy_array *out);

/* a 2-D file (float64 or float32) -> *out, a new (rows, cols) double matrix */
int npy_load_matrix(const char *path, gsl_matrix **out);

/* Releases what npy_load allocated. */
void npy_free(npy_array *a);

#endif
