/* Exercise 11 (chapter 11): attention with a running (online) softmax.
 *
 * The matrix form stores all T x T scores. A query does not need them all at
 * once: it can read the keys tile by tile, keeping only a running maximum m,
 * a running sum l of exp(score - m) and an unnormalised output acc
 * (Milakov & Gimelshein, 2018; Dao et al., 2022). When a tile raises the
 * maximum from m to m', everything summed so far was measured against the
 * old maximum and is rescaled by exp(m - m'):
 *
 *     m'  = max(m, max_i s_i)
 *     l   = l   * exp(m - m') + sum_i exp(s_i - m')
 *     acc = acc * exp(m - m') + sum_i exp(s_i - m') v_i
 *
 * Start from m = -INFINITY, l = 0, acc = 0 (exp(-INFINITY) is 0, so the first
 * tile needs no special case); after the last tile the output is acc / l,
 * exactly softmax(s) V, and no score was ever larger than 0 in an exp.
 *
 * Contract of ex11_online_update(n, dh, s, V, m, l, acc), in float:
 *   - s: (n) finite scores of one query against n new keys; V: (n, dh), row i
 *     (at V + i * dh) the value of key i; *m, *l, acc: (dh) the running state;
 *   - updates the state as above and returns INVENT_OK;
 *   - returns INVENT_ERANGE, changing nothing, when n or dh is 0;
 *   - any n and dh (a tile of 1000 keys, values of 1000 entries); reads s
 *     and V only, writes acc[0..dh-1] and nothing past it; allocates nothing.
 * Write it yourself: the grade refuses calls to attn_naive, attn_blas and
 * attn_tiled.
 * Grade: make exercise11   Hints: make hint 11 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include "exercises.h"

int ex11_online_update(size_t n, size_t dh, const float *s, const float *V, float *m, float *l,
                       float *acc)
{
    /* BEGIN SOLUTION */
    /* stub: (void)n; (void)dh; (void)s; (void)V; (void)m; (void)l; (void)acc; */
    /* stub: return INVENT_OK; */
    if (n == 0 || dh == 0)
        return INVENT_ERANGE;
    float top = *m;
    for (size_t i = 0; i < n; i++)
        top = fmaxf(top, s[i]);
    float rescale = expf(*m - top);
    *l *= rescale;
    for (size_t j = 0; j < dh; j++)
        acc[j] *= rescale;
    for (size_t i = 0; i < n; i++) {
        float p = expf(s[i] - top);
        *l += p;
        for (size_t j = 0; j < dh; j++)
            acc[j] += p * V[i * dh + j];
    }
    *m = top;
    return INVENT_OK;
    /* END SOLUTION */
}
