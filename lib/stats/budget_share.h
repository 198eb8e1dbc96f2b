/* An ablation's cost as compute: the share of the full model's training steps
 * at which the full model reaches the ablated model's held-out loss.
 *
 * The full model is trained at a few budget shares s_1 < ... < s_k of its steps
 * (chapter 14: 1/4, 1/2, 3/4 and 1), giving held-out losses L_1 > ... > L_k.
 * An ablated model's loss L between two of them, L_{i+1} <= L <= L_i, is worth
 *
 *     s = s_i (s_{i+1} / s_i)^u,   u = (L_i - L) / (L_i - L_{i+1}),
 *
 * linear in log steps: held-out loss against steps is close to a power law
 * (Kaplan et al., 2020), a curve that is nearly straight against log steps
 * and convex against steps, so a straight line in steps runs above it and
 * overstates the share (between 1/4 and 1/2, at the middle loss, 0.375 where
 * log steps give 0.354). Outside the measured budgets the curve is not
 * extrapolated: a loss below L_k is "not reached within budget" (s > s_k),
 * a loss above L_1 is "less than the smallest budget" (s < s_1). */
#ifndef INVENT_BUDGET_SHARE_H
#define INVENT_BUDGET_SHARE_H

#include <gsl/gsl_vector.h>

typedef enum {
    BUDGET_WITHIN,       /* share interpolated, s_1 <= share <= s_k */
    BUDGET_NOT_REACHED,  /* loss below the largest budget's: share > s_k, reported as s_k */
    BUDGET_UNDER_SMALLEST /* loss above the smallest budget's: share < s_1, reported as s_1 */
} budget_reach;

typedef struct {
    budget_reach reach;
    double share; /* the share, or the bound it lies beyond */
} budget_share;

/* shares: (k) increasing, > 0, finite; losses: (k) the full model's there, decreasing;
 * loss: an ablated model's -> *out; INVENT_ESHAPE when the sizes differ, INVENT_ERANGE
 * for k < 2, shares not increasing, losses not decreasing or a non-finite loss, *out
 * untouched */
int budget_share_of(const gsl_vector *shares, const gsl_vector *losses, double loss,
                    budget_share *out);

/* r -> "within budget", "not reached within budget", "less than the smallest budget" */
const char *budget_reach_name(budget_reach r);

#endif
