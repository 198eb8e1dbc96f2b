/* What a dynamic d x d weight W(x_i, x_L) costs, for the three ways of
 * generating it in chapter 3, counted exactly in 64 bits (count.h): every
 * count reports overflow instead of wrapping around. */
#ifndef INVENT_WEIGHT_FAMILY_H
#define INVENT_WEIGHT_FAMILY_H

#include <stdint.h>

/* How a d x d weight W(x_i, x_L) is generated. */
typedef enum {
    FAMILY_FULL,     /* every entry its own scalar function: d^2 functions */
    FAMILY_DIAGONAL, /* diag(c_1 .. c_d): d functions */
    FAMILY_MIXTURE   /* sum_j c_j V_j over H learned d x d matrices: H functions */
} weight_family;

/* d, h -> *out = h (2d + 1): W1 (h, d), W2 (h, d) and v (h) of one additive score;
 * INVENT_ERANGE when d or h is 0, INVENT_EOVERFLOW when it does not fit */
int family_score_params(uint64_t d, uint64_t h, uint64_t *out);

/* d, H -> *out = the scalar functions the family needs (d^2, d or H);
 * INVENT_ERANGE when d or H is 0 */
int family_functions(weight_family f, uint64_t d, uint64_t H, uint64_t *out);

/* d, H, h -> *out = functions x family_score_params(d, h), plus the H d^2 entries of
 * the learned matrices for the mixture; INVENT_ERANGE on a zero size,
 * INVENT_EOVERFLOW when the count does not fit in 64 bits (*out then untouched) */
int family_params(weight_family f, uint64_t d, uint64_t H, uint64_t h, uint64_t *out);

#endif
