/* Scoring candidates against a query with a learned bilinear form
 * (chapter 12, claim L4): s_i = x_L^T A x_i, either with one free d x d
 * matrix A (d^2 parameters) or with A = W_q^T W_k factored through rank r
 * (2 r d parameters), as queries W_q x_L and keys W_k x_i. The scores of
 * the T candidates are the logits of "which candidate". */
#ifndef INVENT_LEARN_BILINEAR_H
#define INVENT_LEARN_BILINEAR_H

#include <gsl/gsl_rng.h>

#include "train.h"

/* d, rank r (0: one free A) -> *out, a model of x: (T + 1, d), candidates
 * first and the query last, with logits (1, T) */
int learn_bilinear(size_t d, size_t rank, gsl_rng *r, train_model *out);

/* a model from learn_bilinear -> A: (d, d), the score matrix it has learned
 * (W_q^T W_k when factored) */
int learn_bilinear_matrix(const train_model *m, gsl_matrix *A);

/* a free model from learn_bilinear (rank 0), A: (d, d) -> its A set to A (a start other
 * than zero); INVENT_ESHAPE for a factored model or a wrong shape */
int learn_bilinear_set_matrix(train_model *m, const gsl_matrix *A);

#endif
