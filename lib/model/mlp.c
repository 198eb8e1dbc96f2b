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

int mlp_forward(const mlp_weights *w, const gsl_matrix *X, gsl_matrix *Z, gsl_matrix *Y)
{
    size_t T = X->size1, m = w->W1->size1;
    if (!weights_fit(w, X->size2) || Y->size1 != T || Y->size2 != X->size2 ||
        (Z && (Z->size1 != T || Z->size2 != m)))
        return INVENT_ESHAPE;
    gsl_matrix *H = gsl_matrix_alloc(T, m);
    if (!H)
        return INVENT_ENOMEM;
    int status = linear_forward(X, w->W1, w->b1, H);
    if (status == INVENT_OK) {
        if (Z)
            gsl_matrix_memcpy(Z, H);
        if (w->f == MLP_RELU)
            activation_relu(H);
        status = linear_forward(H, w->W2, w->b2, Y);
    }
    gsl_matrix_free(H);
    return status;
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
