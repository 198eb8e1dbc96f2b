#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The largest extent of one axis a file may claim (2^40): far beyond any
 * tensor here, small enough that a product of two stays in 64 bits. */
#define NPY_MAX_EXTENT ((uint64_t)1 << 40)

/* "(3, 4)" at p -> shape, ndim; 0 on a malformed tuple (a sign, a
 * fraction, an extent past NPY_MAX_EXTENT, more than NPY_MAX_DIMS axes) */
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
        if (*p < '0' || *p > '9' || *ndim == NPY_MAX_DIMS)
            return 0;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || v > NPY_MAX_EXTENT || (*end != ',' && *end != ')' && *end != ' '))
            return 0;
        shape[(*ndim)++] = (size_t)v;
        p = end;
    }
}

/* header text -> dtype and shape; INVENT_EFORMAT for anything else, *why
 * saying what */
static int parse_header(const char *h, npy_array *a, const char **why)
{
    const char *descr = strstr(h, "'descr':");
    const char *order = strstr(h, "'fortran_order':");
    const char *shape = strstr(h, "'shape':");
    *why = "its header lacks descr, fortran_order or shape";
    if (!descr || !order || !shape)
        return INVENT_EFORMAT;
    if (strncmp(descr + 8, " '<f8'", 6) == 0)
        a->dtype = NPY_F64;
    else if (strncmp(descr + 8, " '<f4'", 6) == 0)
        a->dtype = NPY_F32;
    else {
        *why = strncmp(descr + 8, " '>f", 4) == 0 ? "big-endian values (little-endian expected)"
                                                  : "a dtype other than float64 or float32";
        return INVENT_EFORMAT;
    }
    *why = "Fortran order (C order expected)";
    if (strncmp(order + 16, " False", 6) != 0)
        return INVENT_EFORMAT;
    *why = "its shape is not a tuple of whole numbers up to 2^40";
    return parse_shape(shape + 9, a->shape, &a->ndim) ? INVENT_OK : INVENT_EFORMAT;
}

/* f after the magic -> the header text (caller frees) and *end, the offset
 * of the data; or NULL */
static char *read_header(FILE *f, size_t *end)
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
    *end = MAGIC_LEN + 2 + width + len;
    return h;
}

/* f at the data, file_size bytes in all, data from offset start -> a->data;
 * the file's size must be exactly what the shape says, checked before
 * anything is allocated */
static int read_body(FILE *f, size_t start, uint64_t file_size, npy_array *a, const char **why)
{
    uint64_t count, bytes;
    size_t size = dtype_size(a->dtype);
    *why = "its size does not match the shape in its header";
    if (element_count(a->ndim, a->shape, &count) != INVENT_OK ||
        count_mul(count, size, &bytes) != INVENT_OK || bytes > SIZE_MAX ||
        file_size < start || file_size - start != bytes)
        return INVENT_EFORMAT;
    a->data = malloc(count ? count * size : 1);
    if (!a->data)
        return INVENT_ENOMEM;
    if (fread(a->data, size, count, f) != count || fgetc(f) != EOF) {
        npy_free(a);
        return INVENT_EFORMAT;
    }
    return INVENT_OK;
}

/* path -> f open for reading and its size, without blocking: a FIFO or a
 * device is refused by fstat (*why), not opened for a read that waits */
static int open_regular(const char *path, FILE **f, uint64_t *size, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return INVENT_EIO;
    struct stat st;
    int status = fstat(fd, &st) != 0 ? INVENT_EIO : S_ISREG(st.st_mode) ? INVENT_OK : INVENT_EFORMAT;
    if (status == INVENT_OK && !(*f = fdopen(fd, "rb")))
        status = INVENT_EIO;
    if (status == INVENT_OK) {
        *size = (uint64_t)st.st_size;
        return INVENT_OK;
    }
    int keep = errno;
    close(fd);
    errno = keep;
    *why = "not a regular file";
    return status;
}

int npy_read(const char *path, npy_array *out, const char **why)
{
    const char *unused;
    why = why ? why : &unused;
    *out = (npy_array){0};
    *why = "";
    FILE *f;
    uint64_t size;
    int status = open_regular(path, &f, &size, why);
    if (status != INVENT_OK)
        return status;
    char magic[MAGIC_LEN];
    char *header = NULL;
    size_t start = 0;
    status = INVENT_EFORMAT;
    *why = "not a .npy file (no magic string or header)";
    if (fread(magic, 1, MAGIC_LEN, f) == MAGIC_LEN && memcmp(magic, MAGIC, MAGIC_LEN) == 0 &&
        (header = read_header(f, &start)) != NULL)
        status = parse_header(header, out, why);
    if (status == INVENT_OK)
        status = read_body(f, start, size, out, why);
    free(header);
    fclose(f);
    return status;
}

int npy_load(const char *path, npy_array *out)
{
    return npy_read(path, out, NULL);
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
