#include "tasks.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "mat.h"
#include "rng.h"

void task_data_free(task_data *d)
{
    if (!d)
        return;
    for (size_t i = 0; d->x && i < d->n; i++)
        gsl_matrix_free(d->x[i]);
    free(d->x);
    free(d->y);
    free(d);
}

void task_shuffle_labels(task_data *d, gsl_rng *r)
{
    gsl_ran_shuffle(r, d->y, d->n, sizeof *d->y);
}

/* n examples of shape (rows, cols), zero-filled, labels in [0, classes) */
static task_data *dataset_new(size_t n, size_t rows, size_t cols, size_t classes)
{
    task_data *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->n = n;
    d->classes = classes;
    d->x = calloc(n, sizeof *d->x);
    d->y = calloc(n, sizeof *d->y);
    for (size_t i = 0; d->x && i < n; i++)
        if (!(d->x[i] = gsl_matrix_calloc(rows, cols)))
            break;
    if (!d->x || !d->y || (n && !d->x[n - 1])) {
        task_data_free(d);
        return NULL;
    }
    return d;
}

/* one recall sequence into x (zeroed); -> its label */
static size_t recall_sequence(gsl_matrix *x, size_t pairs, size_t keys, size_t *order,
                              gsl_rng *r)
{
    for (size_t k = 0; k < keys; k++)
        order[k] = k;
    gsl_ran_shuffle(r, order, keys, sizeof *order); /* the first `pairs` are the keys */
    size_t asked = gsl_rng_uniform_int(r, pairs), label = 0;
    for (size_t t = 0; t < pairs; t++) {
        size_t value = gsl_rng_uniform_int(r, x->size2 - keys);
        gsl_matrix_set(x, t, order[t], 1.0);
        gsl_matrix_set(x, t, keys + value, 1.0);
        if (t == asked)
            label = value;
    }
    gsl_matrix_set(x, pairs, order[asked], 1.0);
    return label;
}

task_data *task_recall(size_t examples, size_t pairs, size_t keys, size_t values, gsl_rng *r)
{
    if (pairs == 0 || pairs > keys || values == 0)
        return NULL;
    size_t *order = malloc(keys * sizeof *order);
    task_data *d = order ? dataset_new(examples, pairs + 1, keys + values, values) : NULL;
    for (size_t i = 0; d && i < examples; i++)
        d->y[i] = recall_sequence(d->x[i], pairs, keys, order, r);
    free(order);
    return d;
}

task_data *task_last_token(const task_data *d)
{
    size_t cols = d->n ? d->x[0]->size2 : 1;
    task_data *last = dataset_new(d->n, 1, cols, d->classes);
    for (size_t i = 0; last && i < d->n; i++) {
        gsl_vector_const_view row = gsl_matrix_const_row(d->x[i], d->x[i]->size1 - 1);
        gsl_matrix_set_row(last->x[i], 0, &row.vector);
        last->y[i] = d->y[i];
    }
    return last;
}

double task_recall_guess_accuracy(size_t pairs, size_t values)
{
    if (pairs == 0 || values == 0)
        return NAN;
    double *p = calloc(pairs + 1, sizeof *p); /* p[k]: chance of k distinct values so far */
    if (!p)
        return NAN;
    p[0] = 1.0;
    for (size_t t = 1; t <= pairs; t++)
        for (size_t k = t; k >= 1; k--) { /* the t-th value is old (k kept) or new (k-1 -> k) */
            double v = (double)values;
            p[k] = p[k] * (double)k / v + p[k - 1] * (v - (double)(k - 1)) / v;
            if (k == 1)
                p[0] = 0.0;
        }
    double guess = 0.0;
    for (size_t k = 1; k <= pairs; k++)
        guess += p[k] / (double)k;
    free(p);
    return guess;
}

task_data *task_sign_agreement(size_t examples, double range, gsl_rng *r)
{
    task_data *d = dataset_new(examples, 1, 2, 2);
    for (size_t i = 0; d && i < examples; i++) {
        rng_fill_uniform(d->x[i], r, -range, range);
        d->y[i] = gsl_matrix_get(d->x[i], 0, 0) * gsl_matrix_get(d->x[i], 0, 1) > 0.0;
    }
    return d;
}

gsl_matrix *task_teacher(size_t d, size_t rank, gsl_rng *r)
{
    gsl_matrix *U = mat_gaussian(d, rank, 1.0, r), *V = mat_gaussian(d, rank, 1.0, r);
    gsl_matrix *A = U && V ? mat_product(U, CblasNoTrans, V, CblasTrans) : NULL;
    if (A)
        gsl_matrix_scale(A, 1.0 / sqrt((double)rank));
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    return A;
}

/* x: candidates then the query -> index of the largest x_L^T A x_i */
static size_t teacher_choice(const gsl_matrix *x, const gsl_matrix *A, gsl_vector *Ax)
{
    size_t T = x->size1 - 1, best = 0;
    double top = -INFINITY;
    gsl_vector_const_view q = gsl_matrix_const_row(x, T);
    for (size_t i = 0; i < T; i++) {
        gsl_vector_const_view xi = gsl_matrix_const_row(x, i);
        double s;
        gsl_blas_dgemv(CblasNoTrans, 1.0, A, &xi.vector, 0.0, Ax);
        gsl_blas_ddot(&q.vector, Ax, &s);
        if (s > top) {
            top = s;
            best = i;
        }
    }
    return best;
}

task_data *task_teacher_argmax(size_t examples, size_t candidates, const gsl_matrix *A,
                             gsl_rng *r)
{
    if (A->size1 != A->size2 || candidates == 0)
        return NULL;
    gsl_vector *Ax = gsl_vector_alloc(A->size1);
    task_data *d = Ax ? dataset_new(examples, candidates + 1, A->size1, candidates) : NULL;
    for (size_t i = 0; d && i < examples; i++) {
        rng_fill_gaussian(d->x[i], r, 1.0);
        d->y[i] = teacher_choice(d->x[i], A, Ax);
    }
    gsl_vector_free(Ax);
    return d;
}
