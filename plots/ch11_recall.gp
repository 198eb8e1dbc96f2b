# Chapter 11, claim N2: the recall probe, full causal attention against a sliding window.
# caption: A sliding window recalls a token exactly within its width and loses it beyond; full causal attention recalls it at any distance.
# claims: N2
set title sprintf("Recalling a token δ positions back (%d tokens, window w = %d)", probe, window)
set xlabel "distance δ to the token the query asks for (tokens)"
set ylabel "recall error |out − v| / |v|"
set yrange [-0.05:1.65]
set xrange [-2:*]
set key at graph 0.98, graph 0.5 right box lc rgb "#cccccc" opaque
set arrow from window, graph 0 to window, graph 1 nohead dt 2 lw 2 lc rgb accent
set label "window edge: δ = w" at window, graph 0.93 offset 1,0 tc rgb accent
plot data index 0 using 1:3 with linespoints lt 2 title sprintf("sliding window, w = %d", window), \
     ''   index 0 using 1:2 with linespoints lt 1 title "full causal attention"
