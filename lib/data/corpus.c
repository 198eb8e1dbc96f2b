#define _GNU_SOURCE /* scandirat */
#include "corpus.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"

/* The text as it is read: bytes appended to a growing buffer, never more
 * than CORPUS_MAX_BYTES in all. */
typedef struct {
    unsigned char *bytes;
    size_t n, cap;
} buffer;

/* fd (a regular file, open) -> its bytes appended to b; INVENT_EIO with errno
 * EFBIG once the text passes CORPUS_MAX_BYTES (the file may grow while it
 * is read, so the limit holds for the reads, not only for fstat's size) */
static int append_fd(buffer *b, int fd)
{
    for (;;) {
        if (b->cap - b->n < 65536) {
            size_t cap = 2 * b->cap + 65536;
            cap = cap > CORPUS_MAX_BYTES + 1 ? CORPUS_MAX_BYTES + 1 : cap;
            unsigned char *more = cap > b->cap ? realloc(b->bytes, cap) : b->bytes;
            if (!more)
                return INVENT_ENOMEM;
            b->bytes = more, b->cap = cap;
        }
        if (b->n == b->cap) { /* CORPUS_MAX_BYTES + 1 read */
            errno = EFBIG;
            return INVENT_EIO;
        }
        ssize_t got = read(fd, b->bytes + b->n, b->cap - b->n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return got == 0 ? INVENT_OK : INVENT_EIO;
        b->n += (size_t)got;
    }
}

/* name (relative to the folder at, or AT_FDCWD) -> *fd open for reading and
 * *st, without blocking: O_NONBLOCK, so that a FIFO nobody writes is
 * refused by fstat instead of hanging open or read */
static int open_quietly(int at, const char *name, int flags, int *fd, struct stat *st)
{
    *fd = openat(at, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
    if (*fd < 0)
        return INVENT_EIO;
    if (fstat(*fd, st) == 0)
        return INVENT_OK;
    int keep = errno;
    close(*fd);
    errno = keep;
    return INVENT_EIO;
}

/* fd, st (open) -> its bytes appended to b when it is a regular file whose
 * size fits what is left of the limit (errno EINVAL or EFBIG otherwise);
 * fd is closed */
static int append_regular(buffer *b, int fd, const struct stat *st)
{
    int status = INVENT_EIO;
    if (!S_ISREG(st->st_mode))
        errno = EINVAL;
    else if ((uintmax_t)st->st_size > CORPUS_MAX_BYTES - b->n)
        errno = EFBIG;
    else
        status = append_fd(b, fd);
    int keep = errno;
    close(fd);
    errno = keep;
    return status;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* text names: no dot (the fortunes layout: "art", not "art.dat" or
 * "art.u8", its indexes and links) or a name ending in ".txt"; no hidden
 * file */
static int is_text_name(const struct dirent *e)
{
    const char *dot = strchr(e->d_name, '.');
    size_t len = strlen(e->d_name);
    return e->d_name[0] != '.' &&
           (!dot || (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0));
}

/* folder (open as dir) -> its regular files with text names, in name order,
 * appended to b; anything else there (links, FIFOs, folders) is skipped */
static int append_folder(buffer *b, int dir, size_t *files)
{
    struct dirent **names;
    int n = scandirat(dir, ".", &names, is_text_name, by_name);
    if (n < 0)
        return INVENT_EIO;
    int status = INVENT_OK;
    for (int i = 0; i < n; i++) {
        int fd;
        struct stat st;
        if (status == INVENT_OK &&
            open_quietly(dir, names[i]->d_name, O_NOFOLLOW, &fd, &st) == INVENT_OK) {
            if (S_ISREG(st.st_mode)) {
                status = append_regular(b, fd, &st);
                *files += status == INVENT_OK;
            } else
                close(fd);
        }
        free(names[i]);
    }
    free(names);
    return status;
}

/* Where piece i of the text goes: every tenth piece (the tenth, twentieth, ...) to
 * the held-out part, the fifth of every ten to validation, the rest to training. */
static corpus_part part_of_piece(size_t i)
{
    return i % 10 == 9 ? CORPUS_HELDOUT : i % 10 == 4 ? CORPUS_VALID : CORPUS_TRAIN;
}

/* bytes: (n) -> ends: the end of each piece (at most n entries), their count: a piece ends
 * after a line that is "%" (the fortunes' separator) or empty (a paragraph) when
 * whole_lines is 0, after every line when 1 */
static size_t find_pieces(const unsigned char *bytes, size_t n, int whole_lines, size_t *ends)
{
    size_t count = 0, line = 0;
    for (size_t i = 0; i < n; i++) {
        if (bytes[i] != '\n')
            continue;
        size_t len = i - line;
        if (whole_lines || len == 0 || (len == 1 && bytes[line] == '%'))
            ends[count++] = i + 1;
        line = i + 1;
    }
    if (count == 0 || ends[count - 1] != n)
        ends[count++] = n;
    return count;
}

/* bytes: (n) -> the ends of at least CORPUS_MIN_PIECES pieces: fortunes or paragraphs,
 * else lines, else equal cuts of the bytes (a text of one line) */
static size_t cut_pieces(const unsigned char *bytes, size_t n, size_t *ends)
{
    size_t count = find_pieces(bytes, n, 0, ends);
    if (count < CORPUS_MIN_PIECES)
        count = find_pieces(bytes, n, 1, ends);
    if (count < CORPUS_MIN_PIECES && n >= CORPUS_MIN_PIECES) {
        count = CORPUS_MIN_PIECES;
        for (size_t i = 0; i < count; i++)
            ends[i] = (i + 1) * n / count;
    }
    return count;
}

/* c->n bytes -> out: the same bytes with the pieces regrouped part by part (training,
 * validation, held-out), each part in the text's order; c->n_train, n_valid, pieces set */
static int split_by_piece(corpus *c, const unsigned char *bytes, unsigned char *out)
{
    size_t *ends = malloc((c->n + 1) * sizeof *ends);
    if (!ends)
        return INVENT_ENOMEM;
    c->pieces = cut_pieces(bytes, c->n, ends);
    size_t at = 0, len[3] = {0};
    for (corpus_part part = CORPUS_TRAIN; part <= CORPUS_HELDOUT; part++)
        for (size_t i = 0, start = 0; i < c->pieces; start = ends[i++])
            if (part_of_piece(i) == part) {
                memcpy(out + at, bytes + start, ends[i] - start);
                at += ends[i] - start, len[part] += ends[i] - start;
            }
    free(ends);
    c->n_train = len[CORPUS_TRAIN], c->n_valid = len[CORPUS_VALID];
    return INVENT_OK;
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
    int fd;
    struct stat st;
    if (open_quietly(AT_FDCWD, path, 0, &fd, &st) != INVENT_OK)
        return INVENT_EIO;
    buffer b = {0};
    size_t files = 0;
    int status;
    if (S_ISDIR(st.st_mode)) {
        status = append_folder(&b, fd, &files);
        int keep = errno;
        close(fd);
        errno = keep;
    } else {
        files = 1;
        status = append_regular(&b, fd, &st);
    }
    corpus *c = status == INVENT_OK ? calloc(1, sizeof *c) : NULL;
    if (status == INVENT_OK && b.n == 0)
        status = INVENT_EFORMAT;
    else if (status == INVENT_OK && !c)
        status = INVENT_ENOMEM;
    unsigned char *split = status == INVENT_OK ? malloc(b.n) : NULL;
    if (status == INVENT_OK) {
        *c = (corpus){.tokens = split, .n = b.n, .files = files};
        status = split ? split_by_piece(c, b.bytes, split) : INVENT_ENOMEM;
    }
    if (status == INVENT_OK) {
        /* the regrouped bytes are recoded in place: they become the token array */
        build_alphabet(c, split);
        free(b.bytes);
        *out = c;
        return INVENT_OK;
    }
    free(split);
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
    return part == CORPUS_TRAIN ? 0 : part == CORPUS_VALID ? c->n_train : c->n_train + c->n_valid;
}

size_t corpus_part_len(const corpus *c, corpus_part part)
{
    return part == CORPUS_TRAIN ? c->n_train
         : part == CORPUS_VALID ? c->n_valid
                                : c->n - c->n_train - c->n_valid;
}

size_t corpus_tile(const corpus *c, corpus_part part, size_t T, size_t max, size_t *starts)
{
    size_t len = corpus_part_len(c, part), count = T ? (len > 0 ? (len - 1) / T : 0) : 0;
    count = count < max ? count : max;
    for (size_t i = 0; i < count; i++)
        starts[i] = corpus_part_start(c, part) + i * T;
    return count;
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
