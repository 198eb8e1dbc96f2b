#include "learn_block.h"

#include <math.h>
#include <stdlib.h>

#include "adam.h"
#include "linear.h"
#include "mat.h"
#include "status.h"
#include "xent.h"

#define TENSORS (BLOCK_TENSORS + 2) /* the block's, then W_out and b_out */
#define HALF (TENSORS / 2)          /* an Adam holds at most PARAMS_MAX tensors: two of them */

struct learn_block {
    block_weights *w, *g;
    block_trace *tr;
    block_work *work;
    size_t T;                      /* the trace's and scratch's length */
    gsl_matrix *Wout, *bout;       /* (classes, d), (1, classes) */
    gsl_matrix *dWout, *dbout;     /* their gradients */
    gsl_matrix_view value[TENSORS], grad[TENSORS]; /* every tensor as a matrix */
    int frozen[TENSORS];
    param_set ps[2];
    adam opt[2];
};

void learn_block_free(learn_block *m)
{
    if (!m)
        return;
    for (int h = 0; h < 2; h++)
        adam_free(&m->opt[h]);
    block_free(m->w);
    block_free(m->g);
    block_trace_free(m->tr);
    block_work_free(m->work);
    gsl_matrix_free(m->Wout);
    gsl_matrix_free(m->bout);
    gsl_matrix_free(m->dWout);
    gsl_matrix_free(m->dbout);
    free(m);
}

/* value[] and grad[]: the block's tensors as (1, n) matrices, then the read-out's; the
 * two Adams' parameter lists point at them */
static int list_tensors(learn_block *m, double rate)
{
    gsl_vector_view v[BLOCK_TENSORS], g[BLOCK_TENSORS];
    block_tensors(m->w, v);
    block_tensors(m->g, g);
    for (int k = 0; k < BLOCK_TENSORS; k++) {
        m->value[k] = gsl_matrix_view_vector(&v[k].vector, 1, v[k].vector.size);
        m->grad[k] = gsl_matrix_view_vector(&g[k].vector, 1, g[k].vector.size);
    }
    m->value[BLOCK_TENSORS] = gsl_matrix_submatrix(m->Wout, 0, 0, m->Wout->size1, m->Wout->size2);
    m->grad[BLOCK_TENSORS] = gsl_matrix_submatrix(m->dWout, 0, 0, m->Wout->size1, m->Wout->size2);
    m->value[BLOCK_TENSORS + 1] = gsl_matrix_submatrix(m->bout, 0, 0, 1, m->bout->size2);
    m->grad[BLOCK_TENSORS + 1] = gsl_matrix_submatrix(m->dbout, 0, 0, 1, m->bout->size2);
    for (int k = 0; k < TENSORS; k++) {
        param_set *ps = &m->ps[k / HALF];
        ps->value[ps->n] = &m->value[k].matrix;
        ps->grad[ps->n++] = &m->grad[k].matrix;
    }
    int status = adam_init(&m->opt[0], &m->ps[0], rate);
    return status ? status : adam_init(&m->opt[1], &m->ps[1], rate);
}

learn_block *learn_block_new(size_t d, size_t heads, size_t hidden, size_t classes, double rate,
                             gsl_rng *r)
{
    learn_block *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->w = block_new(d, heads, hidden, r);
    m->g = block_new(d, heads, hidden, r);
    m->Wout = mat_gaussian(classes, d, 1.0 / sqrt((double)d), r);
    m->bout = gsl_matrix_calloc(1, classes);
    m->dWout = gsl_matrix_calloc(classes, d);
    m->dbout = gsl_matrix_calloc(1, classes);
    if (!m->w || !m->g || !m->Wout || !m->bout || !m->dWout || !m->dbout ||
        list_tensors(m, rate) != INVENT_OK) {
        learn_block_free(m);
        return NULL;
    }
    block_set_zero(m->g);
    return m;
}

block_weights *learn_block_weights(learn_block *m)
{
    return m->w;
}

int learn_block_freeze(learn_block *m, size_t k)
{
    if (k >= BLOCK_TENSORS)
        return INVENT_ERANGE;
    m->frozen[k] = 1;
    return INVENT_OK;
}

/* the trace and scratch fit T tokens */
static int fit_length(learn_block *m, size_t T)
{
    if (m->tr && m->T == T)
        return INVENT_OK;
    block_trace_free(m->tr);
    block_work_free(m->work);
    m->tr = block_trace_new(T, m->w);
    m->work = block_work_new(T, m->w);
    m->T = T;
    return m->tr && m->work ? INVENT_OK : INVENT_ENOMEM;
}

/* rows (n, d) of Y at `at`, their logits Z (n, classes), and the gradients back into the
 * block when train is set */
typedef struct {
    gsl_matrix *Y, *rows, *Z, *dZ, *drows, *dY;
} pass_space;

static void space_free(pass_space *s)
{
    gsl_matrix *all[] = {s->Y, s->rows, s->Z, s->dZ, s->drows, s->dY};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        gsl_matrix_free(all[k]);
}

static int space_alloc(pass_space *s, size_t T, size_t d, size_t n, size_t classes)
{
    *s = (pass_space){gsl_matrix_alloc(T, d), gsl_matrix_alloc(n, d),
                      gsl_matrix_alloc(n, classes), gsl_matrix_calloc(n, classes),
                      gsl_matrix_calloc(n, d), gsl_matrix_calloc(T, d)};
    return s->Y && s->rows && s->Z && s->dZ && s->drows && s->dY ? INVENT_OK : INVENT_ENOMEM;
}

/* dZ -> gradients of the read-out, and of the block through dY at the rows read */
static int pass_backward(learn_block *m, const gsl_matrix *X, const size_t *at,
                         const size_t *y, pass_space *s)
{
    gsl_vector_view db = gsl_matrix_row(m->dbout, 0);
    int status = xent_backward(s->Z, y, s->dZ);
    if (status == INVENT_OK)
        status = linear_backward(s->rows, m->Wout, s->dZ, s->drows, m->dWout, &db.vector);
    for (size_t k = 0; status == INVENT_OK && k < s->rows->size1; k++) {
        gsl_vector_view to = gsl_matrix_row(s->dY, at[k]);
        gsl_vector_view from = gsl_matrix_row(s->drows, k);
        gsl_vector_add(&to.vector, &from.vector);
    }
    return status ? status : block_backward(m->w, X, m->tr, s->dY, m->g, NULL, m->work);
}

int learn_block_pass(learn_block *m, const gsl_matrix *X, const size_t *at, const size_t *y,
                     size_t n, int train, double *loss, size_t *right)
{
    for (size_t k = 0; k < n; k++)
        if (at[k] >= X->size1)
            return INVENT_ERANGE;
    pass_space s;
    int status = fit_length(m, X->size1);
    if (status == INVENT_OK)
        status = space_alloc(&s, X->size1, X->size2, n, m->Wout->size1);
    else
        return status;
    if (status == INVENT_OK)
        status = block_forward(m->w, X, m->tr, s.Y);
    for (size_t k = 0; status == INVENT_OK && k < n; k++) {
        gsl_vector_view row = gsl_matrix_row(s.Y, at[k]);
        gsl_matrix_set_row(s.rows, k, &row.vector);
    }
    gsl_vector_view b = gsl_matrix_row(m->bout, 0);
    double mean = 0.0;
    size_t correct = 0;
    if (status == INVENT_OK)
        status = linear_forward(s.rows, m->Wout, &b.vector, s.Z);
    if (status == INVENT_OK)
        status = xent_forward(s.Z, y, &mean, &correct);
    if (status == INVENT_OK && train)
        status = pass_backward(m, X, at, y, &s);
    space_free(&s);
    if (loss)
        *loss = mean;
    if (right)
        *right = correct;
    return status;
}

int learn_block_step(learn_block *m)
{
    for (int k = 0; k < TENSORS; k++)
        if (m->frozen[k])
            gsl_matrix_set_zero(&m->grad[k].matrix);
    int status = adam_step(&m->opt[0], &m->ps[0]);
    if (status == INVENT_OK)
        status = adam_step(&m->opt[1], &m->ps[1]);
    block_set_zero(m->g);
    gsl_matrix_set_zero(m->dWout);
    gsl_matrix_set_zero(m->dbout);
    return status;
}
