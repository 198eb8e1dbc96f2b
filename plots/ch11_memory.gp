# Chapter 11, claim N3: extra memory of the materialised matrix form and of the tiled kernel.
# caption: The materialised matrix form needs T² extra memory per head; the tiled kernel with an online softmax needs a few tiles, whatever T.
# claims: N3
set title sprintf("Extra memory for attention, %d head%s of size %d", heads, heads == 1 ? "" : "s", dh)
set xlabel "sequence length T (tokens)"
set ylabel "extra memory (bytes, as allocated)"
set logscale x 2
set logscale y 10
set format y "10^{%L}"
set xtics first_T, 2
set xrange [first_T / 1.15 : last_T * 1.15]
set key top left box lc rgb "#cccccc" opaque
plot data index 0 using 1:2 with linespoints lt 2 title "matrix form: one head's T × T scores", \
     ''   index 0 using 1:3 with linespoints lt 1 title "tiled, online softmax: a few tiles per thread"
