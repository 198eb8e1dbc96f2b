/* Grader for exercise 11: the online softmax update. The state after a tile
 * is compared with the softmax sums computed directly (in double); whole
 * attention, built from the student's update over tiles of ATTN_TILE keys,
 * is compared with the library's kernel attn_naive. */
#include <stdlib.h>
#include <string.h>

#include "attn_kernels.h"
#include "exercises.h"
#include "grade.h"

/* a: rows x cols floats -> a new double matrix, for the messages */
static gsl_matrix *from_floats(const float *a, size_t rows, size_t cols)
{
    gsl_matrix *M = grade_nan(rows, cols);
    for (size_t i = 0; i < rows * cols; i++)
        M->data[(i / cols) * M->tda + i % cols] = a[i];
    return M;
}

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

/* the state (m, l, acc) after the scores s: (n), values V: (n, dh), computed
 * directly in double, against the student's after tiles of `tile` keys */
static void compare_state(size_t n, size_t dh, size_t tile, double sigma, unsigned long seed,
                          const char *what)
{
    gsl_rng *r = grade_rng(seed);
    float *s = random_floats(n, sigma, r), *V = random_floats(n * dh, 1.0, r);
    float m = -INFINITY, l = 0.0f, *acc = calloc(dh, sizeof *acc);
    for (size_t i = 0; i < n; i += tile) {
        size_t k = n - i < tile ? n - i : tile;
        grade_status(what, ex11_online_update(k, dh, s + i, V + i * dh, &m, &l, acc), INVENT_OK,
                     "return INVENT_OK for a tile of at least one key");
    }
    double top = -INFINITY, sum = 0.0;
    for (size_t i = 0; i < n; i++)
        top = fmax(top, s[i]);
    gsl_matrix *want = gsl_matrix_calloc(1, dh + 2);
    for (size_t i = 0; i < n; i++) {
        double p = exp(s[i] - top);
        sum += p;
        for (size_t j = 0; j < dh; j++)
            *gsl_matrix_ptr(want, 0, j + 2) += p * V[i * dh + j];
    }
    gsl_matrix_set(want, 0, 0, top);
    gsl_matrix_set(want, 0, 1, sum);
    float state[66];
    state[0] = m, state[1] = l;
    memcpy(state + 2, acc, dh * sizeof *acc);
    gsl_matrix *got = from_floats(state, 1, dh + 2);
    grade_matrix(what, got, want, 1e-5,
                 "the row is (m, l, acc[0..dh-1]): m the largest score so far, l = sum "
                 "exp(s_i - m), acc = sum exp(s_i - m) v_i; rescale the old l and acc by "
                 "exp(m_old - m_new) first");
    gsl_matrix_free(got), gsl_matrix_free(want);
    free(s), free(V), free(acc);
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
    cr_assert_eq(attn_naive(&shape, Q, K, V, want, NULL), INVENT_OK);
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
    gsl_matrix *g = from_floats(got, T, ld), *w = from_floats(want, T, ld);
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
