/* Exercise 8 (chapter 8): many heads, concatenated, mixed by W_o.
 *
 * H heads attend side by side, each in its own subspace, and the output
 * matrix W_o mixes what they found back into d dimensions (Vaswani et al.,
 * 2017). With tokens as rows and weights as (out, in):
 *
 *     Q = X W_q^T,  K = X W_k^T,  V = X W_v^T          (T, H*dk), (T, H*dk), (T, H*dv)
 *     C_j = attn(Q_j, K_j, V_j), scale 1/sqrt(dk)      Q_j: column block j of Q
 *     out = [C_1 ... C_H] W_o^T                          (T, d)
 *
 * Contract of ex08_multihead(w, X, mask, out):
 *   - w: the weights of lib/model/heads.h (w->heads = H; W_q, W_k: (H*dk, d),
 *     W_v: (H*dv, d), W_o: (d, H*dv)); X: (T, d); out: (T, d);
 *   - writes the output above (mask ATTN_CAUSAL or ATTN_BIDIRECTIONAL) and
 *     returns INVENT_OK; returns INVENT_ESHAPE when X or out do not fit the
 *     weights (X's width not d, out not (T, d)); frees all it allocates, on
 *     every path;
 *   - X, out and the weight matrices may be views whose rows lie further
 *     apart than their width (a tda).
 * Use the library: mat_product / mat_mul for the projections and W_o,
 * heads_const_columns / heads_columns for head j's column block (views, no
 * copies), attn_forward for each head (one (T, T) weights matrix serves them all).
 * Write it yourself: the grade refuses calls to mha_forward and block_forward;
 * and to every library function that does the same work (found by walking the
 * library's call graph: each calls one of them, or is one of them wrapped):
 * ablated_batch_forward, ablated_forward, gpt_batch_forward, gpt_forward,
 * gpt_gradcheck, gpt_probe_run, learn_block_pass, learn_recall_attention.
 * Grade: make exercise8   Hints: make hint 8 (then LEVEL=2, LEVEL=3) */
#include <math.h>

#include "exercises.h"

int ex08_multihead(const mha_weights *w, const gsl_matrix *X, attn_mask mask, gsl_matrix *out)
{
    /* BEGIN SOLUTION */
    /* stub: (void)w; (void)X; (void)mask; (void)out; */
    /* stub: return INVENT_OK; */
    size_t T = X->size1, d = X->size2, H = w->heads;
    if (w->Wq->size2 != d || w->Wk->size2 != d || w->Wv->size2 != d || w->Wo->size1 != d ||
        out->size1 != T || out->size2 != d)
        return INVENT_ESHAPE;
    gsl_matrix *Q = mat_product(X, CblasNoTrans, w->Wq, CblasTrans);
    gsl_matrix *K = mat_product(X, CblasNoTrans, w->Wk, CblasTrans);
    gsl_matrix *V = mat_product(X, CblasNoTrans, w->Wv, CblasTrans);
    gsl_matrix *C = gsl_matrix_alloc(T, w->Wv->size1), *W = gsl_matrix_alloc(T, T);
    int status = Q && K && V && C && W ? INVENT_OK : INVENT_ENOMEM;
    double scale = 1.0 / sqrt((double)(w->Wq->size1 / H));
    for (size_t j = 0; j < H && status == INVENT_OK; j++) {
        gsl_matrix_const_view Qj = heads_const_columns(Q, H, j), Kj = heads_const_columns(K, H, j);
        gsl_matrix_const_view Vj = heads_const_columns(V, H, j);
        gsl_matrix_view Cj = heads_columns(C, H, j);
        status = attn_forward(&Qj.matrix, &Kj.matrix, &Vj.matrix, scale, mask, W, &Cj.matrix);
    }
    if (status == INVENT_OK)
        status = mat_mul(C, CblasNoTrans, w->Wo, CblasTrans, out);
    gsl_matrix_free(Q);
    gsl_matrix_free(K);
    gsl_matrix_free(V);
    gsl_matrix_free(W);
    gsl_matrix_free(C);
    return status;
    /* END SOLUTION */
}
