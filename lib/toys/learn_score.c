#include "learn_score.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "activation.h"
#include "linear.h"
#include "score.h"
#include "status.h"

/* product: params Wq (h, 1), Wk (h, 1), c (1, 1); a: (1, h) queries, b: (1, h) keys.
 * additive: params W (h, 2) = [W_1 | W_2], v (1, h), c, and the bias b (1, h) when
 * it has one; a: (1, h) hidden units, b: (1, h) the gradient at their
 * pre-activations. */
typedef struct {
    score_kind kind;
    param_set ps;
    gsl_matrix *a, *b, *da;    /* (1, h) each */
    gsl_vector *bias, *dbias;  /* views of the bias and its gradient, or NULL */
    gsl_vector_view views[2];
} score_model;

static double logit(const score_model *m, double s, gsl_matrix *z)
{
    gsl_matrix_set(z, 0, 0, 0.0);
    gsl_matrix_set(z, 0, 1, s + gsl_matrix_get(m->ps.value[2], 0, 0));
    return s;
}

/* the column of x = (x_i, x_L) that the key factor reads: x_i, or x_L for the
 * self-product */
static size_t key_column(const score_model *m)
{
    return m->kind == SCORE_SELF_PRODUCT ? 1 : 0;
}

static int is_product(const score_model *m)
{
    return m->kind == SCORE_PRODUCT || m->kind == SCORE_SELF_PRODUCT;
}

static int product_forward(score_model *m, const gsl_matrix *x, gsl_matrix *z)
{
    gsl_matrix_const_view xi = gsl_matrix_const_submatrix(x, 0, key_column(m), 1, 1),
                          xL = gsl_matrix_const_submatrix(x, 0, 1, 1, 1);
    int status = linear_forward(&xL.matrix, m->ps.value[0], NULL, m->a);
    if (status == INVENT_OK)
        status = linear_forward(&xi.matrix, m->ps.value[1], NULL, m->b);
    gsl_vector_view q = gsl_matrix_row(m->a, 0), k = gsl_matrix_row(m->b, 0);
    double s = 0.0;
    if (status == INVENT_OK)
        status = attn_product_score(&k.vector, &q.vector, &s);
    logit(m, s, z);
    return status;
}

static int additive_forward(score_model *m, const gsl_matrix *x, gsl_matrix *z)
{
    int status = linear_forward(x, m->ps.value[0], m->bias, m->a);
    activation_tanh(m->a);
    gsl_vector_view v = gsl_matrix_row(m->ps.value[1], 0), hid = gsl_matrix_row(m->a, 0);
    double s = 0.0;
    if (status == INVENT_OK)
        status = gsl_blas_ddot(&v.vector, &hid.vector, &s) ? INVENT_ENUMERIC : INVENT_OK;
    logit(m, s, z);
    return status;
}

static int score_forward(void *self, const gsl_matrix *x, gsl_matrix *z)
{
    score_model *m = self;
    if (x->size1 != 1 || x->size2 != 2 || z->size1 != 1 || z->size2 != 2)
        return INVENT_ESHAPE;
    return is_product(m) ? product_forward(m, x, z) : additive_forward(m, x, z);
}

/* ds: the gradient at the score; s = a . b, a = x_L W_q^T, b = x_i W_k^T */
static int product_backward(score_model *m, const gsl_matrix *x, double ds)
{
    gsl_matrix_const_view xi = gsl_matrix_const_submatrix(x, 0, key_column(m), 1, 1),
                          xL = gsl_matrix_const_submatrix(x, 0, 1, 1, 1);
    gsl_matrix_memcpy(m->da, m->b); /* ds/da = b */
    gsl_matrix_scale(m->da, ds);
    int status = linear_backward(&xL.matrix, m->ps.value[0], m->da, NULL, m->ps.grad[0], NULL);
    gsl_matrix_memcpy(m->da, m->a); /* ds/db = a */
    gsl_matrix_scale(m->da, ds);
    return status ? status
                  : linear_backward(&xi.matrix, m->ps.value[1], m->da, NULL, m->ps.grad[1], NULL);
}

/* s = v . a, a = tanh(x W^T): da = ds v, dv += ds a, then back through tanh into b */
static int additive_backward(score_model *m, const gsl_matrix *x, double ds)
{
    gsl_vector_view dv = gsl_matrix_row(m->ps.grad[1], 0), a = gsl_matrix_row(m->a, 0);
    gsl_blas_daxpy(ds, &a.vector, &dv.vector);
    gsl_matrix_memcpy(m->da, m->ps.value[1]);
    gsl_matrix_scale(m->da, ds);
    gsl_matrix_set_zero(m->b);
    int status = activation_tanh_backward(m->a, m->da, m->b);
    return status ? status
                  : linear_backward(x, m->ps.value[0], m->b, NULL, m->ps.grad[0], m->dbias);
}

static int score_backward(void *self, const gsl_matrix *x, const gsl_matrix *dz)
{
    score_model *m = self;
    double ds = gsl_matrix_get(dz, 0, 1); /* class 0's logit is the constant 0 */
    gsl_matrix_set(m->ps.grad[2], 0, 0, gsl_matrix_get(m->ps.grad[2], 0, 0) + ds);
    return is_product(m) ? product_backward(m, x, ds) : additive_backward(m, x, ds);
}

static void score_release(void *self)
{
    score_model *m = self;
    params_free(&m->ps);
    gsl_matrix_free(m->a);
    gsl_matrix_free(m->b);
    gsl_matrix_free(m->da);
    free(m);
}

/* kind, h -> the parameters of s, in the order the model reads them */
static int score_params(score_model *m, size_t h, gsl_rng *r)
{
    param_set *ps = &m->ps;
    int ok = is_product(m)
                 ? params_add(ps, h, 1, 1.0, r) && params_add(ps, h, 1, 1.0, r)
                 : params_add(ps, h, 2, 1.0, r) && params_add(ps, 1, h, 1.0 / sqrt((double)h), r);
    ok = ok && params_add(ps, 1, 1, 0.0, r);
    if (ok && m->kind == SCORE_ADDITIVE_BIAS) { /* b ~ N(0, 1): units start at different places */
        ok = params_add(ps, 1, h, 1.0, r) != NULL;
        if (!ok)
            return INVENT_ENOMEM;
        m->views[0] = gsl_matrix_row(ps->value[3], 0);
        m->views[1] = gsl_matrix_row(ps->grad[3], 0);
        m->bias = &m->views[0].vector;
        m->dbias = &m->views[1].vector;
    }
    return ok ? INVENT_OK : INVENT_ENOMEM;
}

int learn_score(score_kind kind, size_t h, gsl_rng *r, train_model *out)
{
    score_model *m = calloc(1, sizeof *m);
    if (!m)
        return INVENT_ENOMEM;
    m->kind = kind;
    *out = (train_model){m, &m->ps, score_forward, score_backward, score_release};
    int status = score_params(m, h, r);
    m->a = gsl_matrix_alloc(1, h);
    m->b = gsl_matrix_alloc(1, h);
    m->da = gsl_matrix_alloc(1, h);
    if (status != INVENT_OK || !m->a || !m->b || !m->da) {
        train_model_release(out);
        return INVENT_ENOMEM;
    }
    return INVENT_OK;
}
