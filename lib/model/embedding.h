/* The input of a language model: token t of a sequence enters as row id_t of
 * a learned table E (one row per symbol of the vocabulary) plus row t of a
 * learned table P of positions, as in GPT (Radford et al., 2018). Without P
 * the blocks could not tell the order of the tokens: attention is
 * permutation-equivariant (chapter 6, P1). */
#ifndef INVENT_EMBEDDING_H
#define INVENT_EMBEDDING_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

/* ids: (B*T) in [0, V), E: (V, d), P: (T_max >= T, d) -> X: (B*T, d),
 * X[b*T + t] = E[ids[b*T + t]] + P[t]; INVENT_ERANGE for an id out of range */
int embedding_forward(const gsl_matrix *E, const gsl_matrix *P, const size_t *ids, size_t B,
                      size_t T, gsl_matrix *X);

/* ids: (B*T), dX: (B*T, d) -> dE: (V, d) += the rows of dX gathered by id,
 * dP: (T_max, d) += the rows of dX summed over the B sequences */
int embedding_backward(const size_t *ids, size_t B, size_t T, const gsl_matrix *dX,
                       gsl_matrix *dE, gsl_matrix *dP);

#endif
