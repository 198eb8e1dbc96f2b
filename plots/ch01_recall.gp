# Chapter 1, claims R1 and R3: recall error against sequence length, with the
# share of directions the state cannot see and the error expected of a
# read-out fitted on finitely many sequences.
# caption: A fixed state of size m recalls every past input exactly while n·p ≤ m; past that, the least-squares read-out loses a growing share, as expected from the directions the state cannot see, raised a little by fitting the read-out on finitely many sequences (solid line); the uncorrected share (dotted) is the near miss that the check, over all lengths at once, must reject. Keeping every state (the growing memory) recalls exactly at every length.
# claims: R1 R3
set title sprintf("Recall from memory: a fixed state of size m = %d, inputs of size p = %d", state, input)
set xlabel "sequence length n (tokens)"
set ylabel "relative recall error"
set yrange [-0.03:1.05]
set xrange [0.5:*]
set autoscale xfix
set offsets 0.3, 0.3, 0, 0
set key at graph 0.98, graph 0.42 right box lc rgb "#cccccc" opaque width 1
set arrow from capacity, graph 0 to capacity, graph 1 nohead dt 2 lw 2 lc rgb accent
set label "state full: n·p = m" at capacity, graph 0.93 offset 1,0 tc rgb accent
plot data index 0 using 1:2 with linespoints lt 2 title "fixed state h_n", \
     ''   index 0 using 1:4 with lines lt 7 lw 2 title "expected, with the finite fit", \
     ''   index 0 using 1:5 with lines lt 7 dt 3 lw 2 title "lost share √(1 − m/(n·p))", \
     ''   index 0 using 1:3 with linespoints lt 1 title "every state h_1 … h_n kept"
