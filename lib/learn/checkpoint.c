#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "status.h"

#define SHAPE_FIELDS 7

/* dir, name -> "dir/name.npy" in buf (4096 bytes) */
static const char *file_in(char *buf, const char *dir, const char *name)
{
    snprintf(buf, 4096, "%s/%s.npy", dir, name);
    return buf;
}

int checkpoint_save(const char *dir, gpt_weights *w, const unsigned char *symbols)
{
    const gpt_shape *s = &w->shape;
    double fields[SHAPE_FIELDS] = {(double)s->vocab, (double)s->context, (double)s->dim,
                                   (double)s->heads, (double)s->layers,  (double)s->hidden,
                                   s->norm == BLOCK_POST_NORM};
    double vocab[256];
    for (size_t k = 0; k < s->vocab; k++)
        vocab[k] = symbols[k];
    char path[4096];
    size_t one[1] = {SHAPE_FIELDS}, v[1] = {s->vocab};
    int status = npy_save(file_in(path, dir, "shape"), NPY_F64, 1, one, fields);
    if (status == INVENT_OK)
        status = npy_save(file_in(path, dir, "vocab"), NPY_F64, 1, v, vocab);
    size_t count = gpt_tensor_count(s);
    tensor_ref t[count];
    gpt_tensors(w, NULL, t);
    for (size_t k = 0; k < count && status == INVENT_OK; k++)
        status = npy_save(file_in(path, dir, t[k].name), NPY_F64, t[k].ndim, t[k].shape,
                          t[k].value);
    return status;
}

/* dir/name.npy -> a 1-D float64 array of at most max numbers in out, *n of them */
static int read_numbers(const char *dir, const char *name, double *out, size_t max, size_t *n)
{
    char path[4096];
    npy_array a;
    int status = npy_load(file_in(path, dir, name), &a);
    if (status != INVENT_OK)
        return status;
    if (a.dtype != NPY_F64 || a.ndim != 1 || a.shape[0] > max)
        status = INVENT_EFORMAT;
    else
        memcpy(out, a.data, (*n = a.shape[0]) * sizeof(double));
    npy_free(&a);
    return status;
}

int checkpoint_peek(const char *dir, gpt_shape *shape, unsigned char *symbols, size_t *vocab)
{
    double f[SHAPE_FIELDS], v[256];
    size_t n, nv;
    int status = read_numbers(dir, "shape", f, SHAPE_FIELDS, &n);
    if (status == INVENT_OK && n != SHAPE_FIELDS)
        status = INVENT_EFORMAT;
    if (status == INVENT_OK)
        status = read_numbers(dir, "vocab", v, 256, &nv);
    if (status == INVENT_OK && (nv != (size_t)f[0] || nv == 0))
        status = INVENT_EFORMAT;
    if (status != INVENT_OK)
        return status;
    *shape = (gpt_shape){(size_t)f[0], (size_t)f[1], (size_t)f[2], (size_t)f[3],
                         (size_t)f[4], (size_t)f[5], f[6] != 0.0 ? BLOCK_POST_NORM : BLOCK_PRE_NORM};
    for (size_t k = 0; k < nv; k++)
        symbols[k] = (unsigned char)v[k];
    *vocab = nv;
    return INVENT_OK;
}

/* one tensor <- its file, which must have exactly its shape */
static int load_tensor(const char *dir, tensor_ref *t)
{
    char path[4096];
    npy_array a;
    int status = npy_load(file_in(path, dir, t->name), &a);
    if (status != INVENT_OK)
        return status;
    int fits = a.dtype == NPY_F64 && a.ndim == t->ndim && a.shape[0] == t->shape[0] &&
               (t->ndim == 1 || a.shape[1] == t->shape[1]);
    if (fits)
        memcpy(t->value, a.data, t->size * sizeof(double));
    npy_free(&a);
    return fits ? INVENT_OK : INVENT_ESHAPE;
}

int checkpoint_load(const char *dir, gpt_weights *w, char *bad, size_t len)
{
    size_t count = gpt_tensor_count(&w->shape);
    tensor_ref t[count];
    gpt_tensors(w, NULL, t);
    for (size_t k = 0; k < count; k++) {
        int status = load_tensor(dir, &t[k]);
        if (status != INVENT_OK) {
            snprintf(bad, len, "%s", t[k].name);
            return status;
        }
    }
    return INVENT_OK;
}

void checkpoint_remove(const char *dir, gpt_weights *w)
{
    char path[4096];
    size_t count = gpt_tensor_count(&w->shape);
    tensor_ref t[count];
    gpt_tensors(w, NULL, t);
    for (size_t k = 0; k < count; k++)
        unlink(file_in(path, dir, t[k].name));
    unlink(file_in(path, dir, "shape"));
    unlink(file_in(path, dir, "vocab"));
    int keep = errno;
    rmdir(dir);
    errno = keep;
}
