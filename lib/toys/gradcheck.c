#include "gradcheck.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
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

/* near miss: the bias gradient read from the first row of dY, not summed over the rows */
static double check_linear(gsl_rng *r, int near_miss)
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
        gsl_vector_view first = row0(c.b.R);
        if (near_miss)
            gsl_vector_memcpy(&db.vector, &first.vector);
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

/* dX <- dY * (1 - X^2) for tanh (the derivative taken at the input, not from the output
 * y = tanh x), dX <- dY for ReLU (the mask forgotten) */
static void activation_near_miss(const gsl_matrix *X, const gsl_matrix *dY, int relu,
                                 gsl_matrix *dX)
{
    for (size_t i = 0; i < X->size1; i++)
        for (size_t j = 0; j < X->size2; j++) {
            double x = gsl_matrix_get(X, i, j);
            gsl_matrix_set(dX, i, j, gsl_matrix_get(dY, i, j) * (relu ? 1.0 : 1.0 - x * x));
        }
}

static double check_activation(gsl_rng *r, int relu, int near_miss)
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
        if (near_miss)
            activation_near_miss(c.X, c.b.R, relu, grad_of(&c.b, c.X));
    }
    gsl_matrix *const checked[] = {c.X};
    return verdict(&c.b, activation_loss, checked, 1, status);
}

static double check_tanh(gsl_rng *r, int near_miss)
{
    return check_activation(r, 0, near_miss);
}

static double check_relu(gsl_rng *r, int near_miss)
{
    return check_activation(r, 1, near_miss);
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

/* near miss: dS = P * dP, the row's - P sum(P * dP) term dropped */
static double check_softmax(gsl_rng *r, int near_miss)
{
    softmax_case c = {.b.ok = 1};
    c.S = tensor(&c.b, 5, 5, r);
    probe(&c.b, 5, 5, r);
    int status = c.b.ok && !isnan(softmax_loss(&c)) ? INVENT_OK : INVENT_ENOMEM;
    if (status == INVENT_OK)
        status = softmax_rows_backward(c.b.Y, c.b.R, grad_of(&c.b, c.S));
    if (status == INVENT_OK && near_miss) {
        gsl_matrix_memcpy(grad_of(&c.b, c.S), c.b.Y);
        gsl_matrix_mul_elements(grad_of(&c.b, c.S), c.b.R);
    }
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
    return attn_forward(c->Q, c->K, c->V, c->scale, ATTN_CAUSAL, c->W, c->b.Y)
               ? NAN
               : fdcheck_probe(c->b.Y, c->b.R);
}

/* near miss: dQ and dK without the scale (the forward pass scaled the scores, the
 * backward pass forgot it) */
static double check_attention(gsl_rng *r, int near_miss)
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
    if (status == INVENT_OK && near_miss) {
        gsl_matrix_scale(grad_of(&c.b, c.Q), 1.0 / c.scale);
        gsl_matrix_scale(grad_of(&c.b, c.K), 1.0 / c.scale);
    }
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

/* dW_q: (H dk, d) -> its two heads' row blocks exchanged (a slicing mistake) */
static void swap_heads(gsl_matrix *dWq, size_t dk)
{
    for (size_t i = 0; i < dk; i++)
        gsl_matrix_swap_rows(dWq, i, dk + i);
}

/* near miss: the two heads' rows of dW_q exchanged */
static double check_heads(gsl_rng *r, int near_miss)
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
        if (near_miss)
            swap_heads(g->Wq, dk);
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

static double check_layernorm(gsl_rng *r, int near_miss)
{
    return layernorm_run(r, near_miss);
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

/* near miss: back-propagation cut at every step, as if h_{t-1} were a constant input:
 * a_t = dH_t * act'(h_t), dW = sum_t a_t h_{t-1}^T, dU = sum_t a_t x_t^T, dX_t = U^T a_t */
static void truncated_backward(const rnn_cell *cell, const gsl_matrix *X, const gsl_matrix *H,
                               const gsl_matrix *dH, gsl_matrix *dW, gsl_matrix *dU,
                               gsl_matrix *dX, gsl_matrix *work)
{
    gsl_vector_view a = gsl_matrix_row(work, 0);
    gsl_matrix_set_zero(dW);
    gsl_matrix_set_zero(dU);
    for (size_t t = 0; t < X->size1; t++) {
        for (size_t i = 0; i < H->size2; i++) {
            double h = gsl_matrix_get(H, t, i);
            gsl_vector_set(&a.vector, i, gsl_matrix_get(dH, t, i) *
                                             (cell->activation == RNN_TANH ? 1.0 - h * h : 1.0));
        }
        gsl_vector_const_view x = gsl_matrix_const_row(X, t);
        gsl_vector_view dx = gsl_matrix_row(dX, t);
        gsl_blas_dger(1.0, &a.vector, &x.vector, dU);
        gsl_blas_dgemv(CblasTrans, 1.0, cell->U, &a.vector, 0.0, &dx.vector);
        if (t > 0) {
            gsl_vector_const_view h = gsl_matrix_const_row(H, t - 1);
            gsl_blas_dger(1.0, &a.vector, &h.vector, dW);
        }
    }
}

static double check_rnn(gsl_rng *r, rnn_activation act, int near_miss)
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
        if (near_miss)
            truncated_backward(c.cell, c.X, c.b.Y, c.b.R, dW, dU, grad_of(&c.b, c.X), work);
    }
    double worst = worst_error(&c.b, rnn_loss, (gsl_matrix *const[]){c.X}, 1, status);
    if (!isnan(worst))
        worst = worse(worst, worse(fdcheck_matrix(rnn_loss, &c, c.cell->W, dW, STEP),
                                   fdcheck_matrix(rnn_loss, &c, c.cell->U, dU, STEP)));
    params_free(&c.b.t);
    rnn_cell_free(c.cell);
    return worst;
}

static double check_rnn_tanh(gsl_rng *r, int near_miss)
{
    return check_rnn(r, RNN_TANH, near_miss);
}

static double check_rnn_linear(gsl_rng *r, int near_miss)
{
    return check_rnn(r, RNN_LINEAR, near_miss);
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

/* near miss: dZ = softmax(Z) - onehot(y) per row, not divided by the rows of the mean */
static double check_xent(gsl_rng *r, int near_miss)
{
    xent_case c = {.b.ok = 1, .y = {2, 0, 4, 1}};
    c.Z = tensor(&c.b, 4, 5, r);
    int status = c.b.ok ? xent_backward(c.Z, c.y, grad_of(&c.b, c.Z)) : INVENT_ENOMEM;
    if (status == INVENT_OK && near_miss)
        gsl_matrix_scale(grad_of(&c.b, c.Z), (double)c.Z->size1);
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

/* near miss: dW2 = dY^T Z, from the pre-activations instead of F = relu(Z) */
static double check_mlp(gsl_rng *r, int near_miss)
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
    if (status == INVENT_OK && near_miss) {
        gsl_matrix_sub(c.tr->F, c.tr->Z); /* F - Z, then dW2 -= dY^T (F - Z) */
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, -1.0, c.b.R, c.tr->F, 1.0, g->W2);
        status = mlp_forward(c.w, c.X, c.tr, c.b.Y); /* the trace restored */
    }
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
/* near miss: dX without the first skip's identity term, or, for a block without skips,
 * with it */
static double check_block(gsl_rng *r, block_norm norm, int no_skips, int no_norms,
                          int near_miss)
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
        c.w->no_skips = no_skips;
        c.w->no_norms = no_norms;
        jitter((gsl_vector *const[]){c.w->gamma1, c.w->beta1, c.w->mlp->b1, c.w->mlp->b2,
                                     c.w->gamma2, c.w->beta2}, 6, r);
        block_set_zero(g);
        status = block_forward(c.w, c.X, c.tr, c.b.Y);
    }
    if (status == INVENT_OK)
        status = block_backward(c.w, c.X, c.tr, c.b.R, g, grad_of(&c.b, c.X), work);
    if (status == INVENT_OK && near_miss && no_skips)
        gsl_matrix_add(grad_of(&c.b, c.X), work->dR1);
    else if (status == INVENT_OK && near_miss)
        gsl_matrix_sub(grad_of(&c.b, c.X), work->dR1);
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

static double check_block_post(gsl_rng *r, int near_miss)
{
    return check_block(r, BLOCK_POST_NORM, 0, 0, near_miss);
}

static double check_block_pre(gsl_rng *r, int near_miss)
{
    return check_block(r, BLOCK_PRE_NORM, 0, 0, near_miss);
}

static double check_block_no_skips(gsl_rng *r, int near_miss)
{
    return check_block(r, BLOCK_PRE_NORM, 1, 0, near_miss);
}

static double check_block_no_norms(gsl_rng *r, int near_miss)
{
    return check_block(r, BLOCK_POST_NORM, 0, 1, near_miss);
}

static const gradcheck_case cases[] = {
    {"linear", "dX, dW, db", check_linear, "db from the first row, not summed over rows"},
    {"tanh", "dX", check_tanh, "1 - x^2 at the input, not 1 - y^2"},
    {"relu", "dX", check_relu, "the mask forgotten: dX = dY"},
    {"softmax (causal mask)", "dS", check_softmax, "the row-sum term dropped: dS = P * dP"},
    {"attention (one head)", "dQ, dK, dV", check_attention, "the scale left out of dQ, dK"},
    {"attention (two heads, W_o)", "dX, dW_q, dW_k, dW_v, dW_o", check_heads,
     "the heads' rows of dW_q exchanged"},
    {"layer normalisation", "dX, dgamma, dbeta", check_layernorm,
     "the two mean terms dropped: dX = rstd gamma dY"},
    {"recurrent cell (tanh)", "dX, dW, dU through time", check_rnn_tanh,
     "cut at every step: no gradient back through W"},
    {"recurrent cell (linear)", "dX, dW, dU through time", check_rnn_linear,
     "cut at every step: no gradient back through W"},
    {"cross-entropy", "dZ", check_xent, "not divided by the rows of the mean"},
    {"MLP (ReLU)", "dX, dW1, db1, dW2, db2", check_mlp, "dW2 from Z, not from relu(Z)"},
    {"block (post-norm)", "dX and all 12 weight tensors", check_block_post,
     "dX without the first skip's identity term"},
    {"block (pre-norm)", "dX and all 12 weight tensors", check_block_pre,
     "dX without the first skip's identity term"},
    {"block (pre-norm, no skips)", "dX and all 12 weight tensors", check_block_no_skips,
     "dX with a skip's identity term it does not have"},
    {"block (post-norm, no norms)", "dX and all 12 weight tensors", check_block_no_norms,
     "dX without the first skip's identity term"},
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
