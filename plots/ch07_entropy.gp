# Chapter 7, claim S2: entropy of the softmax weights against tau.
# caption: The entropy of the softmax weights goes from 0 (one-hot, τ → 0) to log T (uniform, large τ).
# claims: S2
set title "Entropy of the weights: 0 for a one-hot choice, log T for uniform weights"
set xlabel "temperature τ (log scale)"
set ylabel "entropy (nats)"
set logscale x
set format x "10^{%L}"
set yrange [-0.05:log(T) * 1.08]
set key at graph 0.02, graph 0.62 left Left reverse box lc rgb "#cccccc" opaque width 1
plot data index 0 using 1:2 with lines lt 1 title "entropy of softmax(s/τ)", \
     log(T) with lines dt 2 lw 2 lc rgb accent title sprintf("log T = log %d, the largest possible", T)
