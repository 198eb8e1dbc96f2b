#include "gradcheck.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "activation.h"
#include "attention.h"
#include "block.h"
#include "fdcheck.h"
#include "heads.h"
#include "layernorm.h"
#include "linear.h"
#include "mask.h"
#include "mlp.h"
#include "params.h"
#include "rnn.h"
#include "softmax.h"
#include "status.h"
#include "xent.h"

#define STEP 1e-5

/* Every case keeps its tensors in a param_set: value = the tensor, grad =
 * the gradient the backward pass claims for it. R is the probe, Y the output. */
typedef struct {
    param_set t;
    gsl_matrix *R, *Y;
    int ok;
} bench;

/* -> a new tensor of N(0, 1) entries with its gradient slot */
static gsl_matrix *tensor(bench *b, size_t rows, size_t cols, gsl_rng *r)
{
    gsl_matrix *m = params_add(&b->t, rows, cols, 1.0, r);
    b->ok = b->ok && m;
    return m;
}

static void probe(bench *b, size_t rows, size_t cols, gsl_rng *r)
{
    b->R = tensor(b, rows, cols, r);
    b->Y = tensor(b, rows, cols, r);
}

static gsl_matrix *grad_of(const bench *b, const gsl_matrix *m)
{
    for (size_t k = 0; k < b->t.n; k++)
        if (b->t.value[k] == m)
            return b->t.grad[k];
    return NULL;
}

/* the larger of two errors; NaN (a failed pass) wins */
static double worse(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : fmax(a, b);
}

/* worst relative error over the listed tensors; NaN when status says the
 * backward pass failed */
static double worst_error(bench *b, fd_loss loss, gsl_matrix *const *checked, size_t n,
                          int status)
{
    double worst = status == INVENT_OK && b->ok ? 0.0 : NAN;
    for (size_t k = 0; k < n && !isnan(worst); k++)
        worst = worse(worst, fdcheck_matrix(loss, b, checked[k], grad_of(b, checked[k]), STEP));
    return worst;
}

/* worst_error, then frees the bench */
static double verdict(bench *b, fd_loss loss, gsl_matrix *const *checked, size_t n, int status)
{
    double worst = worst_error(b, loss, checked, n, status);
    params_free(&b->t);
    return worst;
}

static gsl_vector_view row0(gsl_matrix *m)
{
    return gsl_matrix_row(m, 0);
}

/* ---- linear: Y = X W^T + b */
typedef struct {
    bench b;
    gsl_matrix *X, *W, *bias;
} linear_case;

static double linear_loss(void *ctx)
{
    linear_case *c = ctx;
    gsl_vector_view bias = row0(c->bias);
    return linear_forward(c->X, c->W, &bias.vector, c->b.Y) ? NAN : fdcheck_probe(c->b.Y, c->b.R);
}

static double check_linear(gsl_rng *r)
{
    linear_case c = {.b.ok = 1};
    c.X = tensor(&c.b, 4, 3, r);
    c.W = tensor(&c.b, 5, 3, r);
    c.bias = tensor(&c.b, 1, 5, r);
    probe(&c.b, 4, 5, r);
    int status = INVENT_ENOMEM;
    if (c.b.ok) {
        gsl_vector_view db = row0(grad_of(&c.b, c.bias));
        status = linear_backward(c.X, c.W, c.b.R, grad_of(&c.b, c.X), grad_of(&c.b, c.W),
                                 &db.vector);
    }
    gsl_matrix *const checked[] = {c.X, c.W, c.bias};
    return verdict(&c.b, linear_loss, checked, 3, status);
}

/* ---- tanh and ReLU, elementwise */
typedef struct {
    bench b;
    gsl_matrix *X;
    int relu;
} activation_case;

static double activation_loss(void *ctx)
{
    activation_case *c = ctx;
    gsl_matrix_memcpy(c->b.Y, c->X);
    if (c->relu)
        activation_relu(c->b.Y);
    else
        activation_tanh(c->b.Y);
    return fdcheck_probe(c->b.Y, c->b.R);
}

/* inputs kept at least 0.1 away from ReLU's kink, where differences would lie */
static void away_from_zero(gsl_matrix *X)
{
    for (size_t i = 0; i < X->size1; i++)
        for (size_t j = 0; j < X->size2; j++) {
            double v = gsl_matrix_get(X, i, j);
            gsl_matrix_set(X, i, j, copysign(0.1 + fabs(v), v));
        }
}

static double check_activation(gsl_rng *r, int relu)
{
    activation_case c = {.b.ok = 1, .relu = relu};
    c.X = tensor(&c.b, 4, 6, r);
    probe(&c.b, 4, 6, r);
    int status = INVENT_ENOMEM;
    if (c.b.ok) {
        away_from_zero(c.X);
        activation_loss(&c);
        status = relu ? activation_relu_backward(c.b.Y, c.b.R, grad_of(&c.b, c.X))
                      : activation_tanh_backward(c.b.Y, c.b.R, grad_of(&c.b, c.X));
    }
    gsl_matrix *const checked[] = {c.X};
    return verdict(&c.b, activation_loss, checked, 1, status);
}

static double check_tanh(gsl_rng *r)
{
    return check_activation(r, 0);
}

static double check_relu(gsl_rng *r)
{
    return check_activation(r, 1);
}

/* ---- row softmax of causally masked scores */
typedef struct {
    bench b;
    gsl_matrix *S;
} softmax_case;

static double softmax_loss(void *ctx)
{
    softmax_case *c = ctx;
    gsl_matrix_memcpy(c->b.Y, c->S);
    mask_causal(c->b.Y);
    return softmax_rows(c->b.Y, 1.0) ? NAN : fdcheck_probe(c->b.Y, c->b.R);
}

static double check_softmax(gsl_rng *r)
{
    softmax_case c = {.b.ok = 1};
    c.S = tensor(&c.b, 5, 5, r);
    probe(&c.b, 5, 5, r);
    int status = c.b.ok && !isnan(softmax_loss(&c)) ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = softmax_rows_backward(c.b.Y, c.b.R, grad_of(&c.b, c.S));
    gsl_matrix *const checked[] = {c.S};
    return verdict(&c.b, softmax_loss, checked, 1, status);
}

/* ---- scaled dot-product attention, causal */
typedef struct {
    bench b;
    gsl_matrix *Q, *K, *V, *W, *work;
    double scale;
} attention_case;

static double attention_loss(void *ctx)
{
    attention_case *c = ctx;
    return attn_matrix_form(c->Q, c->K, c->V, c->scale, ATTN_CAUSAL, c->b.Y)
               ? NAN
               : fdcheck_probe(c->b.Y, c->b.R);
}

static double check_attention(gsl_rng *r)
{
    attention_case c = {.b.ok = 1, .scale = 0.5};
    c.Q = tensor(&c.b, 5, 4, r);
    c.K = tensor(&c.b, 5, 4, r);
    c.V = tensor(&c.b, 5, 3, r);
    c.W = tensor(&c.b, 5, 5, r);
    c.work = tensor(&c.b, 10, 5, r);
    probe(&c.b, 5, 3, r);
    int status = c.b.ok ? attn_forward(c.Q, c.K, c.V, c.scale, ATTN_CAUSAL, c.W, c.b.Y)
                        : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = attn_backward(c.Q, c.K, c.V, c.scale, c.W, c.b.R, grad_of(&c.b, c.Q),
                               grad_of(&c.b, c.K), grad_of(&c.b, c.V), c.work);
    gsl_matrix *const checked[] = {c.Q, c.K, c.V};
    return verdict(&c.b, attention_loss, checked, 3, status);
}

/* ---- multi-head attention with W_o, causal */
typedef struct {
    bench b;
    gsl_matrix *X;
    mha_weights *w;
    mha_trace *tr;
} heads_case;

static double heads_loss(void *ctx)
{
    heads_case *c = ctx;
    return mha_forward(c->w, c->X, ATTN_CAUSAL, c->tr, c->b.Y) ? NAN
                                                                : fdcheck_probe(c->b.Y, c->b.R);
}

/* X's gradient lives in the bench, the weights' in g */
static double heads_error(heads_case *c, const mha_weights *g, int status)
{
    double worst = worst_error(&c->b, heads_loss, (gsl_matrix *const[]){c->X}, 1, status);
    const gsl_matrix *grads[] = {g->Wq, g->Wk, g->Wv, g->Wo};
    gsl_matrix *values[] = {c->w->Wq, c->w->Wk, c->w->Wv, c->w->Wo};
    for (int k = 0; k < 4 && !isnan(worst); k++)
        worst = worse(worst, fdcheck_matrix(heads_loss, c, values[k], grads[k], STEP));
    return worst;
}

static double check_heads(gsl_rng *r)
{
    const size_t T = 4, d = 6, H = 2, dk = 3, dv = 2;
    heads_case c = {.b.ok = 1};
    c.X = tensor(&c.b, T, d, r);
    probe(&c.b, T, d, r);
    c.w = mha_new(d, H, dk, dv, r);
    mha_weights *g = mha_new(d, H, dk, dv, r);
    c.tr = c.w ? mha_trace_new(T, c.w) : NULL;
    mha_work *work = c.w ? mha_work_new(T, c.w) : NULL;
    int status = c.b.ok && g && c.tr && work ? mha_forward(c.w, c.X, ATTN_CAUSAL, c.tr, c.b.Y)
                                             : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix *gw[] = {g->Wq, g->Wk, g->Wv, g->Wo};
        for (int k = 0; k < 4; k++)
            gsl_matrix_set_zero(gw[k]);
        status = mha_backward(c.w, c.X, c.tr, c.b.R, g, grad_of(&c.b, c.X), work);
    }
    double worst = heads_error(&c, g, status);
    params_free(&c.b.t);
    mha_trace_free(c.tr);
    mha_work_free(work);
    mha_free(c.w);
    mha_free(g);
    return worst;
}

/* ---- layer normalisation */
typedef struct {
    bench b;
    gsl_matrix *X, *gamma, *beta, *mean, *rstd;
} layernorm_case;

static double layernorm_loss(void *ctx)
{
    layernorm_case *c = ctx;
    gsl_vector_view g = row0(c->gamma), be = row0(c->beta), mu = row0(c->mean),
                    rs = row0(c->rstd);
    return layernorm_forward(c->X, &g.vector, &be.vector, 1e-5, c->b.Y, &mu.vector, &rs.vector)
               ? NAN
               : fdcheck_probe(c->b.Y, c->b.R);
}

/* the layer norm case; wrong: dX = rstd * gamma * dY instead of the backward pass */
static double layernorm_run(gsl_rng *r, int wrong)
{
    const size_t T = 3, d = 5;
    layernorm_case c = {.b.ok = 1};
    c.X = tensor(&c.b, T, d, r);
    c.gamma = tensor(&c.b, 1, d, r);
    c.beta = tensor(&c.b, 1, d, r);
    c.mean = tensor(&c.b, 1, T, r);
    c.rstd = tensor(&c.b, 1, T, r);
    probe(&c.b, T, d, r);
    int status = c.b.ok && !isnan(layernorm_loss(&c)) ? INVENT_OK : INVENT_ENOMEM;
    gsl_matrix *dX = status == INVENT_OK ? grad_of(&c.b, c.X) : NULL;
    if (status == INVENT_OK) {
        gsl_vector_view g = row0(c.gamma), mu = row0(c.mean), rs = row0(c.rstd),
                        dg = row0(grad_of(&c.b, c.gamma)), db = row0(grad_of(&c.b, c.beta));
        status = layernorm_backward(c.X, &g.vector, &mu.vector, &rs.vector, c.b.R,
                                    wrong ? NULL : dX, &dg.vector, &db.vector);
    }
    for (size_t t = 0; wrong && status == INVENT_OK && t < T; t++)
        for (size_t j = 0; j < d; j++)
            gsl_matrix_set(dX, t, j, gsl_matrix_get(c.rstd, 0, t) * gsl_matrix_get(c.gamma, 0, j) *
                                         gsl_matrix_get(c.b.R, t, j));
    gsl_matrix *const checked[] = {c.X, c.gamma, c.beta};
    return verdict(&c.b, layernorm_loss, checked, 3, status);
}

static double check_layernorm(gsl_rng *r)
{
    return layernorm_run(r, 0);
}

double gradcheck_wrong_layernorm(gsl_rng *r)
{
    return layernorm_run(r, 1);
}

/* ---- the recurrent cell through time; the probe reads every state */
typedef struct {
    bench b;
    gsl_matrix *X;
    rnn_cell *cell;
} rnn_case;

static double rnn_loss(void *ctx)
{
    rnn_case *c = ctx;
    return rnn_unroll(c->cell, c->X, c->b.Y) ? NAN : fdcheck_probe(c->b.Y, c->b.R);
}

static double check_rnn(gsl_rng *r, rnn_activation act)
{
    const size_t n = 6, m = 4, p = 3;
    rnn_case c = {.b.ok = 1};
    c.X = tensor(&c.b, n, p, r);
    probe(&c.b, n, m, r);
    c.cell = rnn_cell_new(m, p, act, r);
    gsl_matrix *dW = tensor(&c.b, m, m, r), *dU = tensor(&c.b, m, p, r);
    gsl_matrix *work = tensor(&c.b, 2, m, r);
    int status = c.b.ok && c.cell && !isnan(rnn_loss(&c)) ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        gsl_matrix_set_zero(dW);
        gsl_matrix_set_zero(dU);
        status = rnn_unroll_backward(c.cell, c.X, c.b.Y, c.b.R, dW, dU, grad_of(&c.b, c.X), work);
    }
    double worst = worst_error(&c.b, rnn_loss, (gsl_matrix *const[]){c.X}, 1, status);
    if (!isnan(worst))
        worst = worse(worst, worse(fdcheck_matrix(rnn_loss, &c, c.cell->W, dW, STEP),
                                   fdcheck_matrix(rnn_loss, &c, c.cell->U, dU, STEP)));
    params_free(&c.b.t);
    rnn_cell_free(c.cell);
    return worst;
}

static double check_rnn_tanh(gsl_rng *r)
{
    return check_rnn(r, RNN_TANH);
}

static double check_rnn_linear(gsl_rng *r)
{
    return check_rnn(r, RNN_LINEAR);
}

/* ---- cross-entropy of logits */
typedef struct {
    bench b;
    gsl_matrix *Z;
    size_t y[4];
} xent_case;

static double xent_case_loss(void *ctx)
{
    xent_case *c = ctx;
    double loss;
    return xent_forward(c->Z, c->y, &loss, NULL) ? NAN : loss;
}

static double check_xent(gsl_rng *r)
{
    xent_case c = {.b.ok = 1, .y = {2, 0, 4, 1}};
    c.Z = tensor(&c.b, 4, 5, r);
    int status = c.b.ok ? xent_backward(c.Z, c.y, grad_of(&c.b, c.Z)) : INVENT_ENOMEM;
    gsl_matrix *const checked[] = {c.Z};
    return verdict(&c.b, xent_case_loss, checked, 1, status);
}

/* ---- the MLP with ReLU, and the whole block: parameters kept outside the bench */

/* worst relative error of the gradients g[k] claimed for the flat tensors v[k] */
static double tensors_error(fd_loss loss, void *ctx, gsl_vector_view *v, gsl_vector_view *g,
                            size_t n)
{
    double worst = 0.0;
    for (size_t k = 0; k < n && !isnan(worst); k++) {
        size_t len = v[k].vector.size;
        gsl_matrix_view P = gsl_matrix_view_vector(&v[k].vector, 1, len),
                        G = gsl_matrix_view_vector(&g[k].vector, 1, len);
        worst = worse(worst, fdcheck_matrix(loss, ctx, &P.matrix, &G.matrix, STEP));
    }
    return worst;
}

/* every entry of the vectors += N(0, 0.3^2): gammas off 1, betas and biases off 0 */
static void jitter(gsl_vector *const *v, size_t n, gsl_rng *r)
{
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < v[k]->size; i++)
            *gsl_vector_ptr(v[k], i) += gsl_ran_gaussian(r, 0.3);
}

typedef struct {
    bench b;
    gsl_matrix *X;
    mlp_weights *w;
    mlp_trace *tr;
} mlp_case;

static double mlp_loss(void *ctx)
{
    mlp_case *c = ctx;
    return mlp_forward(c->w, c->X, c->tr, c->b.Y) ? NAN : fdcheck_probe(c->b.Y, c->b.R);
}

/* W1, b1, W2, b2 of w as flat views */
static void mlp_views(mlp_weights *w, gsl_vector_view v[4])
{
    v[0] = gsl_vector_view_array(w->W1->data, w->W1->size1 * w->W1->size2);
    v[1] = gsl_vector_subvector(w->b1, 0, w->b1->size);
    v[2] = gsl_vector_view_array(w->W2->data, w->W2->size1 * w->W2->size2);
    v[3] = gsl_vector_subvector(w->b2, 0, w->b2->size);
}

static double check_mlp(gsl_rng *r)
{
    const size_t T = 4, d = 5, m = 7;
    mlp_case c = {.b.ok = 1};
    c.X = tensor(&c.b, T, d, r);
    probe(&c.b, T, d, r);
    c.w = mlp_new(d, m, MLP_RELU, r);
    mlp_weights *g = mlp_new(d, m, MLP_RELU, r);
    c.tr = c.w ? mlp_trace_new(T, c.w) : NULL;
    gsl_matrix *work = tensor(&c.b, 2 * T, m, r);
    gsl_vector_view v[4], gv[4];
    int status = c.b.ok && c.w && g && c.tr ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        jitter((gsl_vector *const[]){c.w->b1, c.w->b2}, 2, r);
        mlp_views(c.w, v);
        mlp_views(g, gv);
        for (int k = 0; k < 4; k++)
            gsl_vector_set_zero(&gv[k].vector);
        status = mlp_forward(c.w, c.X, c.tr, c.b.Y);
    }
    if (status == INVENT_OK)
        status = mlp_backward(c.w, c.X, c.tr, c.b.R, g, grad_of(&c.b, c.X), work);
    double worst = worst_error(&c.b, mlp_loss, (gsl_matrix *const[]){c.X}, 1, status);
    if (!isnan(worst))
        worst = worse(worst, tensors_error(mlp_loss, &c, v, gv, 4));
    params_free(&c.b.t);
    mlp_trace_free(c.tr);
    mlp_free(c.w);
    mlp_free(g);
    return worst;
}

typedef struct {
    bench b;
    gsl_matrix *X;
    block_weights *w;
    block_trace *tr;
} block_case;

static double block_loss(void *ctx)
{
    block_case *c = ctx;
    return block_forward(c->w, c->X, c->tr, c->b.Y) ? NAN : fdcheck_probe(c->b.Y, c->b.R);
}

/* a block of T = 4 tokens, d = 6, 2 heads, m = 8: forward, backward, and
 * every tensor's gradient (X and the 12 of the weights) against differences */
static double check_block(gsl_rng *r, block_norm norm)
{
    const size_t T = 4, d = 6, H = 2, m = 8;
    block_case c = {.b.ok = 1};
    c.X = tensor(&c.b, T, d, r);
    probe(&c.b, T, d, r);
    c.w = block_new(d, H, m, r);
    block_weights *g = block_new(d, H, m, r);
    block_work *work = c.w ? block_work_new(T, c.w) : NULL;
    c.tr = c.w ? block_trace_new(T, c.w) : NULL;
    int status = c.b.ok && g && work && c.tr ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK) {
        c.w->norm = norm;
        jitter((gsl_vector *const[]){c.w->gamma1, c.w->beta1, c.w->mlp->b1, c.w->mlp->b2,
                                     c.w->gamma2, c.w->beta2}, 6, r);
        block_set_zero(g);
        status = block_forward(c.w, c.X, c.tr, c.b.Y);
    }
    if (status == INVENT_OK)
        status = block_backward(c.w, c.X, c.tr, c.b.R, g, grad_of(&c.b, c.X), work);
    double worst = worst_error(&c.b, block_loss, (gsl_matrix *const[]){c.X}, 1, status);
    gsl_vector_view v[BLOCK_TENSORS], gv[BLOCK_TENSORS];
    if (!isnan(worst)) {
        block_tensors(c.w, v);
        block_tensors(g, gv);
        worst = worse(worst, tensors_error(block_loss, &c, v, gv, BLOCK_TENSORS));
    }
    params_free(&c.b.t);
    block_trace_free(c.tr);
    block_work_free(work);
    block_free(c.w);
    block_free(g);
    return worst;
}

static double check_block_post(gsl_rng *r)
{
    return check_block(r, BLOCK_POST_NORM);
}

static double check_block_pre(gsl_rng *r)
{
    return check_block(r, BLOCK_PRE_NORM);
}

static const gradcheck_case cases[] = {
    {"linear", "dX, dW, db", check_linear},
    {"tanh", "dX", check_tanh},
    {"relu", "dX", check_relu},
    {"softmax (causal mask)", "dS", check_softmax},
    {"attention (one head)", "dQ, dK, dV", check_attention},
    {"attention (two heads, W_o)", "dX, dW_q, dW_k, dW_v, dW_o", check_heads},
    {"layer normalisation", "dX, dgamma, dbeta", check_layernorm},
    {"recurrent cell (tanh)", "dX, dW, dU through time", check_rnn_tanh},
    {"recurrent cell (linear)", "dX, dW, dU through time", check_rnn_linear},
    {"cross-entropy", "dZ", check_xent},
    {"MLP (ReLU)", "dX, dW1, db1, dW2, db2", check_mlp},
    {"block (post-norm)", "dX and all 12 weight tensors", check_block_post},
    {"block (pre-norm)", "dX and all 12 weight tensors", check_block_pre},
};

const gradcheck_case *gradcheck_cases(size_t *n)
{
    *n = sizeof cases / sizeof cases[0];
    return cases;
}

const gradcheck_case *gradcheck_find(const char *name)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        if (strcmp(cases[k].name, name) == 0)
            return &cases[k];
    return NULL;
}
