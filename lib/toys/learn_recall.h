/* The two readers of the associative-recall task (chapter 12, claim L2).
 * Both see the same tokens and end in the same linear read-out of the class
 * logits; they differ in what they remember.
 *  - the recurrent reader folds the tokens into a tanh state of fixed size m
 *    (lib/model/rnn.h) and reads the answer from the last state;
 *  - the attention reader keeps every token and lets the last one (the
 *    query) look back at all of them with one layer of multi-head attention
 *    (lib/model/heads.h), then reads the answer from the query's output. */
#ifndef INVENT_LEARN_RECALL_H
#define INVENT_LEARN_RECALL_H

#include <gsl/gsl_rng.h>

#include "train.h"

/* tokens of size p, a state of size m, c classes -> *out, a model with
 * m^2 + m p + c m + c parameters; INVENT_ENOMEM */
int learn_recall_rnn(size_t p, size_t m, size_t classes, gsl_rng *r, train_model *out);

/* tokens of size p (= the model width d), H heads of size k (queries, keys
 * and values), c classes -> *out, with 4 H k p + c p + c parameters */
int learn_recall_attention(size_t p, size_t heads, size_t k, size_t classes, gsl_rng *r,
                           train_model *out);

/* an attention reader from learn_recall_attention -> its W_q set to zero: every visible
 * token weighs the same for the query, the stored pairs averaged (L2's near miss) */
void learn_recall_attention_blind(train_model *m);

#endif
