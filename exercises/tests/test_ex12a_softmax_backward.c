/* Grader for exercise 12a: the softmax backward pass, against
 * softmax_rows_backward and against finite differences of softmax_rows (L1).
 * W, dW and dS are views with a tda.
 * Refused calls: softmax_rows_backward attn_backward ablated_backward additive_backward
 *   block_backward gpt_backward learn_recall_attention mha_backward
 *   learn_block_pass ablated_batch_backward gpt_batch_backward */
#include "exercises.h"
#include "grade.h"

static const char *HINT = "dS[i][k] = W[i][k] (dW[i][k] - sum_j dW[i][j] W[i][j]), the mean "
                          "computed once per row";

/* -> W = softmax_rows(S) of random scores, a new (T, T') matrix; causal
 * masks the upper triangle first */
static gsl_matrix *random_weights(size_t T, size_t U, double sigma, int causal, gsl_rng *r)
{
    gsl_matrix *W = grade_gaussian(T, U, sigma, r);
    if (causal)
        mask_causal(W);
    cr_assert_eq(softmax_rows(W, 1.0), INVENT_OK);
    return W;
}

/* m (a view with a tda) -> a new (rows, cols) matrix of what ->data[i *
 * size2 + k] reads, as if its rows were size2 apart */
static gsl_matrix *read_flat(const gsl_matrix *m)
{
    gsl_matrix_const_view flat = gsl_matrix_const_view_array(m->data, m->size1, m->size2);
    return mat_clone(&flat.matrix);
}

/* -> softmax_rows_backward(W, dW) as a new matrix (the library adds into
 * dS, so it starts at zero) */
static gsl_matrix *gradient(const gsl_matrix *W, const gsl_matrix *dW)
{
    gsl_matrix *dS = gsl_matrix_calloc(W->size1, W->size2);
    softmax_rows_backward(W, dW, dS);
    return dS;
}

/* the student's gradient on padded copies of random weights and dW, and
 * the library's on plain ones; W and dW must come back unchanged */
static void compare(size_t T, size_t U, double sigma, int causal, unsigned long seed,
                    const char *what)
{
    gsl_rng *r = grade_rng(seed);
    gsl_matrix *W0 = random_weights(T, U, sigma, causal, r), *dW0 = grade_gaussian(T, U, 1.0, r);
    gsl_matrix *W = grade_padded(W0), *dW = grade_padded(dW0), *got = grade_nan_padded(T, U);
    gsl_matrix *want = gradient(W0, dW0), *flat_W = read_flat(W), *flat_dW = read_flat(dW);
    gsl_matrix *no_mean = mat_clone(dW0);
    gsl_matrix_mul_elements(no_mean, W0);
    gsl_matrix *known[] = {no_mean, gradient(W0, flat_dW), gradient(flat_W, dW0),
                           gradient(flat_W, flat_dW)};
    const char *flat = "a matrix is read through ->data[i * size2 + k], but its rows lie tda "
                       "apart (a view): use gsl_matrix_get or row views";
    const grade_mistake mistakes[] = {
        {known[0], "the weighted mean is missing: dS = W (dW - sum_j dW_j W_j), row by row"},
        {known[1], flat},
        {known[2], flat},
        {known[3], flat}};
    grade_status(what, ex12a_softmax_backward(W, dW, got), INVENT_OK,
                 "return INVENT_OK when the shapes fit");
    grade_padding(what, got);
    grade_matrix_why(what, got, want, 1e-12, HINT, mistakes, 4);
    grade_unchanged("W after the call", W, W0);
    grade_unchanged("dW after the call", dW, dW0);
    for (size_t k = 0; k < 4; k++)
        gsl_matrix_free(known[k]);
    gsl_matrix_free(W0), gsl_matrix_free(dW0), gsl_matrix_free(W), gsl_matrix_free(dW);
    gsl_matrix_free(got), gsl_matrix_free(want), gsl_matrix_free(flat_W), gsl_matrix_free(flat_dW);
    gsl_rng_free(r);
}

GRADE(ex12a, random_rows)
{
    compare(4, 6, 1.0, 0, 121, "dS for (4, 6) weights");
}

GRADE(ex12a, masked_entries_get_zero)
{
    compare(5, 5, 1.0, 1, 122, "dS for causal weights");
}

GRADE(ex12a, size_one)
{
    compare(1, 1, 1.0, 0, 123, "dS for a single weight (always 1)");
}

GRADE(ex12a, peaked_weights)
{
    compare(3, 4, 1e3, 0, 124, "dS for near one-hot weights");
}

GRADE(ex12a, two_sizes_and_long_rows)
{
    compare(3, 4, 1.0, 0, 127, "dS for (3, 4) weights");
    compare(40, 1000, 1.0, 0, 128, "dS for (40, 1000) weights, after (3, 4)");
    compare(2, 5, 1.0, 0, 129, "dS for (2, 5) weights, after (40, 1000)");
}

GRADE(ex12a, agrees_with_finite_differences)
{
    gsl_rng *r = grade_rng(125);
    size_t U = 5;
    gsl_matrix *S = grade_gaussian(1, U, 1.0, r), *dW = grade_gaussian(1, U, 1.0, r);
    gsl_matrix *W = mat_clone(S), *got = grade_nan(1, U), *fd = gsl_matrix_alloc(1, U);
    softmax_rows(W, 1.0);
    ex12a_softmax_backward(W, dW, got);
    double h = 1e-6; /* the loss L(S) = sum_k dW_k softmax(S)_k */
    for (size_t i = 0; i < U; i++) {
        double side[2];
        for (int sign = 0; sign < 2; sign++) {
            gsl_matrix *P = mat_clone(S);
            *gsl_matrix_ptr(P, 0, i) += sign ? -h : h;
            softmax_rows(P, 1.0);
            side[sign] = 0.0;
            for (size_t k = 0; k < U; k++)
                side[sign] += gsl_matrix_get(dW, 0, k) * gsl_matrix_get(P, 0, k);
            gsl_matrix_free(P);
        }
        gsl_matrix_set(fd, 0, i, (side[0] - side[1]) / (2 * h));
    }
    grade_matrix("dS against central differences of sum_k dW_k softmax(S)_k", got, fd, 1e-6, HINT);
    gsl_matrix_free(S), gsl_matrix_free(dW), gsl_matrix_free(W), gsl_matrix_free(got);
    gsl_matrix_free(fd);
    gsl_rng_free(r);
}

GRADE(ex12a, in_place)
{
    gsl_rng *r = grade_rng(126);
    gsl_matrix *W = random_weights(3, 4, 1.0, 0, r), *dW = grade_gaussian(3, 4, 1.0, r);
    gsl_matrix *want = gradient(W, dW), *apart = grade_nan_padded(3, 4);
    grade_repad(&dW);
    ex12a_softmax_backward(W, dW, apart);
    grade_matrix("dS into its own matrix, before the call in place", apart, want, 1e-12, HINT);
    gsl_matrix_free(apart);
    ex12a_softmax_backward(W, dW, dW);
    grade_padding("dS computed in place (dS = dW)", dW);
    grade_matrix("dS computed in place (dS = dW)", dW, want, 1e-12,
                 "compute the row's weighted mean before writing any entry of that row");
    gsl_matrix_free(W), gsl_matrix_free(dW), gsl_matrix_free(want);
    gsl_rng_free(r);
}

GRADE(ex12a, wrong_shapes_are_refused)
{
    gsl_matrix *W = gsl_matrix_calloc(3, 4), *dW = gsl_matrix_calloc(3, 4);
    gsl_matrix *d34 = gsl_matrix_calloc(4, 3), *d33 = gsl_matrix_calloc(3, 3);
    const char *hint = "W, dW and dS must all have the same shape";
    grade_status("dW of shape (4, 3)", ex12a_softmax_backward(W, d34, dW), INVENT_ESHAPE, hint);
    grade_status("dS of shape (3, 3)", ex12a_softmax_backward(W, dW, d33), INVENT_ESHAPE, hint);
    GRADE_NO_LEAK(0, ex12a_softmax_backward(W, dW, d33), "allocate nothing");
    gsl_matrix_free(W), gsl_matrix_free(dW), gsl_matrix_free(d34), gsl_matrix_free(d33);
}

GRADE(ex12a, no_memory_leak)
{
    gsl_matrix *W = gsl_matrix_calloc(8, 8), *dW = gsl_matrix_calloc(8, 8);
    GRADE_NO_LEAK(0, ex12a_softmax_backward(W, dW, dW),
                  "allocate nothing");
    gsl_matrix_free(W), gsl_matrix_free(dW);
}
