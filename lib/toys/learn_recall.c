#include "learn_recall.h"

#include <math.h>
#include <stdlib.h>

#include "heads.h"
#include "linear.h"
#include "mat.h"
#include "rnn.h"
#include "status.h"

/* Shared by both readers: the final token's features -> logits. */
typedef struct {
    param_set ps;
    gsl_matrix *Wout, *bout; /* (c, width), (1, c) */
    gsl_matrix *last;        /* (1, width): what the read-out saw */
    gsl_matrix *dlast;       /* (1, width) */
} readout;

static int readout_init(readout *o, size_t width, size_t classes, gsl_rng *r)
{
    o->Wout = params_add(&o->ps, classes, width, 1.0 / sqrt((double)width), r);
    o->bout = params_add(&o->ps, 1, classes, 0.0, r);
    o->last = gsl_matrix_calloc(1, width);
    o->dlast = gsl_matrix_calloc(1, width);
    return o->Wout && o->bout && o->last && o->dlast ? INVENT_OK : INVENT_ENOMEM;
}

static void readout_free(readout *o)
{
    params_free(&o->ps);
    gsl_matrix_free(o->last);
    gsl_matrix_free(o->dlast);
}

/* row `row` of M -> o->last -> z */
static int readout_forward(readout *o, const gsl_matrix *M, size_t row, gsl_matrix *z)
{
    gsl_vector_const_view h = gsl_matrix_const_row(M, row);
    gsl_matrix_set_row(o->last, 0, &h.vector);
    gsl_vector_view b = gsl_matrix_row(o->bout, 0);
    return linear_forward(o->last, o->Wout, &b.vector, z);
}

/* dz -> gradients of the read-out, and o->dlast */
static int readout_backward(readout *o, const gsl_matrix *dz)
{
    gsl_vector_view db = gsl_matrix_row(o->ps.grad[1], 0);
    gsl_matrix_set_zero(o->dlast);
    return linear_backward(o->last, o->Wout, dz, o->dlast, o->ps.grad[0], &db.vector);
}

/* grows M to (rows, cols) when the sequence length changes */
static int fit(gsl_matrix **M, size_t rows, size_t cols)
{
    if (*M && (*M)->size1 == rows && (*M)->size2 == cols)
        return INVENT_OK;
    gsl_matrix_free(*M);
    *M = gsl_matrix_calloc(rows, cols);
    return *M ? INVENT_OK : INVENT_ENOMEM;
}

/* ---------------------------------------------------------- recurrent reader */
typedef struct {
    readout out;    /* params: Wout, bout, then W, U */
    rnn_cell cell;  /* W, U point into out.ps */
    gsl_matrix *H;  /* (T, m): every state of the last forward pass */
    gsl_matrix *dH; /* (T, m) */
    gsl_matrix *work; /* (2, m): rnn_unroll_backward's scratch */
} rnn_reader;

static int rnn_forward(void *self, const gsl_matrix *x, gsl_matrix *z)
{
    rnn_reader *m = self;
    int status = fit(&m->H, x->size1, m->cell.W->size1);
    if (status == INVENT_OK)
        status = rnn_unroll(&m->cell, x, m->H);
    return status ? status : readout_forward(&m->out, m->H, x->size1 - 1, z);
}

static int rnn_backward(void *self, const gsl_matrix *x, const gsl_matrix *dz)
{
    rnn_reader *m = self;
    int status = readout_backward(&m->out, dz);
    if (status == INVENT_OK)
        status = fit(&m->dH, x->size1, m->cell.W->size1);
    if (status != INVENT_OK)
        return status;
    gsl_matrix_set_zero(m->dH);
    gsl_vector_view g = gsl_matrix_row(m->out.dlast, 0);
    gsl_matrix_set_row(m->dH, x->size1 - 1, &g.vector); /* only the last state is read */
    return rnn_unroll_backward(&m->cell, x, m->H, m->dH, m->out.ps.grad[2], m->out.ps.grad[3],
                               NULL, m->work);
}

static void rnn_release(void *self)
{
    rnn_reader *m = self;
    readout_free(&m->out);
    gsl_matrix_free(m->H);
    gsl_matrix_free(m->dH);
    gsl_matrix_free(m->work);
    free(m);
}

int learn_recall_rnn(size_t p, size_t m, size_t classes, gsl_rng *r, train_model *out)
{
    rnn_reader *s = calloc(1, sizeof *s);
    if (!s)
        return INVENT_ENOMEM;
    *out = (train_model){s, &s->out.ps, rnn_forward, rnn_backward, rnn_release};
    int status = readout_init(&s->out, m, classes, r);
    s->cell = (rnn_cell){params_add(&s->out.ps, m, m, 0.0, r),
                         params_add(&s->out.ps, m, p, 1.0 / sqrt((double)p), r), RNN_TANH};
    s->work = gsl_matrix_alloc(2, m);
    if (status == INVENT_OK && (!s->cell.W || !s->cell.U || !s->work))
        status = INVENT_ENOMEM;
    if (status == INVENT_OK) /* a rotation: the state neither fades nor explodes at first */
        status = mat_random_orthogonal(s->cell.W, r);
    if (status != INVENT_OK)
        train_model_release(out);
    return status;
}

/* ---------------------------------------------------------- attention reader */
typedef struct {
    readout out;    /* params: Wout, bout, then Wq, Wk, Wv, Wo */
    mha_weights w;  /* point into out.ps values */
    mha_weights g;  /* point into out.ps gradients */
    mha_trace *tr;  /* for the current sequence length */
    mha_work *work; /* the same */
    gsl_matrix *A;  /* (T, d): the attention layer's output */
    gsl_matrix *dA; /* (T, d) */
} attention_reader;

/* trace and workspace sized for T tokens, remade when T changes */
static int attention_fit(attention_reader *m, size_t T)
{
    if (m->tr && m->work && m->tr->Q->size1 == T)
        return INVENT_OK;
    mha_trace_free(m->tr);
    mha_work_free(m->work);
    m->tr = mha_trace_new(T, &m->w);
    m->work = mha_work_new(T, &m->w);
    return m->tr && m->work ? INVENT_OK : INVENT_ENOMEM;
}

static int attention_forward(void *self, const gsl_matrix *x, gsl_matrix *z)
{
    attention_reader *m = self;
    size_t T = x->size1;
    int status = attention_fit(m, T);
    if (status == INVENT_OK)
        status = fit(&m->A, T, x->size2);
    if (status == INVENT_OK)
        status = mha_forward(&m->w, x, ATTN_CAUSAL, m->tr, m->A);
    return status ? status : readout_forward(&m->out, m->A, T - 1, z);
}

static int attention_backward(void *self, const gsl_matrix *x, const gsl_matrix *dz)
{
    attention_reader *m = self;
    int status = readout_backward(&m->out, dz);
    if (status == INVENT_OK)
        status = fit(&m->dA, x->size1, x->size2);
    if (status != INVENT_OK)
        return status;
    gsl_matrix_set_zero(m->dA);
    gsl_vector_view g = gsl_matrix_row(m->out.dlast, 0);
    gsl_matrix_set_row(m->dA, x->size1 - 1, &g.vector); /* only the query's output is read */
    return mha_backward(&m->w, x, m->tr, m->dA, &m->g, NULL, m->work);
}

static void attention_release(void *self)
{
    attention_reader *m = self;
    readout_free(&m->out);
    mha_trace_free(m->tr);
    mha_work_free(m->work);
    gsl_matrix_free(m->A);
    gsl_matrix_free(m->dA);
    free(m);
}

int learn_recall_attention(size_t p, size_t heads, size_t k, size_t classes, gsl_rng *r,
                           train_model *out)
{
    attention_reader *s = calloc(1, sizeof *s);
    if (!s)
        return INVENT_ENOMEM;
    *out = (train_model){s, &s->out.ps, attention_forward, attention_backward, attention_release};
    int status = readout_init(&s->out, p, classes, r);
    const size_t rows[4] = {heads * k, heads * k, heads * k, p};
    const size_t cols[4] = {p, p, p, heads * k};
    for (int j = 0; j < 4 && status == INVENT_OK; j++)
        if (!params_add(&s->out.ps, rows[j], cols[j], 1.0 / sqrt((double)cols[j]), r))
            status = INVENT_ENOMEM;
    if (status != INVENT_OK) {
        train_model_release(out);
        return status;
    }
    gsl_matrix **v = s->out.ps.value, **g = s->out.ps.grad;
    s->w = (mha_weights){heads, v[2], v[3], v[4], v[5], NULL};
    s->g = (mha_weights){heads, g[2], g[3], g[4], g[5], NULL};
    return INVENT_OK;
}

void learn_recall_attention_blind(train_model *m)
{
    attention_reader *s = m->self;
    gsl_matrix_set_zero(s->w.Wq);
}
