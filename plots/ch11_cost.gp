# Chapter 11, claims N1-N3: how the work of causal attention grows with T.
# caption: Counted multiply-adds of causal attention grow as T² (fitted exponent), the tiled kernel's too (drawn on the naive loops' scale): the tiles remove the T×T matrix, not the work; a sliding window keeps the work per token bounded.
# claims: N1 N2
set title "Causal attention: work against sequence length, relative to the shortest"
set xlabel "sequence length T (tokens)"
set ylabel "× the naive loops at the shortest T"
set logscale xy 2
set xtics first_T, 2
set xrange [first_T / 1.15 : last_T * 1.15]
set yrange [0.8 : 2 * (last_T / first_T)**2]  # the key sits above the curves, top left
set key top left box lc rgb "#cccccc" opaque samplen 2
# The references come last, so that the dotted T^2 shows over the curves it matches.
plot data index 0 using 1:2 with linespoints lt 1 title "multiply-adds, naive (counted)", \
     ''   index 0 using 1:3 with linespoints lt 3 title "multiply-adds, tiled (counted, same scale)", \
     ''   index 0 using 1:4 with points lt 2 ps 2 title "CPU time, naive (measured)", \
     ''   index 0 using 1:5 with linespoints lt 5 title sprintf("multiply-adds, window w = %d", window), \
     ''   index 0 using 1:6 with lines lt 7 dt 3 lw 4 title "T²", \
     ''   index 0 using 1:7 with lines lt 7 dt 2 lw 2 title "T"
