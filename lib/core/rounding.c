#include "rounding.h"

#include <float.h>
#include <math.h>

double rounding_tolerance(size_t n, const gsl_matrix *M)
{
    double largest = fmax(gsl_matrix_max(M), -gsl_matrix_min(M));
    return 8.0 * (double)n * DBL_EPSILON * largest;
}
