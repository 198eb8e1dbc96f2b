#include "learn_bilinear.h"

#include <math.h>
#include <stdlib.h>

#include "linear.h"
#include "mat.h"
#include "status.h"

/* params: A (d, d), or W_k (r, d) then W_q (r, d). q: (1, width) the query,
 * K: (T, width) the keys, width d (free) or r (factored). */
typedef struct {
    size_t rank;
    param_set ps;
    gsl_matrix *q, *dq, *K, *dK;
} bilinear_model;

static int bilinear_forward(void *self, const gsl_matrix *x, gsl_matrix *z)
{
    bilinear_model *m = self;
    size_t T = x->size1 - 1;
    if (x->size1 < 2 || z->size1 != 1 || z->size2 != T || m->K->size1 != T)
        return INVENT_ESHAPE;
    gsl_matrix_const_view cand = gsl_matrix_const_submatrix(x, 0, 0, T, x->size2),
                          query = gsl_matrix_const_submatrix(x, T, 0, 1, x->size2);
    int status = linear_forward(&cand.matrix, m->ps.value[0], NULL, m->K); /* K_i = A x_i */
    if (status == INVENT_OK && m->rank)
        status = linear_forward(&query.matrix, m->ps.value[1], NULL, m->q);
    else if (status == INVENT_OK)
        gsl_matrix_memcpy(m->q, &query.matrix);
    gsl_vector_view q = gsl_matrix_row(m->q, 0), s = gsl_matrix_row(z, 0);
    gsl_blas_dgemv(CblasNoTrans, 1.0, m->K, &q.vector, 0.0, &s.vector); /* s_i = K_i . q */
    return status;
}

static int bilinear_backward(void *self, const gsl_matrix *x, const gsl_matrix *dz)
{
    bilinear_model *m = self;
    size_t T = x->size1 - 1;
    gsl_matrix_const_view cand = gsl_matrix_const_submatrix(x, 0, 0, T, x->size2),
                          query = gsl_matrix_const_submatrix(x, T, 0, 1, x->size2);
    gsl_vector_const_view ds = gsl_matrix_const_row(dz, 0);
    gsl_vector_view q = gsl_matrix_row(m->q, 0), dq = gsl_matrix_row(m->dq, 0);
    gsl_matrix_set_zero(m->dK);
    gsl_blas_dger(1.0, &ds.vector, &q.vector, m->dK);                   /* dK = ds q^T */
    gsl_blas_dgemv(CblasTrans, 1.0, m->K, &ds.vector, 0.0, &dq.vector); /* dq = K^T ds */
    int status = linear_backward(&cand.matrix, m->ps.value[0], m->dK, NULL, m->ps.grad[0], NULL);
    if (status == INVENT_OK && m->rank)
        status = linear_backward(&query.matrix, m->ps.value[1], m->dq, NULL, m->ps.grad[1], NULL);
    return status;
}

static void bilinear_release(void *self)
{
    bilinear_model *m = self;
    params_free(&m->ps);
    gsl_matrix_free(m->q);
    gsl_matrix_free(m->dq);
    gsl_matrix_free(m->K);
    gsl_matrix_free(m->dK);
    free(m);
}

/* The key buffers depend on T, which the first example fixes; they are
 * (re)made here for T candidates. */
static int bilinear_buffers(bilinear_model *m, size_t T, size_t width)
{
    gsl_matrix_free(m->K);
    gsl_matrix_free(m->dK);
    m->K = gsl_matrix_alloc(T, width);
    m->dK = gsl_matrix_alloc(T, width);
    return m->K && m->dK ? INVENT_OK : INVENT_ENOMEM;
}

static int bilinear_forward_any_length(void *self, const gsl_matrix *x, gsl_matrix *z)
{
    bilinear_model *m = self;
    int status = INVENT_OK;
    if (x->size1 >= 2 && m->K->size1 != x->size1 - 1)
        status = bilinear_buffers(m, x->size1 - 1, m->q->size2);
    return status ? status : bilinear_forward(self, x, z);
}

int learn_bilinear(size_t d, size_t rank, gsl_rng *r, train_model *out)
{
    bilinear_model *m = calloc(1, sizeof *m);
    if (!m)
        return INVENT_ENOMEM;
    m->rank = rank;
    *out = (train_model){m, &m->ps, bilinear_forward_any_length, bilinear_backward,
                         bilinear_release};
    size_t width = rank ? rank : d;
    /* free A starts at 0 (every candidate equally likely); a factored pair
     * cannot (both gradients would vanish), so it starts small and random */
    double sigma = rank ? 0.3 / sqrt((double)d) : 0.0;
    int ok = params_add(&m->ps, width, d, sigma, r) && (!rank || params_add(&m->ps, rank, d, sigma, r));
    m->q = gsl_matrix_alloc(1, width);
    m->dq = gsl_matrix_alloc(1, width);
    if (!ok || !m->q || !m->dq || bilinear_buffers(m, 1, width) != INVENT_OK) {
        train_model_release(out);
        return INVENT_ENOMEM;
    }
    return INVENT_OK;
}

int learn_bilinear_matrix(const train_model *m, gsl_matrix *A)
{
    const bilinear_model *b = m->self;
    if (A->size1 != A->size2 || A->size1 != b->ps.value[0]->size2)
        return INVENT_ESHAPE;
    if (!b->rank) {
        gsl_matrix_memcpy(A, b->ps.value[0]);
        return INVENT_OK;
    }
    return mat_mul(b->ps.value[1], CblasTrans, b->ps.value[0], CblasNoTrans, A);
}

int learn_bilinear_set_matrix(train_model *m, const gsl_matrix *A)
{
    bilinear_model *b = m->self;
    if (b->rank || A->size1 != b->ps.value[0]->size1 || A->size2 != b->ps.value[0]->size2)
        return INVENT_ESHAPE;
    gsl_matrix_memcpy(b->ps.value[0], A);
    return INVENT_OK;
}
