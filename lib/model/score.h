/* Score functions: how strongly a receiving unit, whose own residual input
 * is x_L, responds to a token x_i. Three forms are compared in chapter 4:
 * the additive tanh score of Bahdanau et al. (2015), the product, and any
 * score of two arguments split into a part of x_i alone, a part of x_L
 * alone and an interaction between the two. */
#ifndef INVENT_SCORE_H
#define INVENT_SCORE_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

/* The parameters of one additive score with h hidden units on d-vectors. */
typedef struct {
    gsl_matrix *W1; /* (h, d): acts on the token x_i */
    gsl_matrix *W2; /* (h, d): acts on the receiver's input x_L */
    gsl_vector *v;  /* (h): reads the hidden units out */
} attn_additive;

/* The additive score (Bahdanau et al., 2015), the contract an exercise re-implements:
 * W1: (h, d), W2: (h, d), v: (h), x_i: (d), x_L: (d) -> *score = v . tanh(W1 x_i + W2 x_L).
 * Any h >= 1 and d >= 1. Returns INVENT_OK, or INVENT_ESHAPE (and leaves *score
 * untouched) when the shapes do not fit together. Allocates nothing. */
int attn_additive_score(const gsl_matrix *W1, const gsl_matrix *W2, const gsl_vector *v,
                        const gsl_vector *x_i, const gsl_vector *x_L, double *score);

/* scalars, the case h = d = 1 -> v * tanh(w1 x_i + w2 x_L); (1, 1, 1) gives tanh(x_i + x_L) */
double attn_additive_score_1d(double w1, double w2, double v, double x_i, double x_L);

/* x_i: (d), x_L: (d) -> *score = x_i . x_L (the product; x_i x_L when d = 1);
 * INVENT_ESHAPE when the lengths differ */
int attn_product_score(const gsl_vector *x_i, const gsl_vector *x_L, double *score);

/* d, h, N(0, sigma^2) entries -> a new additive score, or NULL when out of memory */
attn_additive *attn_additive_new(size_t d, size_t h, double sigma, gsl_rng *r);
void attn_additive_free(attn_additive *a);

/* Any score of two d-vectors: params, x_i: (d), x_L: (d) -> *score; an INVENT_* status */
typedef int (*score_fn)(const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                        double *score);

/* score_fn for attn_additive_score; params: an attn_additive */
int score_additive(const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                   double *score);

/* score_fn for attn_product_score; params unused */
int score_product(const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                  double *score);

/* s(x_i, x_L) = f(x_i) + g(x_L) + v(x_i, x_L), split about a reference point
 * o (chapter 4 takes o = 0) */
typedef struct {
    double f; /* s(x_i, o): the token alone */
    double g; /* s(o, x_L) - s(o, o): the receiver alone */
    double v; /* s(x_i, x_L) - s(x_i, o) - s(o, x_L) + s(o, o): the interaction, 0 when
               * either argument is o */
} score_parts;

/* s, x_i: (d), x_L: (d), origin: (d) the reference point o -> parts, with
 * f + g + v = s(x_i, x_L) up to rounding; INVENT_ESHAPE when the sizes differ */
int score_split(score_fn s, const void *params, const gsl_vector *x_i, const gsl_vector *x_L,
                const gsl_vector *origin, score_parts *parts);

#endif
