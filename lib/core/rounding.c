#include "rounding.h"

#include <float.h>
#include <math.h>

/* M -> max |M_ij| */
static double largest(const gsl_matrix *M)
{
    return fmax(gsl_matrix_max(M), -gsl_matrix_min(M));
}

double rounding_tolerance(size_t n, const gsl_matrix *M)
{
    return 8.0 * (double)n * DBL_EPSILON * largest(M);
}

double rounding_tolerance_softmax(size_t n, const gsl_matrix *S, const gsl_matrix *V)
{
    return 2.0 * rounding_tolerance(n, S) * largest(V);
}
