/* Seeded data for the learning experiments of chapter 12. Every example is
 * a small matrix of tokens (one per row) and a class label; the same seed
 * always gives the same data. */
#ifndef INVENT_TASKS_H
#define INVENT_TASKS_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

typedef struct {
    size_t n;       /* examples */
    size_t classes; /* labels lie in [0, classes) */
    gsl_matrix **x; /* n inputs, each (tokens, features) */
    size_t *y;      /* n labels */
} task_data;

void task_data_free(task_data *d);

/* d -> d with its labels permuted at random: the inputs tell nothing about
 * the labels any more, so a model trained on it can learn nothing that
 * carries over to held-out data (the control of a trained claim) */
void task_shuffle_labels(task_data *d, gsl_rng *r);

/* Associative recall: `pairs` tokens [onehot(key) | onehot(value)] with
 * distinct keys, then a query token [onehot(key) | 0] repeating one of them;
 * the label is the value stored with that key. x: (pairs + 1, keys + values);
 * NULL when pairs > keys or out of memory */
task_data *task_recall(size_t examples, size_t pairs, size_t keys, size_t values, gsl_rng *r);

/* d -> the same examples with every token but the last dropped: for the recall task,
 * the query alone (what a reader sees if its state is read before the pairs reach it);
 * NULL when out of memory */
task_data *task_last_token(const task_data *d);

/* -> the accuracy of a reader of the recall task that remembers which values
 * appeared but not with which key: it guesses uniformly among the distinct
 * values of the `pairs` drawn from `values` (the mean of 1/distinct) */
double task_recall_guess_accuracy(size_t pairs, size_t values);

/* Sign agreement: x = (x1, x3) uniform on [-range, range]^2, as a (1, 2)
 * matrix; label 1 when x1 and x3 have the same sign (x1 x3 > 0), else 0 */
task_data *task_sign_agreement(size_t examples, double range, gsl_rng *r);

/* d, rank, r -> A: (d, d) = U V^T / sqrt(rank) with U, V: (d, rank) Gaussian,
 * a teacher score matrix of the given rank; NULL when out of memory */
gsl_matrix *task_teacher(size_t d, size_t rank, gsl_rng *r);

/* Retrieval by a teacher's bilinear score: `candidates` Gaussian tokens x_i
 * and a query x_L (the last row), x: (candidates + 1, d); the label is the
 * candidate with the largest x_L^T A x_i */
task_data *task_teacher_argmax(size_t examples, size_t candidates, const gsl_matrix *A,
                             gsl_rng *r);

#endif
