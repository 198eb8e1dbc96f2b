#include "sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>

#include "layernorm.h"
#include "linear.h"
#include "mat.h"
#include "status.h"

gpt_cache *gpt_cache_new(const gpt_weights *w)
{
    const gpt_shape *s = &w->shape;
    const mha_weights *m = w->blocks[0]->attn;
    gpt_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->shape = *s;
    c->K = calloc(s->layers, sizeof *c->K);
    c->V = calloc(s->layers, sizeof *c->V);
    int ok = c->K && c->V;
    for (size_t l = 0; ok && l < s->layers; l++)
        ok = (c->K[l] = gsl_matrix_alloc(s->context, m->Wk->size1)) &&
             (c->V[l] = gsl_matrix_alloc(s->context, m->Wv->size1));
    gsl_matrix **rows[] = {&c->x, &c->h, &c->a, &c->f};
    for (size_t k = 0; ok && k < sizeof rows / sizeof rows[0]; k++)
        ok = (*rows[k] = gsl_matrix_alloc(1, s->dim)) != NULL;
    ok = ok && (c->q = gsl_matrix_alloc(1, m->Wq->size1)) &&
         (c->heads = gsl_matrix_alloc(1, m->Wv->size1)) &&
         (c->mlp = mlp_trace_new(1, w->blocks[0]->mlp)) &&
         (c->weights = gsl_vector_alloc(s->context));
    if (!ok) {
        gpt_cache_free(c);
        return NULL;
    }
    return c;
}

void gpt_cache_free(gpt_cache *c)
{
    if (!c)
        return;
    for (size_t l = 0; l < c->shape.layers; l++) {
        gsl_matrix_free(c->K ? c->K[l] : NULL);
        gsl_matrix_free(c->V ? c->V[l] : NULL);
    }
    free(c->K);
    free(c->V);
    gsl_matrix *rows[] = {c->x, c->h, c->a, c->f, c->q, c->heads};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        gsl_matrix_free(rows[k]);
    gsl_vector_free(c->weights);
    mlp_trace_free(c->mlp);
    free(c);
}

int cache_attend(const gsl_matrix *K, const gsl_matrix *V, const gsl_vector *q, gsl_vector *s,
                 gsl_vector *out)
{
    size_t n = K->size1, dk = K->size2;
    if (V->size1 != n || V->size2 != dk || q->size != dk || s->size != n || out->size != dk)
        return INVENT_ESHAPE;
    gsl_blas_dgemv(CblasNoTrans, 1.0 / sqrt((double)dk), K, q, 0.0, s);
    double top = gsl_vector_max(s), total = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = exp(gsl_vector_get(s, i) - top);
        gsl_vector_set(s, i, e), total += e;
    }
    gsl_vector_scale(s, 1.0 / total);
    gsl_blas_dgemv(CblasTrans, 1.0, V, s, 0.0, out);
    return INVENT_OK;
}

/* -> INVENT_OK when c was made for w's sizes, every layer's heads included, and no block
 * of w sees the future; else INVENT_ESHAPE or INVENT_ERANGE */
static int cache_refusal(const gpt_weights *w, const gpt_cache *c)
{
    const gpt_shape *s = &w->shape, *m = &c->shape;
    if (s->vocab != m->vocab || s->context != m->context || s->dim != m->dim ||
        s->heads != m->heads || s->layers != m->layers || s->hidden != m->hidden)
        return INVENT_ESHAPE;
    for (size_t l = 0; l < s->layers; l++) {
        const mha_weights *a = w->blocks[l]->attn;
        if (a->heads != s->heads || a->Wq->size1 != c->q->size2 ||
            a->Wk->size1 != c->K[l]->size2 || a->Wv->size1 != c->V[l]->size2 ||
            a->Wv->size1 != c->heads->size2)
            return INVENT_ESHAPE;
        if (w->blocks[l]->see_future)
            return INVENT_ERANGE;
    }
    return INVENT_OK;
}

/* in: (1, d), the cache up to row t of layer l -> c->a: (1, d) = W_o [head outputs],
 * each head's weights over the t + 1 cached keys scored as the forward pass scores them */
static int attend(const mha_weights *m, gpt_cache *c, size_t l, size_t t, const gsl_matrix *in)
{
    size_t H = m->heads, dk = c->q->size2 / H, dv = c->heads->size2 / H;
    gsl_matrix_view k_row = gsl_matrix_submatrix(c->K[l], t, 0, 1, H * dk);
    gsl_matrix_view v_row = gsl_matrix_submatrix(c->V[l], t, 0, 1, H * dv);
    gsl_matrix_view a = gsl_matrix_view_array(c->weights->data, 1, t + 1);
    int status = linear_forward(in, m->Wq, NULL, c->q);
    if (status == INVENT_OK)
        status = linear_forward(in, m->Wk, NULL, &k_row.matrix);
    if (status == INVENT_OK)
        status = linear_forward(in, m->Wv, NULL, &v_row.matrix);
    for (size_t j = 0; j < H && status == INVENT_OK; j++) {
        gsl_matrix_view qj = gsl_matrix_submatrix(c->q, 0, j * dk, 1, dk);
        gsl_matrix_view Kj = gsl_matrix_submatrix(c->K[l], 0, j * dk, t + 1, dk);
        gsl_matrix_view Vj = gsl_matrix_submatrix(c->V[l], 0, j * dv, t + 1, dv);
        gsl_matrix_view oj = gsl_matrix_submatrix(c->heads, 0, j * dv, 1, dv);
        status = mha_head_weights(m, j, &qj.matrix, &Kj.matrix, ATTN_BIDIRECTIONAL, &a.matrix);
        if (status == INVENT_OK)
            status = mat_mul(&a.matrix, CblasNoTrans, &Vj.matrix, CblasNoTrans, &oj.matrix);
    }
    return status == INVENT_OK ? linear_forward(c->heads, m->Wo, NULL, c->a) : status;
}

/* c->x: (1, d), one token's stream -> the stream after block l, in block_forward's two
 * orders and with its flags (block_skip, block_norm_forward): post-norm h = x + MHA(x),
 * x = LN1(h), h = x + MLP(x), x = LN2(h); pre-norm h = LN1(x), h = x + MHA(h),
 * x = LN2(h), x = h + MLP(x) */
static int block_step(const block_weights *b, gpt_cache *c, size_t l, size_t t)
{
    int post = b->norm == BLOCK_POST_NORM, status = INVENT_OK;
    if (!post)
        status = block_norm_forward(b, c->x, b->gamma1, b->beta1, c->h, NULL, NULL);
    if (status == INVENT_OK)
        status = attend(b->attn, c, l, t, post ? c->x : c->h);
    if (status != INVENT_OK)
        return status;
    block_skip(b, c->x, c->a, c->h);
    status = block_norm_forward(b, c->h, post ? b->gamma1 : b->gamma2,
                                post ? b->beta1 : b->beta2, c->x, NULL, NULL);
    if (status == INVENT_OK)
        status = mlp_forward(b->mlp, c->x, c->mlp, c->f);
    if (status != INVENT_OK)
        return status;
    if (!post) {
        block_skip(b, c->h, c->f, c->x);
        return INVENT_OK;
    }
    block_skip(b, c->x, c->f, c->h);
    return block_norm_forward(b, c->h, b->gamma2, b->beta2, c->x, NULL, NULL);
}

int gpt_cache_step(const gpt_weights *w, gpt_cache *c, size_t token, gsl_vector *logits)
{
    const gpt_shape *s = &w->shape;
    int status = cache_refusal(w, c);
    if (status != INVENT_OK)
        return status;
    if (c->len >= s->context)
        return INVENT_ERANGE;
    if (token >= s->vocab || logits->size != s->vocab)
        return INVENT_ESHAPE;
    size_t t = c->len;
    for (size_t i = 0; i < s->dim; i++) /* x = E[token] + P[t] */
        c->x->data[i] = gsl_matrix_get(w->E, token, i) + gsl_matrix_get(w->P, t, i);
    for (size_t l = 0; l < s->layers && status == INVENT_OK; l++)
        status = block_step(w->blocks[l], c, l, t);
    if (status == INVENT_OK)
        status = layernorm_forward(c->x, w->gamma, w->beta, w->eps, c->h, NULL, NULL);
    gsl_matrix_view z = gsl_matrix_view_vector(logits, 1, s->vocab);
    if (status == INVENT_OK)
        status = linear_forward(c->h, w->Wout, w->bout, &z.matrix);
    if (status == INVENT_OK)
        c->len++;
    return status;
}

static int by_value_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

size_t sample_token(const gsl_vector *logits, double temperature, size_t top_k, gsl_rng *r)
{
    size_t V = logits->size;
    double cut = -INFINITY, top = gsl_vector_max(logits);
    if (top_k > 0 && top_k < V) { /* the k-th largest logit is the threshold */
        double sorted[V];
        for (size_t i = 0; i < V; i++)
            sorted[i] = gsl_vector_get(logits, i);
        qsort(sorted, V, sizeof(double), by_value_desc);
        cut = sorted[top_k - 1];
    }
    double p[V], total = 0.0;
    for (size_t i = 0; i < V; i++) {
        double z = gsl_vector_get(logits, i);
        total += (p[i] = z >= cut ? exp((z - top) / temperature) : 0.0);
    }
    double u = gsl_rng_uniform(r) * total;
    size_t last = 0;
    for (size_t i = 0; i < V; i++) {
        if (p[i] > 0.0)
            last = i;
        if (p[i] > 0.0 && (u -= p[i]) < 0.0)
            return i;
    }
    return last;
}

/* tokens: (n) -> the cache emptied and filled with them; logits of the last */
static int refill(const gpt_weights *w, gpt_cache *c, const size_t *tokens, size_t n,
                  gsl_vector *logits)
{
    c->len = 0;
    int status = INVENT_OK;
    for (size_t i = 0; i < n && status == INVENT_OK; i++)
        status = gpt_cache_step(w, c, tokens[i], logits);
    return status;
}

int gpt_generate_next(const gpt_weights *w, gpt_cache *c, const size_t *seq, size_t len,
                      gsl_vector *logits)
{
    size_t T = w->shape.context, keep = T / 2 > 0 ? T / 2 : 1;
    if (len == 0)
        return INVENT_ERANGE;
    return c->len < T ? gpt_cache_step(w, c, seq[len - 1], logits)
                      : refill(w, c, seq + len - keep, keep, logits);
}

int gpt_generate(const gpt_weights *w, gpt_cache *c, const size_t *prompt, size_t n_prompt,
                 size_t n, double temperature, size_t top_k, gsl_rng *r, size_t *out)
{
    size_t T = w->shape.context, keep = T / 2 > 0 ? T / 2 : 1;
    size_t *seq = malloc((n_prompt + n) * sizeof *seq);
    gsl_vector *logits = gsl_vector_alloc(w->shape.vocab);
    if (!seq || !logits || n_prompt == 0) {
        free(seq);
        gsl_vector_free(logits);
        return seq && logits ? INVENT_ERANGE : INVENT_ENOMEM;
    }
    memcpy(seq, prompt, n_prompt * sizeof *seq);
    size_t len = n_prompt, start = n_prompt > T ? n_prompt - keep : 0;
    int status = refill(w, c, seq + start, len - start, logits);
    for (size_t i = 0; i < n && status == INVENT_OK; i++) {
        seq[len] = out[i] = sample_token(logits, temperature, top_k, r);
        status = gpt_generate_next(w, c, seq, ++len, logits);
    }
    free(seq);
    gsl_vector_free(logits);
    return status;
}
