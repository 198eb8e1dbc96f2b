# Chapter 6, claim Q2: singular values of W_q^T W_k against a free matrix A.
# caption: W_q^T W_k has at most r non-zero singular values; a free matrix A is full rank.
# claims: Q2
set title sprintf("Singular values: W_q^T W_k has rank r = %d, a free %d x %d matrix is full rank", rank, dim, dim)
set xlabel "index j (largest first)"
set ylabel "singular value s_j"
set logscale y
set format y "10^{%L}"
set mytics 1
set yrange [1e-18:*]
set xrange [0.5:dim + 0.5]
# the key goes to the side away from j = r, so it hides neither the drop nor its label
if (rank < dim / 2.0) {
    set key at graph 0.98, graph 0.55 right Left reverse box lc rgb "#cccccc" opaque width 1
} else {
    set key at graph 0.02, graph 0.55 left Left reverse box lc rgb "#cccccc" opaque width 1
}
# markers only while they stay apart
sty = dim <= 64 ? "linespoints" : "lines"
set arrow from rank + 0.5, graph 0 to rank + 0.5, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("j = r = %d", rank) at rank + 0.5, graph 0.5 right offset -1,0 tc rgb accent
plot data index 0 using 1:3 with @sty lt 2 title "free A (d x d)", \
     ''   index 0 using 1:2 with @sty lt 1 title "W_q^T W_k (rounding noise after j = r)"
