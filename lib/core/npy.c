#include "npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "paths.h"
#include "status.h"

static const char MAGIC[] = "\x93NUMPY";
#define MAGIC_LEN 6
#define HEADER_ALIGN 64

static size_t dtype_size(npy_dtype t) { return t == NPY_F64 ? 8 : 4; }

/* shape -> number of elements, or INVENT_EOVERFLOW */
static int element_count(int ndim, const size_t *shape, uint64_t *count)
{
    uint64_t n = 1;
    for (int i = 0; i < ndim; i++)
        if (count_mul(n, shape[i], &n) != INVENT_OK)
            return INVENT_EOVERFLOW;
    *count = n;
    return INVENT_OK;
}

/* The header dictionary, padded with spaces and a newline to the alignment. */
static size_t format_header(char *buf, size_t cap, npy_dtype dtype, int ndim,
                            const size_t *shape)
{
    int n = snprintf(buf, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     dtype == NPY_F64 ? "<f8" : "<f4");
    for (int i = 0; i < ndim; i++) /* Python's tuples: (4,) and (2, 3) */
        n += snprintf(buf + n, cap - (size_t)n, "%s%zu%s", i ? ", " : "", shape[i],
                      ndim == 1 ? "," : "");
    n += snprintf(buf + n, cap - (size_t)n, "), }");
    size_t total = MAGIC_LEN + 2 + 2 + (size_t)n + 1;
    size_t padded = (total + HEADER_ALIGN - 1) / HEADER_ALIGN * HEADER_ALIGN;
    memset(buf + n, ' ', padded - total);
    buf[n + (padded - total)] = '\n';
    return (size_t)n + (padded - total) + 1;
}

int npy_save(const char *path, npy_dtype dtype, int ndim, const size_t *shape,
             const void *data)
{
    uint64_t count;
    if (ndim < 0 || ndim > NPY_MAX_DIMS)
        return INVENT_ERANGE;
    if (element_count(ndim, shape, &count) != INVENT_OK)
        return INVENT_EOVERFLOW;
    char header[512];
    size_t len = format_header(header, sizeof header, dtype, ndim, shape);
    unsigned char prefix[MAGIC_LEN + 4] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                           (unsigned char)(len & 0xff), (unsigned char)(len >> 8)};
    paths_file out; /* written beside path, renamed into place when whole */
    if (paths_file_open(&out, path) != 0)
        return INVENT_EIO;
    int ok = fwrite(prefix, 1, sizeof prefix, out.f) == sizeof prefix &&
             fwrite(header, 1, len, out.f) == len &&
             fwrite(data, dtype_size(dtype), count, out.f) == count;
    return paths_file_commit(&out, ok) == 0 ? INVENT_OK : INVENT_EIO;
}

int npy_save_matrix(const char *path, const gsl_matrix *m)
{
    size_t shape[2] = {m->size1, m->size2};
    if (m->tda == m->size2 || m->size1 == 0)
        return npy_save(path, NPY_F64, 2, shape, m->data);
    gsl_matrix *packed = gsl_matrix_alloc(m->size1, m->size2); /* a view: pack rows */
    if (!packed)
        return INVENT_ENOMEM;
    gsl_matrix_memcpy(packed, m);
    int status = npy_save(path, NPY_F64, 2, shape, packed->data);
    gsl_matrix_free(packed);
    return status;
}

/* "(3, 4)" at p -> shape, ndim; 0 on a malformed tuple */
static int parse_shape(const char *p, size_t *shape, int *ndim)
{
    *ndim = 0;
    if (*p++ != '(')
        return 0;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            return 1;
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || *ndim == NPY_MAX_DIMS)
            return 0;
        shape[(*ndim)++] = (size_t)v;
        p = end;
    }
}

/* header text -> dtype and shape; INVENT_EFORMAT for anything else */
static int parse_header(const char *h, npy_array *a)
{
    const char *descr = strstr(h, "'descr':");
    const char *order = strstr(h, "'fortran_order':");
    const char *shape = strstr(h, "'shape':");
    if (!descr || !order || !shape)
        return INVENT_EFORMAT;
    if (strncmp(descr + 8, " '<f8'", 6) == 0)
        a->dtype = NPY_F64;
    else if (strncmp(descr + 8, " '<f4'", 6) == 0)
        a->dtype = NPY_F32;
    else
        return INVENT_EFORMAT;
    if (strncmp(order + 16, " False", 6) != 0)
        return INVENT_EFORMAT;
    return parse_shape(shape + 9, a->shape, &a->ndim) ? INVENT_OK : INVENT_EFORMAT;
}

/* f after the magic -> the header text (caller frees), or NULL */
static char *read_header(FILE *f)
{
    unsigned char version[2], len_bytes[4];
    if (fread(version, 1, 2, f) != 2 || version[0] < 1 || version[0] > 3)
        return NULL;
    size_t width = version[0] == 1 ? 2 : 4, len = 0;
    if (fread(len_bytes, 1, width, f) != width)
        return NULL;
    for (size_t i = 0; i < width; i++)
        len |= (size_t)len_bytes[i] << (8 * i);
    if (len > 1 << 20)
        return NULL;
    char *h = malloc(len + 1);
    if (h && fread(h, 1, len, f) != len) {
        free(h);
        return NULL;
    }
    if (h)
        h[len] = '\0';
    return h;
}

static int read_body(FILE *f, npy_array *a)
{
    uint64_t count;
    if (element_count(a->ndim, a->shape, &count) != INVENT_OK || count > SIZE_MAX / 8)
        return INVENT_EFORMAT;
    size_t size = dtype_size(a->dtype);
    a->data = malloc(count ? count * size : 1);
    if (!a->data)
        return INVENT_ENOMEM;
    if (fread(a->data, size, count, f) != count || fgetc(f) != EOF) {
        npy_free(a);
        return INVENT_EFORMAT;
    }
    return INVENT_OK;
}

int npy_load(const char *path, npy_array *out)
{
    *out = (npy_array){0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return INVENT_EIO;
    char magic[MAGIC_LEN];
    char *header = NULL;
    int status = INVENT_EFORMAT;
    if (fread(magic, 1, MAGIC_LEN, f) == MAGIC_LEN && memcmp(magic, MAGIC, MAGIC_LEN) == 0 &&
        (header = read_header(f)) != NULL && parse_header(header, out) == INVENT_OK)
        status = read_body(f, out);
    free(header);
    fclose(f);
    return status;
}

int npy_load_matrix(const char *path, gsl_matrix **out)
{
    npy_array a;
    *out = NULL;
    int status = npy_load(path, &a);
    if (status != INVENT_OK)
        return status;
    if (a.ndim != 2 || a.shape[0] == 0 || a.shape[1] == 0) {
        npy_free(&a);
        return INVENT_ESHAPE;
    }
    gsl_matrix *m = gsl_matrix_alloc(a.shape[0], a.shape[1]);
    if (m)
        for (size_t i = 0; i < a.shape[0] * a.shape[1]; i++)
            m->data[i] = a.dtype == NPY_F64 ? ((double *)a.data)[i] : ((float *)a.data)[i];
    npy_free(&a);
    *out = m;
    return m ? INVENT_OK : INVENT_ENOMEM;
}

void npy_free(npy_array *a)
{
    free(a->data);
    a->data = NULL;
}
