# make bench: sparse attention against dense, the time of computing a
# fraction f of the scores relative to the dense tiled kernel's time.
set title sprintf("A fraction f of the scores (T = %d, %d heads of %d): time against dense", T, heads, dh)
set xlabel "fraction f of the causal scores computed"
set ylabel "time / dense tiled kernel's time"
set logscale xy 10
set xrange [0.008 : 1.25]
set yrange [0.005 : 20]
set format x "%g"
set format y "%g"
set key bottom right box lc rgb "#cccccc" opaque
plot data index 0 using 1:2 with linespoints lt 2 title "key lists (each score gathered)", \
     ''   index 0 using 3:4 with linespoints lt 1 title "block lists (tiles of 64 × 64)", \
     x with lines lt 7 dt 2 title "time proportional to f (the claim)", \
     1 with lines lt 7 dt 3 title "dense (1)"
