/* Permutations of the tokens: reordering the rows of an input, to ask
 * whether attention notices the order of what it reads. */
#ifndef INVENT_PERMUTE_H
#define INVENT_PERMUTE_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_rng.h>

/* p: (T) <- the rotation p[t] = (t + shift) mod T: the tokens shifted round */
void permute_rotation(gsl_permutation *p, size_t shift);

/* p: (T) <- a uniformly random permutation (Fisher-Yates, gsl_ran_shuffle) */
void permute_random(gsl_permutation *p, gsl_rng *r);

/* p: (T), X: (T, d) -> PX: (T, d), row t of PX = row p[t] of X; PX must not
 * alias X */
int permute_rows(const gsl_permutation *p, const gsl_matrix *X, gsl_matrix *PX);

#endif
