# Chapter 8, claim H3: singular values of one head's output-value circuit.
# caption: One head's output-value circuit W_o^(j) V_j is a d×d matrix whose rank is at most the head size r.
# claims: H3
set title sprintf("One head's W_o^{(1)} V_1 is a %d × %d matrix of rank r = %d", dim, dim, rank)
set xlabel "index k of the singular value"
set ylabel "σ_k / σ_1"
set logscale y
set format y "10^{%L}"
set yrange [1e-18:10]
set xrange [0:dim+1]
set key at graph 0.98, graph 0.75 right box lc rgb "#cccccc" opaque width 1
set arrow from rank + 0.5, graph 0 to rank + 0.5, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("k = r = %d: the rest is rounding", rank) at rank + 0.5, graph 0.45 offset 2,0 tc rgb accent
plot data index 0 using 1:3 with linespoints lt 2 ps 0.8 title "a free random d × d matrix (the control)", \
     ''   index 0 using 1:2 with linespoints lt 1 ps 0.8 title "W_o^{(1)} V_1 (one head)"
