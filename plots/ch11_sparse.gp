# Chapter 11, computing fewer scores: time of the sparse kernels relative to the dense tiled kernel, against the fraction of scores computed.
# caption: Computing a fraction f of the scores: the sparse kernels' time as a share of the dense tiled kernel's, measured on this machine (noisy); the dashed line is time in proportion to f.
# claims: N1 N3
set title sprintf("Sparse against dense attention, T = %d, %d heads of %d", T, heads, dh)
set xlabel "fraction of the visible scores computed"
set ylabel "time / dense tiled kernel's time"
set logscale x 10
set logscale y 10
set xrange [0.005 : 1.3]
set yrange [0.003 : 30]
set key bottom right box lc rgb "#cccccc" opaque
plot data index 0 using 1:2 with linespoints lt 2 title "key lists (scores gathered one by one)", \
     ''   index 0 using 3:4 with linespoints lt 1 title "block lists (whole tiles)", \
     1 with lines lt 3 dt 2 title "as slow as dense", \
     x with lines lt 4 dt 3 title "time in proportion to f"
