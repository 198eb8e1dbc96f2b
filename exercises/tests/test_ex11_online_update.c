/* Grader for exercise 11: the online softmax update. The state after a tile
 * is compared with the softmax sums computed directly (in double); whole
 * attention, built from the student's update over tiles of ATTN_TILE keys,
 * is compared with the library's kernel attn_naive. acc has canaries past
 * its end; s and V must come back unchanged.
 * Refused calls: attn_naive attn_blas attn_tiled */
#include <stdlib.h>
#include <string.h>

#include "attn_kernels.h"
#include "exercises.h"
#include "grade.h"

/* floats past the end of acc that hold a canary */
enum { TAIL = 4 };

/* -> n floats N(0, sigma^2) */
static float *random_floats(size_t n, double sigma, gsl_rng *r)
{
    gsl_matrix *g = grade_gaussian(1, n, sigma, r);
    float *a = malloc(n * sizeof *a);
    cr_assert(a != NULL, "grader: out of memory");
    for (size_t i = 0; i < n; i++)
        a[i] = (float)gsl_matrix_get(g, 0, i);
    gsl_matrix_free(g);
    return a;
}

/* -> acc: dh zeros followed by TAIL canaries */
static float *new_acc(size_t dh)
{
    float *acc = malloc((dh + TAIL) * sizeof *acc);
    cr_assert(acc != NULL, "grader: out of memory");
    for (size_t j = 0; j < dh + TAIL; j++)
        acc[j] = j < dh ? 0.0f : (float)GRADE_CANARY;
    return acc;
}

/* acc from new_acc -> fails the test when a canary past its end changed */
static void check_tail(const float *acc, size_t dh)
{
    for (size_t j = dh; j < dh + TAIL; j++)
        cr_assert(acc[j] == (float)GRADE_CANARY,
                  "your code wrote acc[%zu], past the end of acc (dh = %zu entries).\nHint: "
                  "the loops over acc stop at j < dh",
                  j, dh);
}

/* the state (m, l, acc) as one row (m, l, acc[0..dh-1]) -> a new (1, dh + 2) matrix */
static gsl_matrix *state_row(double m, double l, const double *acc, size_t dh)
{
    gsl_matrix *row = grade_nan(1, dh + 2);
    gsl_matrix_set(row, 0, 0, m);
    gsl_matrix_set(row, 0, 1, l);
    for (size_t j = 0; j < dh; j++)
        gsl_matrix_set(row, 0, j + 2, acc[j]);
    return row;
}

/* the state after the scores s: (n), values V: (n, dh), fed in tiles of
 * `tile` keys, in double; `rescale` 0 leaves the old sums unrescaled when
 * the maximum grows, a known mistake -> a new (1, dh + 2) matrix */
static gsl_matrix *simulate(const float *s, const float *V, size_t n, size_t dh, size_t tile,
                            int rescale)
{
    double m = -INFINITY, l = 0.0, *acc = calloc(dh, sizeof *acc);
    cr_assert(acc != NULL, "grader: out of memory");
    for (size_t lo = 0; lo < n; lo += tile) {
        double top = m;
        for (size_t i = lo; i < n && i < lo + tile; i++)
            top = fmax(top, s[i]);
        double factor = rescale ? exp(m - top) : 1.0;
        l *= factor;
        for (size_t j = 0; j < dh; j++)
            acc[j] *= factor;
        for (size_t i = lo; i < n && i < lo + tile; i++) {
            double p = exp(s[i] - top);
            l += p;
            for (size_t j = 0; j < dh; j++)
                acc[j] += p * V[i * dh + j];
        }
        m = top;
    }
    gsl_matrix *row = state_row(m, l, acc, dh);
    free(acc);
    return row;
}

/* the student's state after tiles of `tile` keys against the state
 * computed directly; s and V must come back unchanged */
static void compare_state(size_t n, size_t dh, size_t tile, double sigma, unsigned long seed,
                          const char *what)
{
    gsl_rng *r = grade_rng(seed);
    float *s = random_floats(n, sigma, r), *V = random_floats(n * dh, 1.0, r), *acc = new_acc(dh);
    float *s0 = malloc(n * sizeof *s0), *V0 = malloc(n * dh * sizeof *V0), m = -INFINITY, l = 0.0f;
    memcpy(s0, s, n * sizeof *s), memcpy(V0, V, n * dh * sizeof *V);
    for (size_t i = 0; i < n; i += tile) {
        size_t k = n - i < tile ? n - i : tile;
        grade_status(what, ex11_online_update(k, dh, s + i, V + i * dh, &m, &l, acc), INVENT_OK,
                     "return INVENT_OK for a tile of at least one key");
    }
    check_tail(acc, dh);
    double *got_acc = malloc(dh * sizeof *got_acc);
    for (size_t j = 0; j < dh; j++)
        got_acc[j] = acc[j];
    gsl_matrix *got = state_row(m, l, got_acc, dh), *want = simulate(s0, V0, n, dh, n, 1);
    gsl_matrix *unrescaled = simulate(s0, V0, n, dh, tile, 0);
    gsl_matrix_view got_m = gsl_matrix_submatrix(got, 0, 0, 1, 1);
    gsl_matrix_view want_m = gsl_matrix_submatrix(want, 0, 0, 1, 1);
    grade_matrix(what, &got_m.matrix, &want_m.matrix, 1e-6,
                 "m is the largest score so far: the larger of *m and every s_i of the tile");
    gsl_matrix_view got_sums = gsl_matrix_submatrix(got, 0, 1, 1, dh + 1);
    gsl_matrix_view want_sums = gsl_matrix_submatrix(want, 0, 1, 1, dh + 1);
    gsl_matrix_view bad_sums = gsl_matrix_submatrix(unrescaled, 0, 1, 1, dh + 1);
    const grade_mistake mistakes[] = {
        {&bad_sums.matrix, "the old l and acc are not rescaled when a tile raises the maximum: "
                           "multiply both by exp(m_old - m_new) first"}};
    grade_matrix_why(what, &got_sums.matrix, &want_sums.matrix, 1e-5,
                     "the row is (l, acc[0..dh-1]): l = sum exp(s_i - m), acc = sum exp(s_i - "
                     "m) v_i; subtract the running maximum inside every exp, and rescale the "
                     "old l and acc by exp(m_old - m_new)",
                     mistakes, 1);
    cr_assert(memcmp(s, s0, n * sizeof *s) == 0 && memcmp(V, V0, n * dh * sizeof *V) == 0,
              "your function changed s or V, which it must only read (const)");
    gsl_matrix_free(got), gsl_matrix_free(want), gsl_matrix_free(unrescaled);
    free(s), free(V), free(s0), free(V0), free(acc), free(got_acc);
    gsl_rng_free(r);
}

GRADE(ex11, one_tile_from_the_empty_state)
{
    compare_state(10, 4, 10, 1.0, 111, "state (m, l, acc) after one tile of 10 keys");
}

GRADE(ex11, tiles_give_the_same_state_as_one)
{
    compare_state(23, 4, 5, 2.0, 112, "state after 23 keys in tiles of 5");
}

GRADE(ex11, size_one)
{
    compare_state(1, 1, 1, 1.0, 113, "state after one key with dh = 1");
}

GRADE(ex11, large_scores_stay_finite)
{
    compare_state(12, 3, 4, 1e4, 114, "state after scores ~1e4 (expf overflows past 88)");
}

GRADE(ex11, two_sizes_and_large_tiles)
{
    compare_state(6, 2, 3, 1.0, 117, "state after 6 keys, dh = 2");
    compare_state(2000, 3, 1000, 2.0, 118, "state after 2000 keys in tiles of 1000, after dh = 2");
    compare_state(5, 1000, 2, 1.0, 119, "state after 5 keys with dh = 1000");
    compare_state(3, 2, 1, 1.0, 110, "state after 3 keys, dh = 2, after dh = 1000");
}

/* causal attention of every head over T tokens with the student's update,
 * tiles of ATTN_TILE keys, against attn_naive */
static void compare_attention(size_t T, size_t H, size_t dh, size_t window, unsigned long seed,
                              const char *what)
{
    gsl_rng *r = grade_rng(seed);
    attn_shape shape = {T, H, dh, window, 1.0f / sqrtf((float)dh)};
    size_t ld = H * dh;
    float *Q = random_floats(T * ld, 1.0, r), *K = random_floats(T * ld, 1.0, r);
    float *V = random_floats(T * ld, 1.0, r), *want = calloc(T * ld, sizeof *want);
    float *got = calloc(T * ld, sizeof *got), *tile_s = malloc(ATTN_TILE * sizeof *tile_s);
    float *tile_v = malloc(ATTN_TILE * dh * sizeof *tile_v), *acc = malloc(dh * sizeof *acc);
    attn_work work;
    cr_assert_eq(attn_work_for(attn_naive_work, &shape, &work), INVENT_OK);
    cr_assert_eq(attn_naive(&shape, Q, K, V, want, &work, NULL), INVENT_OK);
    attn_work_free(&work);
    for (size_t h = 0; h < H; h++)
        for (size_t t = 0; t < T; t++) {
            float m = -INFINITY, l = 0.0f;
            memset(acc, 0, dh * sizeof *acc);
            for (size_t lo = attn_first_key(&shape, t); lo <= t; lo += ATTN_TILE) {
                size_t n = t + 1 - lo < ATTN_TILE ? t + 1 - lo : ATTN_TILE;
                for (size_t i = 0; i < n; i++) {
                    float dot = 0.0f;
                    for (size_t j = 0; j < dh; j++)
                        dot += Q[t * ld + h * dh + j] * K[(lo + i) * ld + h * dh + j];
                    tile_s[i] = shape.scale * dot;
                    memcpy(tile_v + i * dh, V + (lo + i) * ld + h * dh, dh * sizeof *V);
                }
                ex11_online_update(n, dh, tile_s, tile_v, &m, &l, acc);
            }
            for (size_t j = 0; j < dh; j++)
                got[t * ld + h * dh + j] = acc[j] / l;
        }
    gsl_matrix *g = grade_nan(T, ld), *w = grade_nan(T, ld);
    for (size_t i = 0; i < T * ld; i++)
        g->data[i] = got[i], w->data[i] = want[i];
    grade_matrix(what, g, w, 1e-5,
                 "with the right state, acc / l after the last tile is softmax(scores) V; "
                 "check the rescaling by exp(m_old - m_new) when a later tile has a larger "
                 "score");
    gsl_matrix_free(g), gsl_matrix_free(w);
    free(Q), free(K), free(V), free(want), free(got), free(tile_s), free(tile_v), free(acc);
    gsl_rng_free(r);
}

GRADE(ex11, causal_attention_over_tiles_matches_attn_naive)
{
    compare_attention(150, 2, 8, 0, 115, "attention, T = 150 (3 tiles), H = 2, dh = 8");
}

GRADE(ex11, sliding_window_matches_attn_naive)
{
    compare_attention(100, 1, 4, 70, 116, "attention with a window of 70 keys, T = 100");
}

GRADE(ex11, empty_tile_is_refused)
{
    float s = 1.0f, v = 1.0f, m = 0.5f, l = 2.0f, acc = 3.0f;
    grade_status("a tile of n = 0 keys", ex11_online_update(0, 1, &s, &v, &m, &l, &acc),
                 INVENT_ERANGE, "return INVENT_ERANGE when n or dh is 0");
    grade_status("values of dh = 0", ex11_online_update(1, 0, &s, &v, &m, &l, &acc), INVENT_ERANGE,
                 "return INVENT_ERANGE when n or dh is 0");
    cr_assert(m == 0.5f && l == 2.0f && acc == 3.0f,
              "a refused call changed the state to m = %g, l = %g, acc = %g.\nHint: check n "
              "and dh before anything else",
              m, l, acc);
}

GRADE(ex11, no_memory_leak)
{
    float s[4] = {1, 2, 3, 4}, V[8] = {0}, m = -INFINITY, l = 0.0f, acc[2] = {0};
    GRADE_NO_LEAK(0, ex11_online_update(4, 2, s, V, &m, &l, acc), "allocate nothing");
}
