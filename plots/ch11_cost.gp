# Chapter 11, claims N1 and N2: how the cost of causal attention grows with T.
# caption: Counted work and score memory of causal attention grow as T² (fitted exponents); a sliding window keeps the work per token bounded.
# claims: N1 N2
set title "Causal attention: cost against sequence length, relative to the shortest"
set xlabel "sequence length T (tokens)"
set ylabel "growth since the shortest T (×)"
set logscale xy 2
set xtics first_T, 2
set xrange [first_T / 1.15 : last_T * 1.15]
set key top left box lc rgb "#cccccc" opaque
# The references come last, so the dotted T^2 shows on top of the curves it matches.
plot data index 0 using 1:3 with lines lt 3 lw 9 title "score matrix bytes (allocated)", \
     ''   index 0 using 1:2 with linespoints lt 1 title "multiply-adds (counted)", \
     ''   index 0 using 1:4 with points lt 2 ps 2 title "CPU time of the naive loops (measured)", \
     ''   index 0 using 1:5 with linespoints lt 5 title sprintf("multiply-adds, window w = %d", window), \
     ''   index 0 using 1:6 with lines lt 7 dt 3 lw 4 title "T^2 (reference, dotted, drawn on top)", \
     ''   index 0 using 1:7 with lines lt 7 dt 2 lw 2 title "T (reference)"
