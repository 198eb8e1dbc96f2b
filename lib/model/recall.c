#include "recall.h"

#include <math.h>

#include <gsl/gsl_matrix.h>

#include "linalg.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

/* The read-out is least squares through the normal equations, with a ridge
 * of this fraction of the mean eigenvalue (a rank-deficient memory stays
 * well posed) whose bias RECALL_REFINE refinement steps then remove. */
#define RECALL_RIDGE 1e-12
#define RECALL_REFINE 3

/* Fresh sequences the read-out is tested on. */
#define RECALL_TEST 256

/* Sequences the read-out is fitted on, for a memory of `features` numbers. */
static size_t training_sequences(size_t features)
{
    return 2 * features + 200;
}

/* Fills row s of memory and targets from one random sequence of n inputs. */
static int record_sequence(const rnn_cell *c, memory_kind kind, gsl_rng *r, gsl_matrix *X,
                           gsl_matrix *H, gsl_matrix *memory, gsl_matrix *targets, size_t s)
{
    rng_fill_gaussian(X, r, 1.0);
    int status = rnn_unroll(c, X, H);
    if (status != INVENT_OK)
        return status;
    size_t n = X->size1, m = H->size2, p = X->size2;
    for (size_t t = 0; t < n; t++)
        for (size_t j = 0; j < p; j++)
            gsl_matrix_set(targets, s, t * p + j, gsl_matrix_get(X, t, j));
    for (size_t t = kind == MEMORY_FINAL_STATE ? n - 1 : 0; t < n; t++)
        for (size_t i = 0; i < m; i++) {
            size_t column = kind == MEMORY_FINAL_STATE ? i : t * m + i;
            gsl_matrix_set(memory, s, column, gsl_matrix_get(H, t, i));
        }
    return INVENT_OK;
}

/* memory: (S, f), targets: (S, n*p) <- S random sequences */
static int record_all(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r,
                      gsl_matrix *memory, gsl_matrix *targets)
{
    gsl_matrix *X = gsl_matrix_alloc(n, c->U->size2);
    gsl_matrix *H = gsl_matrix_alloc(n, c->W->size1);
    int status = X && H ? INVENT_OK : INVENT_ENOMEM;
    for (size_t s = 0; s < memory->size1 && status == INVENT_OK; s++)
        status = record_sequence(c, kind, r, X, H, memory, targets, s);
    gsl_matrix_free(X);
    gsl_matrix_free(H);
    return status;
}

/* memory: (S, f), targets: (S, q), readout: (f, q) -> relative error */
static int test_readout(const gsl_matrix *memory, const gsl_matrix *targets,
                        const gsl_matrix *readout, double *error)
{
    gsl_matrix *guess = mat_product(memory, CblasNoTrans, readout, CblasNoTrans);
    if (!guess)
        return INVENT_ENOMEM;
    *error = mat_rel_error(guess, targets);
    gsl_matrix_free(guess);
    return INVENT_OK;
}

int recall_error(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r, double *error)
{
    if (n == 0)
        return INVENT_ERANGE;
    size_t m = c->W->size1, p = c->U->size2;
    size_t features = kind == MEMORY_FINAL_STATE ? m : n * m;
    size_t train = training_sequences(features), test = RECALL_TEST;
    gsl_matrix *mem_train = gsl_matrix_alloc(train, features);
    gsl_matrix *tgt_train = gsl_matrix_alloc(train, n * p);
    gsl_matrix *mem_test = gsl_matrix_alloc(test, features);
    gsl_matrix *tgt_test = gsl_matrix_alloc(test, n * p);
    gsl_matrix *readout = gsl_matrix_alloc(features, n * p);
    int status = mem_train && tgt_train && mem_test && tgt_test && readout ? INVENT_OK
                                                                             : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = record_all(c, n, kind, r, mem_train, tgt_train);
    if (status == INVENT_OK)
        status = record_all(c, n, kind, r, mem_test, tgt_test);
    if (status == INVENT_OK)
        status = linalg_ridge(mem_train, tgt_train, RECALL_RIDGE, RECALL_REFINE, readout);
    if (status == INVENT_OK)
        status = test_readout(mem_test, tgt_test, readout, error);
    gsl_matrix_free(mem_train);
    gsl_matrix_free(tgt_train);
    gsl_matrix_free(mem_test);
    gsl_matrix_free(tgt_test);
    gsl_matrix_free(readout);
    return status;
}

double recall_expected_error(size_t m, size_t p, size_t n, memory_kind kind)
{
    if (kind == MEMORY_EVERY_STATE || n * p <= m)
        return 0.0;
    double lost = 1.0 - (double)m / (double)(n * p);
    double N = (double)training_sequences(m), f = (double)m;
    return sqrt(lost * (N - 1.0) / (N - f - 1.0));
}

double recall_error_spread(size_t m, size_t p, size_t n)
{
    if (n * p <= m)
        return 0.0;
    double np = (double)(n * p), f = (double)m, N = (double)training_sequences(m);
    double lost = 1.0 - f / np, excess = f / (N - f - 1.0);
    double test = (1.0 - lost) / (2.0 * lost * RECALL_TEST * np);
    double fit = excess / (1.0 + excess) *
                 sqrt(2.0 / (f * (np - f)) + 2.0 / N + 2.0 / (RECALL_TEST * f)) / 2.0;
    return sqrt(test + fit * fit);
}
