/* The parameters of a small model, kept as a list so that one optimiser
 * and one gradient check serve every model: each entry is a matrix of
 * values and a matrix of gradients of the same shape (a vector is a
 * matrix with one row). */
#ifndef INVENT_PARAMS_H
#define INVENT_PARAMS_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

#define PARAMS_MAX 8

typedef struct {
    size_t n;
    gsl_matrix *value[PARAMS_MAX];
    gsl_matrix *grad[PARAMS_MAX];
} param_set;

/* rows, cols, N(0, sigma^2) entries (sigma 0: zeros) -> the new value matrix,
 * appended with a zero gradient; NULL when full or out of memory */
gsl_matrix *params_add(param_set *ps, size_t rows, size_t cols, double sigma, gsl_rng *r);

/* every gradient <- 0 */
void params_zero_grad(param_set *ps);

/* -> how many scalars the model learns */
size_t params_count(const param_set *ps);


/* Frees every matrix; ps itself belongs to the caller. */
void params_free(param_set *ps);

#endif
