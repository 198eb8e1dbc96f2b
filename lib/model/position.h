/* Where a token sits: the sinusoidal position encoding of Vaswani et al.
 * (2017), added to the tokens so that attention can tell the order of its
 * inputs. Coordinates come in (sine, cosine) pairs, each pair turning at its
 * own frequency, so the dot product of two encodings depends only on how far
 * apart the two positions are. */
#ifndef INVENT_POSITION_H
#define INVENT_POSITION_H

#include <gsl/gsl_matrix.h>

/* E: (T, d) <- row t encodes position t: E[t][2k] = sin(t w_k) and
 * E[t][2k+1] = cos(t w_k), w_k = 10000^(-2k/d); an odd d ends on a sine
 * without its cosine */
void position_sinusoidal(gsl_matrix *E);

/* G: (T, T) -> *spread, the largest spread (max - min) of G[t][s] over the
 * pairs that share one offset t - s, over every offset: 0 when G depends on
 * t - s alone (a Toeplitz matrix); INVENT_ESHAPE when G is not square */
int position_offset_spread(const gsl_matrix *G, double *spread);

#endif
