#include "permute.h"

#include <gsl/gsl_randist.h>

#include "status.h"

void permute_rotation(gsl_permutation *p, size_t shift)
{
    for (size_t t = 0; t < p->size; t++)
        p->data[t] = (t + shift % p->size) % p->size;
}

void permute_random(gsl_permutation *p, gsl_rng *r)
{
    gsl_permutation_init(p);
    gsl_ran_shuffle(r, p->data, p->size, sizeof(size_t));
}

int permute_rows(const gsl_permutation *p, const gsl_matrix *X, gsl_matrix *PX)
{
    if (p->size != X->size1 || PX->size1 != X->size1 || PX->size2 != X->size2)
        return INVENT_ESHAPE;
    for (size_t t = 0; t < p->size; t++) {
        gsl_vector_const_view row = gsl_matrix_const_row(X, gsl_permutation_get(p, t));
        gsl_matrix_set_row(PX, t, &row.vector);
    }
    return INVENT_OK;
}
