/* A model's parameters seen as one list of named arrays, so that the
 * optimiser, gradient clipping, checkpoints and comparisons with another
 * framework serve any model: each entry points at the numbers of one weight
 * matrix or vector (C order) and at its gradient, in float64 (the reference
 * path) or in float32 (the training path, gpt32.h). */
#ifndef INVENT_TENSORS_H
#define INVENT_TENSORS_H

#include <stddef.h>

typedef struct {
    char name[32];   /* "tok_emb", "l0.Wq", ... (the checkpoint's file names) */
    double *value;   /* size numbers */
    double *grad;    /* size numbers, or NULL */
    float *value32;  /* the float32 path's numbers (value NULL), or NULL */
    float *grad32;   /* and their gradient */
    int ndim;        /* 1 (a vector) or 2 (a matrix) */
    size_t shape[2]; /* (n) or (rows, cols) */
    size_t size;     /* how many numbers */
    int decay;       /* 1 for weight matrices, which weight decay shrinks; 0 for biases and gains */
} tensor_ref;

/* t: (count) tensors -> how many numbers they hold together */
size_t tensors_numbers(const tensor_ref *t, size_t count);

#endif
