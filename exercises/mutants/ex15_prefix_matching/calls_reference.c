/* Mutant: calls the library's score instead of computing it. Expect: calls induction_prefix_score */
#include "exercises.h"

int ex15_prefix_matching(const gsl_matrix *A, const size_t *x, size_t from, double *score)
{
    return induction_prefix_score(A, x, from, score);
}
