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
#include "private_dir.h"
#include "rng.h"
#include "status.h"

static char file[PATH_MAX];

/* the test's own folder, the corpus file "text" in it */
static void make_dir(void)
{
    private_dir_make();
    private_path(file, sizeof file, "text");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

TestSuite(corpus, .init = make_dir, .fini = private_dir_remove);

Test(corpus, alphabet_and_tokens)
{
    write_file(file, "abracadabra abracadabra");
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    cr_assert_eq(c->n, 23);
    cr_assert_eq(c->vocab, 6); /* ' ', a, b, c, d, r in byte order */
    cr_assert_eq(c->symbols[0], ' ');
    cr_assert_eq(c->tokens[0], 1);
    cr_assert_eq(c->index['z'], -1);
    corpus_free(c);
}

/* the part's text, decoded -> out (NUL-terminated, at most cap - 1 bytes) */
static void part_text(const corpus *c, corpus_part part, char *out, size_t cap)
{
    size_t len = corpus_part_len(c, part), at = corpus_part_start(c, part);
    cr_assert_lt(len, cap);
    for (size_t i = 0; i < len; i++)
        out[i] = (char)c->symbols[c->tokens[at + i]];
    out[len] = 0;
}

/* count fortunes "q<i>" separated by lines "%" -> file */
static void write_fortunes(size_t count)
{
    char text[1024] = "";
    for (size_t i = 0; i < count; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "q%zu\n%%\n", i);
    write_file(file, text);
}

Test(corpus, every_tenth_fortune_is_held_out_and_every_fifth_of_ten_validates)
{
    write_fortunes(30);
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    char held[256], valid[256], train[512];
    part_text(c, CORPUS_HELDOUT, held, sizeof held);
    part_text(c, CORPUS_VALID, valid, sizeof valid);
    part_text(c, CORPUS_TRAIN, train, sizeof train);
    cr_assert_eq(c->pieces, 30);
    /* from the whole text, not its end: the near miss (the last 10% held out) gives q27-q29 */
    cr_assert_str_eq(held, "q9\n%\nq19\n%\nq29\n%\n");
    cr_assert_str_eq(valid, "q4\n%\nq14\n%\nq24\n%\n");
    cr_assert(strncmp(train, "q0\n%\nq1\n%\nq2\n%\nq3\n%\nq5\n", 19) == 0);
    cr_assert_eq(corpus_part_len(c, CORPUS_TRAIN) + corpus_part_len(c, CORPUS_VALID) +
                     corpus_part_len(c, CORPUS_HELDOUT), c->n);
    corpus_free(c);
}

Test(corpus, a_text_of_few_pieces_is_cut_into_lines_then_into_equal_parts)
{
    char text[256] = "";
    for (int i = 0; i < 20; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "l%d\n", i);
    write_file(file, text); /* no "%" and no empty line: one paragraph of 20 lines */
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    char held[64];
    part_text(c, CORPUS_HELDOUT, held, sizeof held);
    cr_assert_eq(c->pieces, 20);
    cr_assert_str_eq(held, "l9\nl19\n");
    corpus_free(c);
    write_file(file, "0123456789abcdefghijklmnopqrstuvwxyzABCD"); /* one line of 40 */
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    part_text(c, CORPUS_HELDOUT, held, sizeof held);
    cr_assert_str_eq(held, "ijCD"); /* the 10th and 20th cuts of 2 characters */
    size_t starts[8];
    cr_assert_eq(corpus_tile(c, CORPUS_HELDOUT, 1, 8, starts), 3);
    cr_assert_eq(starts[2], c->n_train + c->n_valid + 2);
    cr_assert_eq(corpus_tile(c, CORPUS_TRAIN, 5, 2, starts), 2); /* at most max */
    corpus_free(c);
}

Test(corpus, a_folder_reads_its_text_files_in_name_order)
{
    char path[PATH_MAX];
    private_path(path, sizeof path, "b");
    write_file(path, "second");
    private_path(path, sizeof path, "a");
    write_file(path, "first ");
    private_path(path, sizeof path, "a.dat");
    write_file(path, "index, not text");
    corpus *c;
    cr_assert_eq(corpus_load(private_dir, &c), INVENT_OK);
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
    cr_assert_eq(corpus_load(private_dir, &c), INVENT_EFORMAT); /* "text" is empty, nothing else */
}

/* Issue 28: what is not a regular file is refused at once (a FIFO nobody
 * writes, /dev/zero), a file past the limit before it is read; in a folder,
 * names ending in .txt are text too and a FIFO among them is skipped. */
Test(corpus, fifos_devices_and_huge_files_are_refused_without_reading)
{
    corpus *c;
    char path[PATH_MAX];
    private_path(path, sizeof path, "fifo");
    cr_assert_eq(mkfifo(path, 0600), 0);
    cr_assert_eq(corpus_load(path, &c), INVENT_EIO);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(corpus_load("/dev/zero", &c), INVENT_EIO);
    cr_assert_eq(errno, EINVAL);
    private_path(path, sizeof path, "big");
    write_file(path, "x");
    cr_assert_eq(truncate(path, (off_t)CORPUS_MAX_BYTES + 1), 0); /* sparse: no disk used */
    cr_assert_eq(corpus_load(path, &c), INVENT_EIO);
    cr_assert_eq(errno, EFBIG);
    cr_assert_eq(truncate(path, (off_t)CORPUS_MAX_BYTES), 0); /* the limit itself is read */
    cr_assert_eq(corpus_load(path, &c), INVENT_OK);
    cr_assert_eq(c->n, CORPUS_MAX_BYTES);
    corpus_free(c);
    unlink(path);
    private_path(path, sizeof path, "c.txt");
    write_file(path, "third");
    private_path(path, sizeof path, "a");
    write_file(path, "first ");
    cr_assert_eq(corpus_load(private_dir, &c), INVENT_OK); /* a, c.txt; the FIFO and "text" skipped */
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
    char text[128] = "";
    for (int i = 0; i < 20; i++)
        strcat(text, "ab\n"); /* 20 lines: 16 train, the 5th and 15th validate */
    write_file(file, text);
    corpus *c;
    cr_assert_eq(corpus_load(file, &c), INVENT_OK);
    cr_assert_eq(c->n_train, 48);
    ngram *uni, *bi;
    cr_assert_eq(ngram_count(c, 1, &uni), INVENT_OK);
    cr_assert_eq(ngram_count(c, 2, &bi), INVENT_OK);
    size_t start = 0;
    /* unigram: 16 of each of the 3 symbols, so -log 1/3 whatever the target */
    cr_assert_float_eq(ngram_loss(uni, c, &start, 1, 4, 1.0), log(3.0), 1e-12);
    /* bigram: in training "ab" 16 times out of 16 a, "b\n" 16 of 16 b: (count + k)/(total + 3k) */
    double want = -log((16.0 + 0.5) / (16.0 + 1.5));
    cr_assert_float_eq(ngram_loss(bi, c, &start, 1, 2, 0.5), want, 1e-12);
    ngram *four;
    cr_assert_eq(ngram_count(c, 4, &four), INVENT_ERANGE);
    cr_assert_null(four);
    ngram_free(uni);
    ngram_free(bi);
    corpus_free(c);
}
