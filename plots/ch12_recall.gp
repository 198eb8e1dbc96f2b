# Chapter 12, claim L2: trained readers on associative recall, accuracy
# against the number of key-value pairs (mean and spread over runs).
# caption: Trained on associative recall, a fixed recurrent state loses accuracy as the number of pairs grows, while one attention layer stays near perfect.
# claims: L2
set title sprintf("Recall after training: a state of size m = %d against attention", state)
set xlabel "key-value pairs before the query"
set ylabel sprintf("held-out accuracy (mean ± sd, %d runs)", runs)
set yrange [0:1.08]
set xrange [0.5:keys + 0.5]
set xtics 1
set key at graph 0.98, graph 0.78 right Left reverse box lc rgb "#cccccc" opaque width 1
set label sprintf("chance: 1/%d", keys) at graph 0.02, first 1.0 / keys offset 0,0.7 tc rgb accent
plot 1.0 / keys with lines lt 7 dt 3 lw 1.5 notitle, \
     data index 0 using 1:4:5 with yerrorlines lt 1 title sprintf("attention, %d parameters", att_params), \
     ''   index 0 using 1:2:3 with yerrorlines lt 2 title sprintf("recurrent, %d parameters", rnn_params), \
     ''   index 0 using 1:6 with linespoints lt 7 dt 2 title "guessing among the values seen", \
     ''   index 1 using 1:2:3 with yerrorlines lt 3 dt 4 title "attention with W_q zeroed after training (control)"
