#include "lm_models.h"

/* model: an ablated32 -> its causal pass and each token's loss */
static int gpt_evaluate(void *model, const size_t *x, const size_t *y, const double **losses)
{
    ablated32 *m = model;
    double loss;
    int status = ablated32_forward(m, x, y, 0, &loss);
    *losses = gpt32_token_losses(m->m);
    return status;
}

/* model: a recurrent32 -> its pass and each token's loss */
static int cell_evaluate(void *model, const size_t *x, const size_t *y, const double **losses)
{
    recurrent32 *m = model;
    double loss;
    int status = recurrent32_forward(m, x, y, &loss);
    *losses = recurrent32_token_loss(m);
    return status;
}

lm_model lm_model_gpt(ablated32 *m)
{
    return (lm_model){.model = m, .train_forward = ablated32_train_forward,
                      .backward = ablated32_train_backward, .evaluate = gpt_evaluate,
                      .t = m->train, .count = m->n_train};
}

lm_model lm_model_cell(recurrent32 *m)
{
    return (lm_model){.model = m, .train_forward = recurrent32_train_forward,
                      .backward = recurrent32_train_backward, .evaluate = cell_evaluate,
                      .t = m->t, .count = m->count};
}
