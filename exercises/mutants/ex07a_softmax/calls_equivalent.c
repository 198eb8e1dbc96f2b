/* Mutant: reads the softmax from the weights that attn_forward keeps, with one query 1/tau and the scores as keys. Expect: calls attn_forward */
#include <math.h>

#include "exercises.h"

int ex07a_softmax(gsl_vector *s, double tau)
{
    size_t T = s->size;
    gsl_matrix *Q = gsl_matrix_alloc(1, 1), *K = gsl_matrix_alloc(T, 1);
    gsl_matrix *V = gsl_matrix_calloc(T, 1), *W = gsl_matrix_alloc(1, T);
    gsl_matrix *out = gsl_matrix_alloc(1, 1);
    gsl_matrix_set(Q, 0, 0, 1.0);
    gsl_vector_view k = gsl_matrix_column(K, 0);
    gsl_vector_memcpy(&k.vector, s);
    int status = attn_forward(Q, K, V, 1.0 / tau, ATTN_BIDIRECTIONAL, W, out);
    gsl_vector_view w = gsl_matrix_row(W, 0);
    if (status == INVENT_OK)
        gsl_vector_memcpy(s, &w.vector);
    gsl_matrix_free(Q), gsl_matrix_free(K), gsl_matrix_free(V), gsl_matrix_free(W);
    gsl_matrix_free(out);
    return status;
}
