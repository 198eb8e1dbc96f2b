#include "mlp.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "activation.h"
#include "linear.h"
#include "mat.h"
#include "status.h"

mlp_weights *mlp_new(size_t d, size_t m, mlp_activation f, gsl_rng *r)
{
    if (d == 0 || m == 0)
        return NULL;
    mlp_weights *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = f;
    w->W1 = mat_gaussian(m, d, 1.0 / sqrt((double)d), r);
    w->W2 = mat_gaussian(d, m, 1.0 / sqrt((double)m), r);
    w->b1 = gsl_vector_calloc(m);
    w->b2 = gsl_vector_calloc(d);
    if (!w->W1 || !w->W2 || !w->b1 || !w->b2) {
        mlp_free(w);
        return NULL;
    }
    return w;
}

void mlp_free(mlp_weights *w)
{
    if (!w)
        return;
    gsl_matrix_free(w->W1);
    gsl_matrix_free(w->W2);
    gsl_vector_free(w->b1);
    gsl_vector_free(w->b2);
    free(w);
}

double mlp_activate(mlp_activation f, double z)
{
    return f == MLP_RELU ? fmax(0.0, z) : z;
}

static int weights_fit(const mlp_weights *w, size_t d)
{
    size_t m = w->W1->size1;
    return w->W1->size2 == d && w->W2->size1 == d && w->W2->size2 == m && w->b1->size == m &&
           w->b2->size == d;
}

mlp_trace *mlp_trace_new(size_t T, const mlp_weights *w)
{
    if (T == 0)
        return NULL;
    mlp_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->Z = gsl_matrix_alloc(T, w->W1->size1);
    tr->F = gsl_matrix_alloc(T, w->W1->size1);
    if (!tr->Z || !tr->F) {
        mlp_trace_free(tr);
        return NULL;
    }
    return tr;
}

void mlp_trace_free(mlp_trace *tr)
{
    if (!tr)
        return;
    gsl_matrix_free(tr->Z);
    gsl_matrix_free(tr->F);
    free(tr);
}

static int trace_fits(const mlp_trace *tr, size_t T, size_t m)
{
    return tr->Z->size1 == T && tr->Z->size2 == m && tr->F->size1 == T && tr->F->size2 == m;
}

int mlp_forward(const mlp_weights *w, const gsl_matrix *X, mlp_trace *tr, gsl_matrix *Y)
{
    size_t T = X->size1;
    if (!tr)
        return INVENT_ERANGE;
    if (!weights_fit(w, X->size2) || Y->size1 != T || Y->size2 != X->size2 ||
        !trace_fits(tr, T, w->W1->size1))
        return INVENT_ESHAPE;
    int status = linear_forward(X, w->W1, w->b1, tr->Z);
    gsl_matrix_memcpy(tr->F, tr->Z);
    if (w->f == MLP_RELU)
        activation_relu(tr->F);
    return status ? status : linear_forward(tr->F, w->W2, w->b2, Y);
}

static int backward_shapes_fit(const mlp_weights *w, const gsl_matrix *X, const mlp_trace *tr,
                               const gsl_matrix *dY, const mlp_weights *g,
                               const gsl_matrix *dX, const gsl_matrix *work)
{
    size_t T = X->size1, d = X->size2, m = w->W1->size1;
    return weights_fit(w, d) && weights_fit(g, d) && g->W1->size1 == m &&
           trace_fits(tr, T, m) && dY->size1 == T && dY->size2 == d &&
           (!dX || (dX->size1 == T && dX->size2 == d)) && work->size1 == 2 * T &&
           work->size2 == m;
}

int mlp_backward(const mlp_weights *w, const gsl_matrix *X, const mlp_trace *tr,
                 const gsl_matrix *dY, mlp_weights *g, gsl_matrix *dX, gsl_matrix *work)
{
    if (!backward_shapes_fit(w, X, tr, dY, g, dX, work))
        return INVENT_ESHAPE;
    size_t T = X->size1, m = w->W1->size1;
    gsl_matrix_view dF = gsl_matrix_submatrix(work, 0, 0, T, m),
                    dZ = gsl_matrix_submatrix(work, T, 0, T, m);
    gsl_matrix_set_zero(work);
    /* Y = F W2^T + b2 */
    int status = linear_backward(tr->F, w->W2, dY, &dF.matrix, g->W2, g->b2);
    /* F = f(Z): relu' is 1 where F > 0, the identity's is 1 everywhere */
    if (status == INVENT_OK && w->f == MLP_RELU)
        status = activation_relu_backward(tr->F, &dF.matrix, &dZ.matrix);
    else if (status == INVENT_OK)
        gsl_matrix_memcpy(&dZ.matrix, &dF.matrix);
    /* Z = X W1^T + b1 */
    return status ? status : linear_backward(X, w->W1, &dZ.matrix, dX, g->W1, g->b1);
}

int mlp_memory_read(const mlp_weights *w, const gsl_vector *x, gsl_vector *h, gsl_vector *y)
{
    size_t m = w->W1->size1;
    if (!weights_fit(w, x->size) || y->size != x->size || (h && h->size != m))
        return INVENT_ESHAPE;
    gsl_vector_memcpy(y, w->b2);
    for (size_t i = 0; i < m; i++) {
        gsl_vector_const_view key = gsl_matrix_const_row(w->W1, i);
        gsl_vector_const_view value = gsl_matrix_const_column(w->W2, i);
        double match;
        gsl_blas_ddot(&key.vector, x, &match);
        double a = mlp_activate(w->f, match + gsl_vector_get(w->b1, i));
        if (h)
            gsl_vector_set(h, i, a);
        gsl_blas_daxpy(a, &value.vector, y);
    }
    return INVENT_OK;
}
