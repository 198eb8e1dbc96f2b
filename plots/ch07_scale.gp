# Chapter 7, claim S7: why the scores are divided by sqrt(r). Left, the
# variance of q . k against r; middle, the entropy of the softmax; right, the
# median norm of its Jacobian; each raw and scaled by 1/sqrt(r).
# caption: Scores q·k of r numbers: their variance grows as r; without 1/√r the softmax's entropy and the median Frobenius norm of its Jacobian collapse as r grows (after a rise at small r), with the scale both stay flat.
# claims: S7
set multiplot title "Scores q . k of r numbers: without 1/√r the softmax saturates as r grows" font titlefont
set tmargin at screen 0.82
set bmargin at screen 0.14
set logscale x 2
set format x "2^{%L}"
set xrange [0.8:1300]
set xlabel "r"
set key top left Left reverse box lc rgb "#cccccc" opaque width 1
set lmargin at screen 0.07
set rmargin at screen 0.33
set title "variance of q . k"
set logscale y
set format y "10^{%L}"
set yrange [0.1:5000]
plot data index 0 using 1:2 with linespoints lt 2 title sprintf("raw: slope %.2f", slope_raw), \
     ''   index 0 using 1:3 with linespoints lt 1 title sprintf("scaled: slope %.2f", slope_scaled)
unset logscale y
set format y "%g"
set lmargin at screen 0.4
set rmargin at screen 0.66
set title "entropy of the weights (nats)"
set yrange [0:log(keys) * 1.35]
set key top right
set arrow 1 from 0.8, first log(keys) to 1300, first log(keys) nohead dt 3 lw 2 lc rgb accent
set label 1 sprintf("log %d: uniform", keys) at 1, first log(keys) offset 0,0.7 left tc rgb accent
plot data index 0 using 1:4 with linespoints lt 2 title "raw", \
     ''   index 0 using 1:5 with linespoints lt 1 title "scaled"
unset arrow 1
unset label 1
set lmargin at screen 0.73
set rmargin at screen 0.98
set title "median ||Jacobian||"
set yrange [0:0.45]
plot data index 0 using 1:6 with linespoints lt 2 title "raw", \
     ''   index 0 using 1:7 with linespoints lt 1 title "scaled"
unset multiplot
