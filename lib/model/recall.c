#include "recall.h"

#include <math.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>

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

/* How a read-out is fitted: memory (S, f), targets (S, q) -> readout (f, q). */
typedef int (*readout_fit)(const gsl_matrix *memory, const gsl_matrix *targets,
                           gsl_matrix *readout);

/* Least squares through the normal equations, with a ridge (linalg_ridge). */
static int ridge_fit(const gsl_matrix *memory, const gsl_matrix *targets, gsl_matrix *readout)
{
    return linalg_ridge(memory, targets, RECALL_RIDGE, RECALL_REFINE, readout);
}

/* memory: (S, f), targets: (S, q) -> readout: (f, q), the minimum-norm least-squares
 * solution through a complete orthogonal decomposition (QR with column pivoting,
 * GSL's rank tolerance): rounding grows with the memory's conditioning, not with
 * its square as through the normal equations */
static int qr_fit(const gsl_matrix *memory, const gsl_matrix *targets, gsl_matrix *readout)
{
    size_t S = memory->size1, f = memory->size2, k = S < f ? S : f, rank = 0;
    gsl_matrix *QRZT = mat_clone(memory);
    gsl_vector *tau_Q = gsl_vector_alloc(k), *tau_Z = gsl_vector_alloc(k);
    gsl_vector *work = gsl_vector_alloc(f), *residual = gsl_vector_alloc(S);
    gsl_permutation *perm = gsl_permutation_alloc(f);
    int status = QRZT && tau_Q && tau_Z && work && residual && perm ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK && gsl_linalg_COD_decomp(QRZT, tau_Q, tau_Z, perm, &rank, work) != 0)
        status = INVENT_ENUMERIC;
    for (size_t j = 0; j < targets->size2 && status == INVENT_OK; j++) {
        gsl_vector_const_view b = gsl_matrix_const_column(targets, j);
        gsl_vector_view x = gsl_matrix_column(readout, j);
        if (gsl_linalg_COD_lssolve(QRZT, tau_Q, tau_Z, perm, rank, &b.vector, &x.vector,
                                   residual) != 0)
            status = INVENT_ENUMERIC;
    }
    gsl_matrix_free(QRZT);
    gsl_vector_free(tau_Q);
    gsl_vector_free(tau_Z);
    gsl_vector_free(work);
    gsl_vector_free(residual);
    gsl_permutation_free(perm);
    return status;
}

/* The probe of recall_error with the read-out fitted by `fit`. */
static int probe(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r, readout_fit fit,
                 double *error)
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
        status = fit(mem_train, tgt_train, readout);
    if (status == INVENT_OK)
        status = test_readout(mem_test, tgt_test, readout, error);
    gsl_matrix_free(mem_train);
    gsl_matrix_free(tgt_train);
    gsl_matrix_free(mem_test);
    gsl_matrix_free(tgt_test);
    gsl_matrix_free(readout);
    return status;
}

int recall_error(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r, double *error)
{
    return probe(c, n, kind, r, ridge_fit, error);
}

int recall_error_qr(const rnn_cell *c, size_t n, memory_kind kind, gsl_rng *r, double *error)
{
    return probe(c, n, kind, r, qr_fit, error);
}

/* c, n -> A: (m, n p), block t = W^(n-1-t) U, the weight of input t in h_n */
static void state_map(const rnn_cell *c, size_t n, gsl_matrix *A, gsl_matrix *block,
                      gsl_matrix *next)
{
    size_t m = c->W->size1, p = c->U->size2;
    gsl_matrix_memcpy(block, c->U);
    for (size_t k = 0; k < n; k++) {
        gsl_matrix_view slot = gsl_matrix_submatrix(A, 0, (n - 1 - k) * p, m, p);
        gsl_matrix_memcpy(&slot.matrix, block);
        mat_mul(c->W, CblasNoTrans, block, CblasNoTrans, next);
        gsl_matrix_memcpy(block, next);
    }
}

int recall_condition(const rnn_cell *c, size_t n, double *cond)
{
    size_t m = c->W->size1, p = c->U->size2;
    if (n == 0 || n * p > m)
        return INVENT_ERANGE;
    gsl_matrix *A = gsl_matrix_alloc(m, n * p), *V = gsl_matrix_alloc(n * p, n * p);
    gsl_matrix *block = gsl_matrix_alloc(m, p), *next = gsl_matrix_alloc(m, p);
    gsl_vector *s = gsl_vector_alloc(n * p);
    int status = A && V && block && next && s ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        state_map(c, n, A, block, next);
        if (gsl_linalg_SV_decomp_jacobi(A, V, s) != 0) /* tall: m >= n p */
            status = INVENT_ENUMERIC;
    }
    if (status == INVENT_OK)
        *cond = gsl_vector_max(s) / gsl_vector_min(s);
    gsl_matrix_free(A);
    gsl_matrix_free(V);
    gsl_matrix_free(block);
    gsl_matrix_free(next);
    gsl_vector_free(s);
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
