#include "budget_share.h"

#include <math.h>

#include "status.h"

/* shares, losses: (k) -> 1 when shares rise from above 0 and losses fall, all finite */
static int curve_ok(const gsl_vector *shares, const gsl_vector *losses)
{
    size_t k = shares->size;
    if (!(gsl_vector_get(shares, 0) > 0.0) || !isfinite(gsl_vector_get(shares, k - 1)) ||
        !isfinite(gsl_vector_get(losses, 0)) || !isfinite(gsl_vector_get(losses, k - 1)))
        return 0;
    for (size_t i = 1; i < k; i++)
        if (!(gsl_vector_get(shares, i) > gsl_vector_get(shares, i - 1)) ||
            !(gsl_vector_get(losses, i) < gsl_vector_get(losses, i - 1)))
            return 0;
    return 1;
}

int budget_share_of(const gsl_vector *shares, const gsl_vector *losses, double loss,
                    budget_share *out)
{
    if (shares->size != losses->size)
        return INVENT_ESHAPE;
    if (shares->size < 2 || !isfinite(loss) || !curve_ok(shares, losses))
        return INVENT_ERANGE;
    size_t k = shares->size;
    if (loss < gsl_vector_get(losses, k - 1)) {
        *out = (budget_share){BUDGET_NOT_REACHED, gsl_vector_get(shares, k - 1)};
        return INVENT_OK;
    }
    if (loss > gsl_vector_get(losses, 0)) {
        *out = (budget_share){BUDGET_UNDER_SMALLEST, gsl_vector_get(shares, 0)};
        return INVENT_OK;
    }
    size_t i = 0; /* L_{i+1} <= loss <= L_i */
    while (loss < gsl_vector_get(losses, i + 1))
        i++;
    double Li = gsl_vector_get(losses, i), Lj = gsl_vector_get(losses, i + 1);
    double si = gsl_vector_get(shares, i), sj = gsl_vector_get(shares, i + 1);
    double u = (Li - loss) / (Li - Lj);
    *out = (budget_share){BUDGET_WITHIN, si * pow(sj / si, u)};
    return INVENT_OK;
}

const char *budget_reach_name(budget_reach r)
{
    switch (r) {
    case BUDGET_WITHIN:
        return "within budget";
    case BUDGET_NOT_REACHED:
        return "not reached within budget";
    case BUDGET_UNDER_SMALLEST:
        return "less than the smallest budget";
    }
    return "unknown reach";
}
