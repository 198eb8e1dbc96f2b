/* Count-based language models, the baselines a trained model must beat: the
 * probability of the next character given the n - 1 before it, read from
 * counts over the training text, with add-k smoothing
 *   P(c | h) = (count(h c) + k) / (count(h) + k V).
 * Order 1 is the unigram (no context), 2 the bigram, 3 the trigram. */
#ifndef INVENT_NGRAM_H
#define INVENT_NGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "corpus.h"

#define NGRAM_MAX_ORDER 3

typedef struct {
    size_t order;     /* n */
    size_t vocab;     /* V */
    uint32_t *counts; /* (V^n): count of each n-gram in the training part */
    uint32_t *totals; /* (V^(n-1)): count of each context */
} ngram;

/* -> how many bytes the counts of order n take for V symbols (0 if that overflows) */
size_t ngram_bytes(size_t order, size_t vocab);

/* c, n in 1..NGRAM_MAX_ORDER -> *out, counted over the training part;
 * INVENT_ERANGE for another n, INVENT_ENOMEM */
int ngram_count(const corpus *c, size_t order, ngram **out);

void ngram_free(ngram *m);

/* starts: (B) windows of T next tokens (as corpus_window reads them), k > 0
 * -> the mean of -log P(y | the n - 1 tokens before y) over the B*T targets, in nats;
 * the context is read from the corpus, so it reaches back before a window's start */
double ngram_loss(const ngram *m, const corpus *c, const size_t *starts, size_t B, size_t T,
                  double k);

/* c, n, starts: (B) windows of T next tokens -> the lowest ngram_loss over a
 * few add-k smoothings (k from 1 to 0.01), chosen on these windows themselves
 * (the baseline's best chance), and that k in *k_best; NAN when the counts of
 * order n would take more than 256 MiB (left out), or on no memory */
double ngram_best_loss(const corpus *c, size_t order, const size_t *starts, size_t B, size_t T,
                       double *k_best);

#endif
