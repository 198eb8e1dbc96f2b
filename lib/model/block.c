#include "block.h"

#include <stdlib.h>

#include "layernorm.h"
#include "status.h"

/* (d) -> a vector with every entry set to value, or NULL */
static gsl_vector *constant(size_t d, double value)
{
    gsl_vector *v = gsl_vector_alloc(d);
    if (v)
        gsl_vector_set_all(v, value);
    return v;
}

block_weights *block_new(size_t d, size_t heads, size_t hidden, gsl_rng *r)
{
    if (heads == 0 || d % heads != 0)
        return NULL;
    block_weights *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->eps = 1e-5;
    w->norm = BLOCK_POST_NORM;
    w->attn = mha_new(d, heads, d / heads, d / heads, r);
    w->mlp = mlp_new(d, hidden, MLP_RELU, r);
    w->gamma1 = constant(d, 1.0);
    w->beta1 = constant(d, 0.0);
    w->gamma2 = constant(d, 1.0);
    w->beta2 = constant(d, 0.0);
    if (!w->attn || !w->mlp || !w->gamma1 || !w->beta1 || !w->gamma2 || !w->beta2) {
        block_free(w);
        return NULL;
    }
    return w;
}

void block_free(block_weights *w)
{
    if (!w)
        return;
    mha_free(w->attn);
    mlp_free(w->mlp);
    gsl_vector_free(w->gamma1);
    gsl_vector_free(w->beta1);
    gsl_vector_free(w->gamma2);
    gsl_vector_free(w->beta2);
    free(w);
}

static gsl_vector_view flat_matrix(gsl_matrix *M)
{
    return gsl_vector_view_array(M->data, M->size1 * M->size2);
}

static gsl_vector_view flat_vector(gsl_vector *v)
{
    return gsl_vector_view_array_with_stride(v->data, v->stride, v->size);
}

void block_tensors(block_weights *w, gsl_vector_view v[BLOCK_TENSORS])
{
    gsl_matrix *attn[] = {w->attn->Wq, w->attn->Wk, w->attn->Wv, w->attn->Wo};
    for (int k = 0; k < 4; k++)
        v[k] = flat_matrix(attn[k]);
    v[4] = flat_vector(w->gamma1);
    v[5] = flat_vector(w->beta1);
    v[6] = flat_matrix(w->mlp->W1);
    v[7] = flat_vector(w->mlp->b1);
    v[8] = flat_matrix(w->mlp->W2);
    v[9] = flat_vector(w->mlp->b2);
    v[10] = flat_vector(w->gamma2);
    v[11] = flat_vector(w->beta2);
}

void block_set_zero(block_weights *w)
{
    gsl_vector_view v[BLOCK_TENSORS];
    block_tensors(w, v);
    for (int k = 0; k < BLOCK_TENSORS; k++)
        gsl_vector_set_zero(&v[k].vector);
}

void block_trace_free(block_trace *tr)
{
    if (!tr)
        return;
    mha_trace_free(tr->attn);
    gsl_matrix *M[] = {tr->N, tr->A, tr->R1, tr->H, tr->Z, tr->F, tr->M, tr->R2};
    for (int k = 0; k < 8; k++)
        gsl_matrix_free(M[k]);
    gsl_vector *v[] = {tr->mean1, tr->rstd1, tr->mean2, tr->rstd2};
    for (int k = 0; k < 4; k++)
        gsl_vector_free(v[k]);
    free(tr);
}

block_trace *block_trace_new(size_t T, const block_weights *w)
{
    if (T == 0)
        return NULL;
    block_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    size_t d = w->attn->Wo->size1, m = w->mlp->W1->size1;
    int ok = (tr->attn = mha_trace_new(T, w->attn)) && (tr->Z = gsl_matrix_alloc(T, m)) &&
             (tr->F = gsl_matrix_alloc(T, m));
    gsl_matrix **M[] = {&tr->N, &tr->A, &tr->R1, &tr->H, &tr->M, &tr->R2};
    for (int k = 0; k < 6 && ok; k++)
        ok = (*M[k] = gsl_matrix_alloc(T, d)) != NULL;
    gsl_vector **v[] = {&tr->mean1, &tr->rstd1, &tr->mean2, &tr->rstd2};
    for (int k = 0; k < 4 && ok; k++)
        ok = (*v[k] = gsl_vector_alloc(T)) != NULL;
    if (!ok) {
        block_trace_free(tr);
        return NULL;
    }
    return tr;
}

void block_work_free(block_work *s)
{
    if (!s)
        return;
    mha_work_free(s->attn);
    gsl_matrix_free(s->mlp);
    gsl_matrix_free(s->dR1);
    gsl_matrix_free(s->dH);
    gsl_matrix_free(s->d3);
    free(s);
}

block_work *block_work_new(size_t T, const block_weights *w)
{
    if (T == 0)
        return NULL;
    block_work *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t d = w->attn->Wo->size1, m = w->mlp->W1->size1;
    s->attn = mha_work_new(T, w->attn);
    s->mlp = gsl_matrix_alloc(2 * T, m);
    s->dR1 = gsl_matrix_alloc(T, d);
    s->dH = gsl_matrix_alloc(T, d);
    s->d3 = gsl_matrix_alloc(T, d);
    if (!s->attn || !s->mlp || !s->dR1 || !s->dH || !s->d3) {
        block_work_free(s);
        return NULL;
    }
    return s;
}

static int is_td(const gsl_matrix *M, const gsl_matrix *X)
{
    return M->size1 == X->size1 && M->size2 == X->size2;
}

/* the (T, d) pieces of the trace fit X; the rest is checked where it is used */
static int trace_fits(const block_trace *tr, const gsl_matrix *X)
{
    return is_td(tr->N, X) && is_td(tr->A, X) && is_td(tr->R1, X) && is_td(tr->H, X) &&
           is_td(tr->M, X) && is_td(tr->R2, X);
}

void block_skip(const block_weights *w, const gsl_matrix *a, const gsl_matrix *b,
                gsl_matrix *out)
{
    gsl_matrix_memcpy(out, b);
    if (!w->no_skips)
        gsl_matrix_add(out, a);
}

/* the skip's share of a backward pass: dX += dR, unless the skips are left out */
static void skip_backward(const block_weights *w, const gsl_matrix *dR, gsl_matrix *dX)
{
    if (dX && !w->no_skips)
        gsl_matrix_add(dX, dR);
}

/* the attention's mask: causal unless the block was told to see the future */
static attn_mask mask_of(const block_weights *w)
{
    return w->see_future ? ATTN_BIDIRECTIONAL : ATTN_CAUSAL;
}

int block_norm_forward(const block_weights *w, const gsl_matrix *X, const gsl_vector *gamma,
                       const gsl_vector *beta, gsl_matrix *Y, gsl_vector *mean,
                       gsl_vector *rstd)
{
    if (!w->no_norms)
        return layernorm_forward(X, gamma, beta, w->eps, Y, mean, rstd);
    gsl_matrix_memcpy(Y, X);
    return INVENT_OK;
}

/* block_norm_forward read in reverse: dX +=, dgamma +=, dbeta += (none without norms) */
static int norm_backward(const block_weights *w, const gsl_matrix *X, const gsl_vector *gamma,
                         const gsl_vector *mean, const gsl_vector *rstd, const gsl_matrix *dY,
                         gsl_matrix *dX, gsl_vector *dgamma, gsl_vector *dbeta)
{
    if (!w->no_norms)
        return layernorm_backward(X, gamma, mean, rstd, dY, dX, dgamma, dbeta);
    if (dX)
        gsl_matrix_add(dX, dY);
    return INVENT_OK;
}

/* H = LN1(X + MHA(X)), Y = LN2(H + MLP(H)) */
static int forward_post(const block_weights *w, const gsl_matrix *X, block_trace *tr,
                        gsl_matrix *Y)
{
    mlp_trace mt = {tr->Z, tr->F};
    int status = mha_forward(w->attn, X, mask_of(w), tr->attn, tr->A);
    if (status == INVENT_OK) {
        block_skip(w, X, tr->A, tr->R1);
        status = block_norm_forward(w, tr->R1, w->gamma1, w->beta1, tr->H, tr->mean1,
                                    tr->rstd1);
    }
    if (status == INVENT_OK)
        status = mlp_forward(w->mlp, tr->H, &mt, tr->M);
    if (status == INVENT_OK) {
        block_skip(w, tr->H, tr->M, tr->R2);
        status = block_norm_forward(w, tr->R2, w->gamma2, w->beta2, Y, tr->mean2,
                                    tr->rstd2);
    }
    return status;
}

/* N = LN1(X), R1 = X + MHA(N), H = LN2(R1), Y = R1 + MLP(H) */
static int forward_pre(const block_weights *w, const gsl_matrix *X, block_trace *tr,
                       gsl_matrix *Y)
{
    mlp_trace mt = {tr->Z, tr->F};
    int status = block_norm_forward(w, X, w->gamma1, w->beta1, tr->N, tr->mean1, tr->rstd1);
    if (status == INVENT_OK)
        status = mha_forward(w->attn, tr->N, mask_of(w), tr->attn, tr->A);
    if (status == INVENT_OK) {
        block_skip(w, X, tr->A, tr->R1);
        status = block_norm_forward(w, tr->R1, w->gamma2, w->beta2, tr->H, tr->mean2,
                                    tr->rstd2);
    }
    if (status == INVENT_OK)
        status = mlp_forward(w->mlp, tr->H, &mt, tr->M);
    if (status == INVENT_OK) {
        block_skip(w, tr->R1, tr->M, tr->R2);
        gsl_matrix_memcpy(Y, tr->R2);
    }
    return status;
}

int block_forward(const block_weights *w, const gsl_matrix *X, block_trace *tr, gsl_matrix *Y)
{
    if (!tr)
        return INVENT_ERANGE;
    if (!trace_fits(tr, X) || !is_td(Y, X))
        return INVENT_ESHAPE;
    return w->norm == BLOCK_PRE_NORM ? forward_pre(w, X, tr, Y) : forward_post(w, X, tr, Y);
}

/* forward_post read in reverse */
static int backward_post(const block_weights *w, const gsl_matrix *X, const block_trace *tr,
                         const gsl_matrix *dY, block_weights *g, gsl_matrix *dX,
                         block_work *s)
{
    mlp_trace mt = {tr->Z, tr->F};
    gsl_matrix *dR2 = s->d3;
    gsl_matrix_set_zero(dR2);
    gsl_matrix_set_zero(s->dR1);
    /* Y = LN2(R2) */
    int status = norm_backward(w, tr->R2, w->gamma2, tr->mean2, tr->rstd2, dY, dR2,
                                    g->gamma2, g->beta2);
    /* R2 = H + M: the skip hands dR2 to H as it is, and MLP(H) adds its share */
    gsl_matrix_set_zero(s->dH);
    skip_backward(w, dR2, s->dH);
    if (status == INVENT_OK)
        status = mlp_backward(w->mlp, tr->H, &mt, dR2, g->mlp, s->dH, s->mlp);
    /* H = LN1(R1) */
    if (status == INVENT_OK)
        status = norm_backward(w, tr->R1, w->gamma1, tr->mean1, tr->rstd1, s->dH, s->dR1,
                                    g->gamma1, g->beta1);
    /* R1 = X + A, A = MHA(X) */
    if (status == INVENT_OK)
        skip_backward(w, s->dR1, dX);
    if (status == INVENT_OK)
        status = mha_backward(w->attn, X, tr->attn, s->dR1, g->attn, dX, s->attn);
    return status;
}

/* forward_pre read in reverse */
static int backward_pre(const block_weights *w, const gsl_matrix *X, const block_trace *tr,
                        const gsl_matrix *dY, block_weights *g, gsl_matrix *dX, block_work *s)
{
    mlp_trace mt = {tr->Z, tr->F};
    gsl_matrix *dN = s->d3;
    gsl_matrix_set_zero(dN);
    gsl_matrix_set_zero(s->dH);
    /* Y = R1 + M: the skip hands dY to R1 as it is */
    gsl_matrix_set_zero(s->dR1);
    skip_backward(w, dY, s->dR1);
    /* M = MLP(H) */
    int status = mlp_backward(w->mlp, tr->H, &mt, dY, g->mlp, s->dH, s->mlp);
    /* H = LN2(R1), which adds its share to dR1 */
    if (status == INVENT_OK)
        status = norm_backward(w, tr->R1, w->gamma2, tr->mean2, tr->rstd2, s->dH, s->dR1,
                                    g->gamma2, g->beta2);
    /* R1 = X + A, A = MHA(N) */
    if (status == INVENT_OK)
        skip_backward(w, s->dR1, dX);
    if (status == INVENT_OK)
        status = mha_backward(w->attn, tr->N, tr->attn, s->dR1, g->attn, dN, s->attn);
    /* N = LN1(X) */
    if (status == INVENT_OK)
        status = norm_backward(w, X, w->gamma1, tr->mean1, tr->rstd1, dN, dX, g->gamma1,
                                    g->beta1);
    return status;
}

int block_backward(const block_weights *w, const gsl_matrix *X, const block_trace *tr,
                   const gsl_matrix *dY, block_weights *g, gsl_matrix *dX, block_work *work)
{
    if (!trace_fits(tr, X) || !is_td(dY, X) || (dX && !is_td(dX, X)) ||
        !is_td(work->dR1, X) || !is_td(work->dH, X) || !is_td(work->d3, X))
        return INVENT_ESHAPE;
    return w->norm == BLOCK_PRE_NORM ? backward_pre(w, X, tr, dY, g, dX, work)
                                     : backward_post(w, X, tr, dY, g, dX, work);
}
