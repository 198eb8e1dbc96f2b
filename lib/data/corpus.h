/* A text corpus for a character-level language model: the bytes of a file
 * (or of every text file in a folder), the alphabet of the bytes that occur,
 * each byte replaced by its index in that alphabet, and a fixed split by
 * pieces of text, so that every part of the corpus (every file, every genre)
 * is in each part of the split: the pieces are the fortunes (a piece ends
 * after a line holding only "%") or paragraphs (after an empty line); a text
 * with fewer than CORPUS_MIN_PIECES of them is cut into lines, and a text of
 * fewer lines into CORPUS_MIN_PIECES equal cuts. Of every ten pieces the
 * tenth is held out (scored once, at the end), the fifth is for validation
 * (choosing settings such as the learning rate) and the other eight train.
 * The tokens are stored part after part, each part in the text's order. */
#ifndef INVENT_CORPUS_H
#define INVENT_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/* Where Debian's `fortunes` package puts its text files. */
#define CORPUS_FORTUNES_DIR "/usr/share/games/fortunes"

typedef struct {
    uint8_t *tokens;         /* (n): the text, each byte as its index in symbols */
    size_t n;                /* characters in all */
    size_t n_train, n_valid; /* tokens [0, n_train) train, the next n_valid validate,
                              * [n_train + n_valid, n) are held out */
    size_t pieces;           /* how many pieces the text was cut into */
    size_t vocab;            /* V: distinct bytes in the text */
    unsigned char symbols[256]; /* symbols[k]: the byte of token k, in byte order */
    int index[256];          /* index[byte]: its token, or -1 when it never occurs */
    size_t files;            /* how many files were read */
} corpus;

typedef enum { CORPUS_TRAIN, CORPUS_VALID, CORPUS_HELDOUT } corpus_part;

/* The fewest pieces a text is cut into (two of them held out, two for validation). */
#define CORPUS_MIN_PIECES 20

/* The most text a corpus holds (64 MiB; the fortunes are about 6 MB). */
#define CORPUS_MAX_BYTES ((size_t)64 << 20)

/* path: a regular file, or a folder whose regular files named without a dot
 * (the fortunes layout: "art", not "art.dat") or ending in ".txt" are read
 * in name order -> *out. Opened without blocking and read with a limit:
 * INVENT_EIO with errno set when it cannot be opened or read, EINVAL when
 * it is neither a regular file nor a folder (a FIFO, a device, a socket),
 * EFBIG past CORPUS_MAX_BYTES; INVENT_EFORMAT when it holds no text
 * (empty, or a folder without such files); INVENT_ENOMEM */
int corpus_load(const char *path, corpus **out);

void corpus_free(corpus *c);

/* -> the first token and the length of one part */
size_t corpus_part_start(const corpus *c, corpus_part part);
size_t corpus_part_len(const corpus *c, corpus_part part);

/* B windows of T + 1 tokens drawn uniformly from one part (the part needs at
 * least T + 1 tokens) -> starts: (B) their positions in the corpus; the
 * same r gives the same windows */
int corpus_draw(const corpus *c, corpus_part part, size_t B, size_t T, gsl_rng *r,
                size_t *starts);

/* part, T, max -> starts: (count) the part cut into consecutive windows of T + 1
 * tokens overlapping by one (window i predicts tokens i T + 1 .. (i + 1) T of the
 * part, each once), at most max of them; -> count ((len - 1) / T, or max) */
size_t corpus_tile(const corpus *c, corpus_part part, size_t T, size_t max, size_t *starts);

/* starts: (B) windows -> x: (B*T) inputs, y: (B*T) next tokens, sequence b in
 * entries b*T .. b*T + T - 1 */
void corpus_window(const corpus *c, const size_t *starts, size_t B, size_t T, size_t *x,
                   size_t *y);

/* text: (n) bytes -> tokens: (n); INVENT_ERANGE at the first byte that is not
 * in the alphabet (*bad receives its position) */
int corpus_encode(const corpus *c, const char *text, size_t n, size_t *tokens, size_t *bad);

#endif
