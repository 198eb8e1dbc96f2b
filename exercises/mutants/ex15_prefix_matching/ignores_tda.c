/* Mutant: reads A as if its rows were T entries apart. Expect: read n entries apart */
#include "exercises.h"

int ex15_prefix_matching(const gsl_matrix *A, const size_t *x, size_t from, double *score)
{
    if (A->size1 != A->size2)
        return INVENT_ESHAPE;
    double sum = 0.0;
    size_t queries = 0;
    for (size_t t = from; t < A->size1; t++) {
        double weight = 0.0;
        int matched = 0;
        for (size_t s = 1; s < t; s++)
            if (x[s - 1] == x[t]) {
                weight += A->data[t * A->size2 + s];
                matched = 1;
            }
        sum += weight;
        queries += (size_t)matched;
    }
    *score = queries ? sum / (double)queries : 0.0;
    return INVENT_OK;
}
