/* The position-wise MLP y = W2 f(W1 x + b1) + b2, read as a key-value
 * memory (Geva et al., 2021): row i of W1 is a key k_i, column i of W2 the
 * value v_i it writes, and y = sum_i f(k_i . x + b1_i) v_i + b2. */
#ifndef INVENT_MLP_H
#define INVENT_MLP_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

typedef enum {
    MLP_RELU,    /* f(z) = max(0, z), as in Vaswani et al. (2017) */
    MLP_IDENTITY /* f(z) = z: the MLP collapses to one linear map */
} mlp_activation;

typedef struct {
    gsl_matrix *W1; /* (m, d): row i is the key k_i */
    gsl_vector *b1; /* (m) */
    gsl_matrix *W2; /* (d, m): column i is the value v_i */
    gsl_vector *b2; /* (d) */
    mlp_activation f;
} mlp_weights;

/* What one forward pass over T tokens leaves for the backward pass. */
typedef struct {
    gsl_matrix *Z; /* (T, m): pre-activations X W1^T + b1 */
    gsl_matrix *F; /* (T, m): activations f(Z) */
} mlp_trace;

/* d, m hidden units -> W1 ~ N(0, 1/d), W2 ~ N(0, 1/m), zero biases; NULL on no
 * memory or a size 0 */
mlp_weights *mlp_new(size_t d, size_t m, mlp_activation f, gsl_rng *r);
void mlp_free(mlp_weights *w);

/* z -> f(z) */
double mlp_activate(mlp_activation f, double z);

/* T, weights -> a trace with room for T tokens, or NULL */
mlp_trace *mlp_trace_new(size_t T, const mlp_weights *w);
void mlp_trace_free(mlp_trace *tr);

/* X: (T, d) -> Y: (T, d) = f(X W1^T + b1) W2^T + b2, in two BLAS products;
 * tr: a trace for T tokens (mlp_trace_new) that receives Z and F; NULL is
 * refused (INVENT_ERANGE). Allocates nothing. */
int mlp_forward(const mlp_weights *w, const gsl_matrix *X, mlp_trace *tr, gsl_matrix *Y);

/* The forward pass read in reverse. w, X: (T, d), tr: the trace
 * mlp_forward(w, X, tr, .) filled, dY: (T, d) -> g: gradients with the shapes
 * of w, +=; dX: (T, d) +=, or NULL (added, as in linear.h); work: (2T, m)
 * scratch. Allocates nothing. */
int mlp_backward(const mlp_weights *w, const gsl_matrix *X, const mlp_trace *tr,
                 const gsl_matrix *dY, mlp_weights *g, gsl_matrix *dX, gsl_matrix *work);

/* x: (d) -> y: (d) = sum_i f(k_i . x + b1_i) v_i + b2, one hidden unit at a time;
 * h: (m) receives the activations f(k_i . x + b1_i), or NULL */
int mlp_memory_read(const mlp_weights *w, const gsl_vector *x, gsl_vector *h, gsl_vector *y);

#endif
