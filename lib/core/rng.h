/* Seeded random numbers (GSL's Mersenne twister): the same seed gives the
 * same chapter, the same figures and the same claims. */
#ifndef INVENT_RNG_H
#define INVENT_RNG_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

/* seed -> a new generator, or NULL when out of memory; free with gsl_rng_free.
 * Every seed from 0 to 2^32 - 1 gives its own stream (0 included). */
gsl_rng *rng_new(unsigned long seed);

/* m: (rows, cols) <- independent N(0, sigma^2) entries */
void rng_fill_gaussian(gsl_matrix *m, gsl_rng *r, double sigma);

/* m: (rows, cols) <- independent uniform entries on [lo, hi) */
void rng_fill_uniform(gsl_matrix *m, gsl_rng *r, double lo, double hi);

#endif
