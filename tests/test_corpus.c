/* Unit tests: loading a corpus, its alphabet and split, windows, and the
 * count-based baselines. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"
#include "ngram.h"
#include "paths.h"
#include "rng.h"
#include "status.h"

static char dir[64], file[96];

#define SCRATCH_NAMES 7

static void make_dir(void)
{
    const char *tmp = paths_temp_dir();
    snprintf(dir, sizeof dir, "%.40s/invent-corpus-%d", tmp, (int)getpid());
    mkdir(dir, 0700);
    snprintf(file, sizeof file, "%s/text", dir);
}

static void remove_dir(void)
{
    char path[128];
    const char *names[SCRATCH_NAMES] = {"text", "b", "a", "a.dat", "c.txt", "fifo", "big"};
    for (size_t k = 0; k < SCRATCH_NAMES; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
    rmdir(dir);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

TestSuite(corpus, .init = make_dir, .fini = remove_dir);

Test(corpus, alphabet_tokens_and_a_ninety_ten_split)
{
    write_file(file, "abracadabra abracadabra");
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    cr_assert_eq(c->n, 23);
    cr_assert_eq(c->vocab, 6); /* ' ', a, b, c, d, r in byte order */
    cr_assert_eq(c->symbols[0], ' ');
    cr_assert_eq(c->tokens[0], 1);
    cr_assert_eq(c->index['z'], -1);
    cr_assert_eq(c->n_train, 21);
    cr_assert_eq(corpus_part_len(c, CORPUS_VALID), 2);
    corpus_free(c);
}

Test(corpus, a_folder_reads_its_text_files_in_name_order)
{
    char path[128];
    snprintf(path, sizeof path, "%s/b", dir);
    write_file(path, "second");
    snprintf(path, sizeof path, "%s/a", dir);
    write_file(path, "first ");
    snprintf(path, sizeof path, "%s/a.dat", dir);
    write_file(path, "index, not text");
    corpus *c;
    cr_assert_eq(corpus_load(dir, &c), INVENT_OK);
    cr_assert_eq(c->files, 2);
    cr_assert_eq(c->n, 12);
    cr_assert_eq(c->symbols[c->tokens[0]], 'f');
    cr_assert_eq(c->symbols[c->tokens[6]], 's');
    corpus_free(c);
}

Test(corpus, missing_and_empty_files_are_refused)
{
    corpus *c;
    cr_assert_eq(corpus_load("/nonexistent/corpus", &c), INVENT_EIO);
    cr_assert_eq(errno, ENOENT);
    cr_assert_null(c);
    write_file(file, "");
    cr_assert_eq(corpus_load(file, &c), INVENT_EFORMAT);
    cr_assert_eq(corpus_load(dir, &c), INVENT_EFORMAT); /* "text" is empty, nothing else */
}

/* Issue 28: what is not a regular file is refused at once (a FIFO nobody
 * writes, /dev/zero), a file past the limit before it is read; in a folder,
 * names ending in .txt are text too and a FIFO among them is skipped. */
Test(corpus, fifos_devices_and_huge_files_are_refused_without_reading)
{
    corpus *c;
    char path[128];
    snprintf(path, sizeof path, "%s/fifo", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    cr_assert_eq(corpus_load(path, &c), INVENT_EIO);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(corpus_load("/dev/zero", &c), INVENT_EIO);
    cr_assert_eq(errno, EINVAL);
    snprintf(path, sizeof path, "%s/big", dir);
    write_file(path, "x");
    cr_assert_eq(truncate(path, (off_t)CORPUS_MAX_BYTES + 1), 0); /* sparse: no disk used */
    cr_assert_eq(corpus_load(path, &c), INVENT_EIO);
    cr_assert_eq(errno, EFBIG);
    cr_assert_eq(truncate(path, (off_t)CORPUS_MAX_BYTES), 0); /* the limit itself is read */
    cr_assert_eq(corpus_load(path, &c), INVENT_OK);
    cr_assert_eq(c->n, CORPUS_MAX_BYTES);
    corpus_free(c);
    unlink(path);
    snprintf(path, sizeof path, "%s/c.txt", dir);
    write_file(path, "third");
    snprintf(path, sizeof path, "%s/a", dir);
    write_file(path, "first ");
    cr_assert_eq(corpus_load(dir, &c), INVENT_OK); /* a, c.txt; the FIFO and "text" skipped */
    cr_assert_eq(c->files, 2);
    cr_assert_eq(c->n, 11);
    corpus_free(c);
}

Test(corpus, windows_stay_inside_their_part_and_targets_are_shifted)
{
    write_file(file, "0123456789012345678901234567890123456789");
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    gsl_rng *r = rng_new(4);
    size_t starts[50], x[50 * 3], y[50 * 3];
    cr_assert_eq(corpus_draw(c, CORPUS_VALID, 50, 3, r, starts), INVENT_OK);
    for (size_t b = 0; b < 50; b++)
        cr_assert(starts[b] >= c->n_train && starts[b] + 3 < c->n);
    corpus_window(c, starts, 50, 3, x, y);
    cr_assert_eq(y[0], x[1]);
    cr_assert_eq(corpus_draw(c, CORPUS_VALID, 1, 4, r, starts), INVENT_ERANGE); /* 4 tokens only */
    size_t enc[3], bad;
    cr_assert_eq(corpus_encode(c, "012", 3, enc, NULL), INVENT_OK);
    cr_assert_eq(corpus_encode(c, "01x", 3, enc, &bad), INVENT_ERANGE);
    cr_assert_eq(bad, 2);
    gsl_rng_free(r);
    corpus_free(c);
}

Test(corpus, ngram_losses_are_the_smoothed_counts)
{
    write_file(file, "abababababababababab"); /* train: 18 characters */
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    ngram *uni, *bi;
    cr_assert_eq(ngram_count(c, 1, &uni), INVENT_OK);
    cr_assert_eq(ngram_count(c, 2, &bi), INVENT_OK);
    size_t start = 0;
    /* unigram: 9 a and 9 b, so -log 1/2 whatever the target */
    cr_assert_float_eq(ngram_loss(uni, c, &start, 1, 4, 1.0), log(2.0), 1e-12);
    /* bigram: in training "ab" 9 times out of 9 a, "ba" 8 out of 8 b: (count + k)/(total + 2k) */
    double want_ab = -log((9.0 + 0.5) / (9.0 + 1.0)), want_ba = -log((8.0 + 0.5) / (8.0 + 1.0));
    cr_assert_float_eq(ngram_loss(bi, c, &start, 1, 2, 0.5), (want_ab + want_ba) / 2, 1e-12);
    ngram *four;
    cr_assert_eq(ngram_count(c, 4, &four), INVENT_ERANGE);
    cr_assert_null(four);
    ngram_free(uni);
    ngram_free(bi);
    corpus_free(c);
}
