#include "head_roles.h"

#include <math.h>

#include <gsl/gsl_randist.h>

#include "status.h"

int head_profile_add(const gsl_matrix *A, const size_t *x, head_profile *p)
{
    size_t T = A->size1;
    if (A->size2 != T || T < 3)
        return INVENT_ESHAPE;
    for (size_t t = 1; t < T; t++) {
        double same = 0.0, entropy = 0.0;
        for (size_t i = 0; i <= t; i++) {
            double a = gsl_matrix_get(A, t, i);
            same += i < t && x[i] == x[t] ? a : 0.0;
            entropy -= a > 0.0 ? a * log(a) : 0.0;
        }
        p->previous += gsl_matrix_get(A, t, t - 1);
        p->first += t >= 2 ? gsl_matrix_get(A, t, 0) : 0.0;
        p->same += same;
        p->self += gsl_matrix_get(A, t, t);
        p->entropy += entropy;
        p->uniform += log((double)(t + 1));
    }
    p->queries += T - 1;
    return INVENT_OK;
}

void head_profile_finish(head_profile *p, size_t sequences)
{
    double n = (double)p->queries;
    p->first /= n - (double)sequences; /* t = 1 is left out of each sequence */
    p->previous /= n;
    p->same /= n;
    p->self /= n;
    p->entropy /= n;
    p->uniform /= n;
}

const char *head_verdict(const head_profile *p)
{
    const double share[] = {p->previous, p->first, p->same, p->self};
    static const char *name[] = {"previous-token", "first-token", "same-character", "self"};
    for (size_t k = 0; k < sizeof share / sizeof share[0]; k++)
        if (share[k] >= HEAD_ROLE_SHARE)
            return name[k];
    return p->entropy >= HEAD_BROAD_ENTROPY * p->uniform ? "broad" : "mixed";
}

void head_shuffle(gsl_matrix *A, gsl_rng *r)
{
    for (size_t t = 0; t < A->size1; t++) {
        gsl_vector_view row = gsl_matrix_subrow(A, t, 0, t + 1);
        gsl_ran_shuffle(r, row.vector.data, t + 1, sizeof(double));
    }
}
