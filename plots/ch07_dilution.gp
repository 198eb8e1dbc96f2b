# Chapter 7, claim S8: the weight of one relevant token among T - 1 irrelevant
# ones, against T, normalised plainly (s_0 / sum s_i) and by the softmax, with
# near-uniform and with peaked scores (log-log; fitted exponents in the key).
# caption: Dilution: one relevant token among T - 1 irrelevant ones. With near-uniform scores its weight falls as 1/T under plain normalisation and under the softmax alike; with peaked scores the softmax keeps it, plain normalisation does not (fitted exponents in the key).
# claims: S8
set title "One relevant token among T - 1 irrelevant ones: how much weight it keeps"
set xlabel "sequence length T (tokens normalised over)"
set ylabel "weight of the relevant token"
set logscale xy
set format x "%g"
set format y "10^{%L}"
set xrange [1.6:1400]
set yrange [1e-5:2]
set key bottom left Left reverse box lc rgb "#cccccc" opaque width 1
plot data index 0 using 1:5 with linespoints lt 1 title sprintf("peaked (%.0f against %.0f), softmax: T^{%.2f}", peaked, irrelevant, p_peaked_soft), \
     ''   index 0 using 1:4 with linespoints lt 2 title sprintf("peaked, plain s_0 / {/Symbol S} s_i: T^{%.2f}", p_peaked_plain), \
     ''   index 0 using 1:3 with linespoints lt 3 title sprintf("near-uniform (%.1f against %.0f), softmax: T^{%.2f}", near_uniform, irrelevant, p_uniform_soft), \
     ''   index 0 using 1:2 with linespoints lt 4 dt 2 title sprintf("near-uniform, plain: T^{%.2f}", p_uniform_plain), \
     1.0 / x with lines lt 7 dt 3 lw 1.5 title "1/T, full dilution"
