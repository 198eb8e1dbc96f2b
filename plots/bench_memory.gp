# make bench: peak extra memory of each attention kernel against T, log-log.
set title "Extra memory beyond Q, K, V and the output, against sequence length"
set xlabel "sequence length T (tokens)"
set ylabel "peak extra memory (bytes)"
set logscale x 2
set logscale y 10
set format y "10^{%L}"
set xtics first_T, 2
set xrange [first_T / 1.15 : last_T * 1.15]
set key top left box lc rgb "#cccccc" opaque
plot data index 0 using 1:2 with linespoints lt 2 title "naive: one row of T scores per thread", \
     ''   index 1 using 1:2 with linespoints lt 5 title "blas: one head's T × T scores", \
     ''   index 2 using 1:2 with linespoints lt 1 title "tiled: a few tiles per thread"
