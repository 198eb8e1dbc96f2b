#include "ngram.h"

#include <math.h>
#include <stdlib.h>

#include "status.h"

size_t ngram_bytes(size_t order, size_t vocab)
{
    size_t cells = 1;
    for (size_t i = 0; i < order; i++) {
        if (vocab && cells > SIZE_MAX / vocab / sizeof(uint32_t))
            return 0;
        cells *= vocab;
    }
    return cells * sizeof(uint32_t);
}

/* the n-gram ending at token i (i >= n - 1) -> its cell, the context's digits first */
static size_t cell(const ngram *m, const uint8_t *tokens, size_t i)
{
    size_t at = 0;
    for (size_t j = m->order; j-- > 0;)
        at = at * m->vocab + tokens[i - j];
    return at;
}

int ngram_count(const corpus *c, size_t order, ngram **out)
{
    *out = NULL;
    if (order < 1 || order > NGRAM_MAX_ORDER || ngram_bytes(order, c->vocab) == 0)
        return INVENT_ERANGE;
    ngram *m = calloc(1, sizeof *m);
    if (!m)
        return INVENT_ENOMEM;
    *m = (ngram){.order = order, .vocab = c->vocab};
    m->counts = calloc(ngram_bytes(order, c->vocab), 1);
    m->totals = calloc(ngram_bytes(order - 1, c->vocab), 1);
    if (!m->counts || !m->totals) {
        ngram_free(m);
        return INVENT_ENOMEM;
    }
    for (size_t i = order - 1; i < c->n_train; i++) {
        size_t at = cell(m, c->tokens, i);
        m->counts[at]++;
        m->totals[at / m->vocab]++;
    }
    *out = m;
    return INVENT_OK;
}

void ngram_free(ngram *m)
{
    if (!m)
        return;
    free(m->counts);
    free(m->totals);
    free(m);
}

double ngram_loss(const ngram *m, const corpus *c, const size_t *starts, size_t B, size_t T,
                  double k)
{
    double sum = 0.0;
    size_t n = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t t = 1; t <= T; t++) {
            size_t i = starts[b] + t;
            if (i + 1 < m->order)
                continue; /* no full context at the very start of the corpus */
            size_t at = cell(m, c->tokens, i);
            double p = (m->counts[at] + k) / (m->totals[at / m->vocab] + k * (double)m->vocab);
            sum -= log(p);
            n++;
        }
    return n ? sum / (double)n : NAN;
}

double ngram_best_loss(const corpus *c, size_t order, const size_t *starts, size_t B, size_t T,
                       double *k_best)
{
    ngram *m;
    if (ngram_bytes(order, c->vocab) > ((size_t)1 << 28) || ngram_count(c, order, &m) != INVENT_OK)
        return NAN;
    const double ks[] = {1.0, 0.3, 0.1, 0.03, 0.01};
    double best = INFINITY;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double loss = ngram_loss(m, c, starts, B, T, ks[i]);
        if (loss < best)
            best = loss, *k_best = ks[i];
    }
    ngram_free(m);
    return best;
}
