#include "corpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "status.h"

/* The text as it is read: bytes appended to a growing buffer. */
typedef struct {
    unsigned char *bytes;
    size_t n, cap;
} buffer;

/* file at path -> its bytes appended to b */
static int append_file(buffer *b, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return INVENT_EIO;
    int status = INVENT_OK;
    for (;;) {
        if (b->cap - b->n < 65536) {
            size_t cap = 2 * b->cap + 65536;
            unsigned char *more = realloc(b->bytes, cap);
            if (!more) {
                status = INVENT_ENOMEM;
                break;
            }
            b->bytes = more, b->cap = cap;
        }
        size_t got = fread(b->bytes + b->n, 1, b->cap - b->n, f);
        b->n += got;
        if (got == 0) {
            status = ferror(f) ? INVENT_EIO : INVENT_OK;
            break;
        }
    }
    int keep = errno;
    fclose(f);
    errno = keep;
    return status;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* the fortunes layout: plain names hold text, "x.dat" and "x.u8" are indexes and links */
static int is_text_name(const struct dirent *e)
{
    return e->d_name[0] != '.' && !strchr(e->d_name, '.');
}

/* folder -> the regular files with text names, in name order, appended to b */
static int append_folder(buffer *b, const char *dir, size_t *files)
{
    struct dirent **names;
    int n = scandir(dir, &names, is_text_name, by_name);
    if (n < 0)
        return INVENT_EIO;
    int status = INVENT_OK;
    char path[4096];
    for (int i = 0; i < n; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (status == INVENT_OK && lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            status = append_file(b, path);
            *files += status == INVENT_OK;
        }
        free(names[i]);
    }
    free(names);
    return status;
}

/* c->tokens <- bytes through the alphabet of the bytes present */
static void build_alphabet(corpus *c, const unsigned char *bytes)
{
    size_t seen[256] = {0};
    for (size_t i = 0; i < c->n; i++)
        seen[bytes[i]]++;
    for (int k = 0; k < 256; k++) {
        c->index[k] = seen[k] ? (int)c->vocab : -1;
        if (seen[k])
            c->symbols[c->vocab++] = (unsigned char)k;
    }
    for (size_t i = 0; i < c->n; i++)
        c->tokens[i] = (uint8_t)c->index[bytes[i]];
}

int corpus_load(const char *path, corpus **out)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return INVENT_EIO;
    buffer b = {0};
    size_t files = 0;
    int status = S_ISDIR(st.st_mode) ? append_folder(&b, path, &files)
                                     : (files = 1, append_file(&b, path));
    corpus *c = status == INVENT_OK ? calloc(1, sizeof *c) : NULL;
    if (status == INVENT_OK && b.n == 0)
        status = INVENT_EFORMAT;
    else if (status == INVENT_OK && !c)
        status = INVENT_ENOMEM;
    if (status == INVENT_OK) {
        /* the bytes are recoded in place: the buffer becomes the token array */
        *c = (corpus){.tokens = b.bytes, .n = b.n, .n_train = b.n - b.n / 10, .files = files};
        build_alphabet(c, b.bytes);
        *out = c;
        return INVENT_OK;
    }
    int keep = errno;
    free(b.bytes);
    free(c);
    errno = keep;
    return status;
}

void corpus_free(corpus *c)
{
    if (!c)
        return;
    free(c->tokens);
    free(c);
}

size_t corpus_part_start(const corpus *c, corpus_part part)
{
    return part == CORPUS_TRAIN ? 0 : c->n_train;
}

size_t corpus_part_len(const corpus *c, corpus_part part)
{
    return part == CORPUS_TRAIN ? c->n_train : c->n - c->n_train;
}

int corpus_draw(const corpus *c, corpus_part part, size_t B, size_t T, gsl_rng *r,
                size_t *starts)
{
    size_t len = corpus_part_len(c, part);
    if (T == 0 || len < T + 1)
        return INVENT_ERANGE;
    for (size_t b = 0; b < B; b++)
        starts[b] = corpus_part_start(c, part) + gsl_rng_uniform_int(r, len - T);
    return INVENT_OK;
}

void corpus_window(const corpus *c, const size_t *starts, size_t B, size_t T, size_t *x,
                   size_t *y)
{
    for (size_t b = 0; b < B; b++)
        for (size_t t = 0; t < T; t++) {
            x[b * T + t] = c->tokens[starts[b] + t];
            y[b * T + t] = c->tokens[starts[b] + t + 1];
        }
}

int corpus_encode(const corpus *c, const char *text, size_t n, size_t *tokens, size_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        int k = c->index[(unsigned char)text[i]];
        if (k < 0) {
            if (bad)
                *bad = i;
            return INVENT_ERANGE;
        }
        tokens[i] = (size_t)k;
    }
    return INVENT_OK;
}
