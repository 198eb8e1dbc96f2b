/* Unit tests: the additive score's backward pass against central finite
 * differences, alone and inside multi-head attention, and its forward pass
 * against the score written out for one pair. */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "additive.h"
#include "fdcheck.h"
#include "heads.h"
#include "mat.h"
#include "rng.h"
#include "status.h"

typedef struct {
    gsl_matrix *Q, *K, *V, *R, *W, *out;
    gsl_vector *b, *v;
    attn_mask mask;
} head_case;

/* sum R * (softmax(additive scores) V): a scalar of every input */
static double head_loss(void *p)
{
    head_case *c = p;
    if (additive_weights(c->Q, c->K, c->b, c->v, c->mask, c->W) != INVENT_OK)
        return NAN;
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, c->W, c->V, 0.0, c->out);
    return fdcheck_probe(c->out, c->R);
}

static double vector_error(head_case *c, gsl_vector *x, const gsl_vector *g)
{
    gsl_matrix_view P = gsl_matrix_view_vector(x, 1, x->size);
    gsl_matrix_const_view G = gsl_matrix_const_view_vector(g, 1, g->size);
    return fdcheck_matrix(head_loss, c, &P.matrix, &G.matrix, 1e-5);
}

/* T tokens, r units, dv values, mask -> the worst relative error over dQ, dK, dV, db, dv */
static double head_error(size_t T, size_t r, size_t dv, attn_mask mask, unsigned long seed)
{
    gsl_rng *rng = rng_new(seed);
    head_case c = {mat_gaussian(T, r, 1.0, rng), mat_gaussian(T, r, 1.0, rng),
                   mat_gaussian(T, dv, 1.0, rng), mat_gaussian(T, dv, 1.0, rng),
                   gsl_matrix_alloc(T, T), gsl_matrix_alloc(T, dv), gsl_vector_alloc(r),
                   gsl_vector_alloc(r), mask};
    for (size_t i = 0; i < r; i++) {
        gsl_vector_set(c.b, i, gsl_ran_gaussian(rng, 0.5));
        gsl_vector_set(c.v, i, gsl_ran_gaussian(rng, 1.0));
    }
    gsl_matrix *dQ = gsl_matrix_calloc(T, r), *dK = gsl_matrix_calloc(T, r),
               *dV = gsl_matrix_calloc(T, dv), *work = gsl_matrix_alloc(2 * T, T);
    gsl_vector *db = gsl_vector_calloc(r), *dvv = gsl_vector_calloc(r);
    head_loss(&c);
    cr_assert_eq(additive_backward(c.Q, c.K, c.V, c.b, c.v, c.W, c.R, dQ, dK, dV, db, dvv, work),
                 INVENT_OK);
    double e[] = {fdcheck_matrix(head_loss, &c, c.Q, dQ, 1e-5),
                  fdcheck_matrix(head_loss, &c, c.K, dK, 1e-5),
                  fdcheck_matrix(head_loss, &c, c.V, dV, 1e-5), vector_error(&c, c.b, db),
                  vector_error(&c, c.v, dvv)};
    double worst = 0.0;
    for (int k = 0; k < 5; k++)
        worst = e[k] > worst ? e[k] : worst;
    gsl_matrix *M[] = {c.Q, c.K, c.V, c.R, c.W, c.out, dQ, dK, dV, work};
    for (int k = 0; k < 10; k++)
        gsl_matrix_free(M[k]);
    gsl_vector *vs[] = {c.b, c.v, db, dvv};
    for (int k = 0; k < 4; k++)
        gsl_vector_free(vs[k]);
    gsl_rng_free(rng);
    return worst;
}

Test(additive, backward_agrees_with_finite_differences)
{
    for (unsigned long seed = 1; seed <= 3; seed++) {
        double causal = head_error(6, 4, 3, ATTN_CAUSAL, seed);
        double open = head_error(5, 3, 2, ATTN_BIDIRECTIONAL, seed);
        cr_log_info("additive score, seed %lu: causal %.2e, bidirectional %.2e", seed, causal,
                    open);
        cr_assert(causal < 1e-7 && open < 1e-7, "relative errors %g, %g (seed %lu)", causal,
                  open, seed);
    }
}

Test(additive, one_pair_is_v_dot_tanh_of_the_sum)
{
    double q[] = {0.3, -1.2}, k[] = {0.7, 0.4}, bb[] = {0.1, -0.2}, vv[] = {1.5, -0.5};
    gsl_matrix_view Q = gsl_matrix_view_array(q, 1, 2), K = gsl_matrix_view_array(k, 1, 2);
    gsl_vector_view b = gsl_vector_view_array(bb, 2), v = gsl_vector_view_array(vv, 2);
    gsl_matrix *W = gsl_matrix_alloc(1, 1);
    /* one key: the weight is 1 whatever the score */
    cr_assert_eq(additive_weights(&Q.matrix, &K.matrix, &b.vector, &v.vector, ATTN_CAUSAL, W),
                 INVENT_OK);
    cr_assert_float_eq(gsl_matrix_get(W, 0, 0), 1.0, 1e-15);
    /* two keys, the same query: the weights' log-ratio is the score difference */
    double k2[] = {0.7, 0.4, -0.3, 0.9}, q2[] = {0.3, -1.2, 0.3, -1.2};
    gsl_matrix_view K2 = gsl_matrix_view_array(k2, 2, 2), Q2 = gsl_matrix_view_array(q2, 2, 2);
    gsl_matrix *W2 = gsl_matrix_alloc(2, 2);
    additive_weights(&Q2.matrix, &K2.matrix, &b.vector, &v.vector, ATTN_CAUSAL, W2);
    double s0 = 1.5 * tanh(0.3 + 0.7 + 0.1) - 0.5 * tanh(-1.2 + 0.4 - 0.2);
    double s1 = 1.5 * tanh(0.3 - 0.3 + 0.1) - 0.5 * tanh(-1.2 + 0.9 - 0.2);
    cr_assert_float_eq(log(gsl_matrix_get(W2, 1, 1) / gsl_matrix_get(W2, 1, 0)), s1 - s0, 1e-12);
    cr_assert_float_eq(gsl_matrix_get(W2, 0, 1), 0.0, 0.0); /* the mask */
    gsl_matrix_free(W);
    gsl_matrix_free(W2);
}

typedef struct {
    mha_weights *w;
    gsl_matrix *X, *R, *out;
    mha_trace *tr;
} mha_case;

static double mha_loss(void *p)
{
    mha_case *c = p;
    if (mha_forward(c->w, c->X, ATTN_CAUSAL, c->tr, c->out) != INVENT_OK)
        return NAN;
    return fdcheck_probe(c->out, c->R);
}

Test(additive, inside_two_heads_the_bias_and_read_out_gradients_agree)
{
    enum { T = 5, d = 6, H = 2 };
    gsl_rng *rng = rng_new(4);
    mha_weights *w = mha_new(d, H, d / H, d / H, rng), *g = mha_new(d, H, d / H, d / H, rng);
    w->additive = additive_new(H, d / H, rng);
    g->additive = additive_zeros(H, d / H);
    gsl_matrix_add_constant(w->additive->b, 0.3);
    mha_trace *tr = mha_trace_new(T, w);
    mha_case c = {w, mat_gaussian(T, d, 1.0, rng), mat_gaussian(T, d, 1.0, rng),
                  gsl_matrix_alloc(T, d), tr};
    mha_work *work = mha_work_new(T, w);
    gsl_matrix *M[] = {g->Wq, g->Wk, g->Wv, g->Wo};
    for (int k = 0; k < 4; k++)
        gsl_matrix_set_zero(M[k]);
    cr_assert_eq(mha_forward(w, c.X, ATTN_CAUSAL, tr, c.out), INVENT_OK);
    cr_assert_eq(mha_backward(w, c.X, tr, c.R, g, NULL, work), INVENT_OK);
    double e[] = {fdcheck_matrix(mha_loss, &c, w->additive->b, g->additive->b, 1e-5),
                  fdcheck_matrix(mha_loss, &c, w->additive->v, g->additive->v, 1e-5),
                  fdcheck_matrix(mha_loss, &c, w->Wq, g->Wq, 1e-5),
                  fdcheck_matrix(mha_loss, &c, w->Wk, g->Wk, 1e-5)};
    for (int k = 0; k < 4; k++)
        cr_assert(e[k] < 1e-7, "tensor %d: relative error %g", k, e[k]);
    mha_trace_free(tr);
    mha_work_free(work);
    mha_free(w);
    mha_free(g);
    gsl_matrix_free(c.X);
    gsl_matrix_free(c.R);
    gsl_matrix_free(c.out);
    gsl_rng_free(rng);
}

/* additive_new draws and needs a generator; additive_zeros is the zeroed score,
 * room for gradients */
Test(additive, new_needs_a_generator_and_zeros_are_zero)
{
    gsl_rng *rng = rng_new(2);
    cr_assert_null(additive_new(2, 3, NULL));
    additive_score *z = additive_zeros(2, 3), *a = additive_new(2, 3, rng);
    cr_assert(z && a);
    cr_assert(gsl_matrix_isnull(z->b) && gsl_matrix_isnull(z->v));
    cr_assert(gsl_matrix_isnull(a->b) && !gsl_matrix_isnull(a->v));
    additive_free(z);
    additive_free(a);
    gsl_rng_free(rng);
}
