/* Checking a backward pass against central finite differences: nudge one
 * entry of a parameter by +h and -h, run the forward pass, and compare
 * (L(p+h) - L(p-h)) / 2h with what the backward pass claimed. In double,
 * with h = 1e-5, agreement is typically 1e-9 or better. */
#ifndef INVENT_FDCHECK_H
#define INVENT_FDCHECK_H

#include <gsl/gsl_matrix.h>

/* A scalar loss of everything ctx points at, computed by forward passes
 * only; NaN when the forward pass fails. */
typedef double (*fd_loss)(void *ctx);

/* P: (rows, cols), read by loss(ctx); G: (rows, cols), its claimed gradient
 * -> ||G - G_fd||_F / max(||G||_F, ||G_fd||_F), 0 when both vanish; P is
 * restored exactly; INFINITY on a shape mismatch, NaN if the loss is NaN */
double fdcheck_matrix(fd_loss loss, void *ctx, gsl_matrix *P, const gsl_matrix *G, double h);

/* Y: (n, m), R: (n, m) -> sum_ij R_ij Y_ij, a loss whose gradient in Y is R:
 * the probe that turns any forward pass into a scalar to differentiate */
double fdcheck_probe(const gsl_matrix *Y, const gsl_matrix *R);

#endif
