# make bench: median time of each attention kernel against T, log-log.
set title sprintf("Causal attention, %d heads of size %d, float32: time against sequence length", heads, dh)
set xlabel "sequence length T (tokens)"
set ylabel "median time (ms)"
set logscale xy 2
set format y "10^{%L}"
set logscale y 10
set xtics first_T, 2
set xrange [first_T / 1.15 : last_T * 1.15]
set key top left box lc rgb "#cccccc" opaque
plot data index 0 using 1:2 with linespoints lt 2 title "naive (textbook loops)", \
     ''   index 1 using 1:2 with linespoints lt 5 title "blas (masked matrix form)", \
     ''   index 2 using 1:2 with linespoints lt 1 title "tiled (online softmax)", \
     ''   index 3 using 1:2 with linespoints lt 7 dt 2 title "sgemm Q_hK_h^T, every head (yardstick)"
