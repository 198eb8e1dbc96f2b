# Chapter 7, claim S2: softmax weights of one set of scores against tau.
set title sprintf("Softmax weights of the last token over its %d positions, against the temperature", T)
set xlabel "temperature τ (log scale)"
set ylabel "weight of position i"
set logscale x
set format x "10^{%L}"
set yrange [-0.02:1.02]
set key at graph 0.99, graph 0.97 right Left reverse box lc rgb "#cccccc" opaque width 1 title "score s_i"
set arrow from graph 0, first 1.0/T to graph 1, first 1.0/T nohead dt 3 lw 2 lc rgb accent
set label sprintf("uniform: 1/%d", T) at graph 0.01, first 1.0/T offset 0,0.8 tc rgb accent
set arrow from tau_scaled, graph 0 to tau_scaled, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("τ = √r = %.2f: the 1/√r scaling", tau_scaled) at tau_scaled, graph 0.45 right offset -1,0 tc rgb accent
plot for [i=0:T-1] data index i using 1:2 with lines lt (i % 7 + 1) dt 1 + (i >= 7) \
     title word(scores, i + 1)
