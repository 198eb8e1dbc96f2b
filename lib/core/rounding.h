/* How far two computations of the same sums may differ by rounding alone.
 * A sum of n products computed in another order differs by at most about
 * n epsilon times the size of its terms (Higham, 2002, ch. 3), so a check
 * that compares two such computations takes its tolerance from the sizes
 * instead of a fixed number. */
#ifndef INVENT_ROUNDING_H
#define INVENT_ROUNDING_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

/* n terms per sum, M: (rows, cols) results -> 8 n DBL_EPSILON max |M_ij|,
 * the bound with a margin of 8 */
double rounding_tolerance(size_t n, const gsl_matrix *M);

/* n terms per score, S: (T, T') scores, V: (T', dv) values -> 2
 * rounding_tolerance(n, S) max |V_ij|: scores rounded by at most delta move
 * a softmax's weights by at most 2 delta in total (sum_i |dw_i| <= 2 max_i
 * |ds_i|), so the weighted sum of the values moves by at most 2 delta max |V|.
 * For scores far larger than 1, where this exceeds rounding_tolerance(n, V). */
double rounding_tolerance_softmax(size_t n, const gsl_matrix *S, const gsl_matrix *V);

#endif
