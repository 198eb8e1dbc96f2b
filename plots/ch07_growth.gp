# Chapter 7, claim S6: the norm of a weighted sum of T noisy values against
# T, with unnormalised weights exp(s_i) and with softmax weights (log-log;
# the fitted exponents in the key).
# caption: The norm of a weighted sum of T noisy values: with unnormalised weights exp(s_i) it grows with T; with softmax weights it does not grow, and shrinks as the average smooths the noise (fitted exponents in the key).
# claims: S6
set title "A weighted sum of T noisy values: unnormalised it grows, normalised it shrinks"
set xlabel "sequence length T (values summed)"
set ylabel "root mean square norm of the sum"
set logscale xy
set format x "%g"
set format y "10^{%L}"
set xrange [3:1400]
set yrange [0.1:1000]
set key top left Left reverse box lc rgb "#cccccc" opaque width 1
plot data index 0 using 1:2 with linespoints lt 2 title sprintf("weights exp(s_i): grows as T^{%.2f}", slope_raw), \
     ''   index 0 using 1:3 with linespoints lt 1 title sprintf("softmax weights: T^{%.2f}, an average that shrinks", slope_soft)
