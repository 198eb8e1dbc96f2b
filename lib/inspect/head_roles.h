/* What one causal attention head does, measured on its weights over a
 * sequence x_0 .. x_{T-1}: the mean share of a query's weight that goes to
 * the previous token, to the first token, to earlier copies of the query's
 * own character, and to itself, and the mean entropy of its rows against
 * that of uniform causal rows. Heads are then named from these numbers with
 * stated thresholds (the "previous-token head" of Elhage et al., 2021, and
 * Olsson et al., 2022, is the first of them). */
#ifndef INVENT_HEAD_ROLES_H
#define INVENT_HEAD_ROLES_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

typedef struct {
    double previous; /* mean over queries t >= 1 of a_{t,t-1} */
    double first;    /* mean over t >= 2 of a_{t,0} (t = 1's first token is its previous one) */
    double same;     /* mean over t >= 1 of the weight on i < t with x_i = x_t */
    double self;     /* mean over t >= 1 of a_{t,t} */
    double entropy;  /* mean over t >= 1 of -sum_i a_{t,i} log a_{t,i}, nats */
    double uniform;  /* the same for uniform causal rows: mean over t >= 1 of log(t + 1) */
    size_t queries;  /* how many rows were averaged */
} head_profile;

/* A role is named when its share reaches this (the head gives it most of its weight)... */
#define HEAD_ROLE_SHARE 0.5
/* ...a head whose entropy reaches this fraction of uniform rows' is "broad" */
#define HEAD_BROAD_ENTROPY 0.8

/* A: (T, T) causal attention weights, x: (T) the tokens -> *p += the sums of one
 * sequence (start from a zeroed profile; head_profile_finish turns sums into means) */
int head_profile_add(const gsl_matrix *A, const size_t *x, head_profile *p);

/* sums -> means (previous, same, self, entropy, uniform over the queries t >= 1,
 * first over t >= 2) */
void head_profile_finish(head_profile *p, size_t sequences);

/* p -> a short name: "previous-token", "first-token", "same-character", "self",
 * "broad" or "mixed" (the first role with a share of at least HEAD_ROLE_SHARE,
 * then broad, else mixed) */
const char *head_verdict(const head_profile *p);

/* A: (T, T) causal -> each row's weights on positions 0..t permuted at random: the
 * same row entropies, no preferred position (the control of a measured role) */
void head_shuffle(gsl_matrix *A, gsl_rng *r);

#endif
