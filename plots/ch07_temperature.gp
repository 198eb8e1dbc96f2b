# Chapter 7, claim S2: softmax weights of one set of scores against tau.
# Data blocks come from the largest score down; the figure names the first
# `named` of them and draws the rest as thin grey lines.
# caption: The same scores under a growing temperature: the largest score takes all the weight at small τ, and the weights even out as τ grows.
# claims: S2
set title sprintf("Softmax weights of the last token over its %d positions, against the temperature", T)
set xlabel "temperature τ (log scale)"
set ylabel "weight of position i"
set logscale x
set format x "10^{%L}"
set yrange [-0.02:1.02]
set key at graph 0.02, graph 0.92 left top Left reverse box lc rgb "#cccccc" opaque width 1 title "score s_i"
set arrow from graph 0, first 1.0/T to graph 1, first 1.0/T nohead dt 3 lw 2 lc rgb accent
set label sprintf("uniform: 1/%d", T) at graph 0.01, first 1.0/T offset 0,0.8 tc rgb accent
set arrow from tau_scaled, graph 0 to tau_scaled, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("τ = √r = %.2f: the 1/√r scaling", tau_scaled) at tau_scaled, graph 0.3 right offset -1,0 tc rgb accent
rest = T - named
rest_title = rest == 1 ? sprintf("%.2f", rest_low) : \
             sprintf("%d lower, %.2f to %.2f", rest, rest_high, rest_low)
grey = "#a0a0a0"
if (rest > 0) {
    plot for [i=named:T-1] data index i using 1:2 with lines lw 1.5 lc rgb grey notitle, \
         for [i=0:named-1] data index i using 1:2 with lines lt (i + 1) title word(scores, i + 1), \
         keyentry with lines lw 1.5 lc rgb grey title rest_title
} else {
    plot for [i=0:named-1] data index i using 1:2 with lines lt (i + 1) title word(scores, i + 1)
}
