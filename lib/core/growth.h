/* How fast a cost grows: the exponent p of cost ~ c * n^p, fitted by least
 * squares on log cost against log n (a straight line on a log-log plot). */
#ifndef INVENT_GROWTH_H
#define INVENT_GROWTH_H

#include <stddef.h>

/* n: (k) sizes > 0, cost: (k) values > 0, k >= 2 -> *exponent, the slope
 * of log cost against log n; INVENT_ERANGE for k < 2, a value <= 0 or
 * sizes that are all equal */
int growth_exponent(const double *n, const double *cost, size_t k, double *exponent);

#endif
