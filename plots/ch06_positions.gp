# Chapter 6, claims P2 and P1: the sinusoidal position encoding. Left, the
# dot product of two encodings against their offset, for every pair of the
# first positions: one curve, as P2 says; with the cosines removed (the
# control) it scatters. Right, how far attention is from commuting with a
# reordering of the tokens, without and with the encoding (log scale).
# caption: Left: the dot product of two sinusoidal encodings depends on their offset alone (one curve for every pair of positions). Right: with the encoding added, permuting the tokens no longer just permutes the output: the differences clear P1's threshold, 10^6 times the rounding that Q4 allows.
# claims: P2 P1
set multiplot title "Sinusoidal positions: products by offset alone; attention sees the order" font titlefont
set lmargin at screen 0.1
set rmargin at screen 0.5
set tmargin at screen 0.82
set bmargin at screen 0.14
set title sprintf("E_t . E_s for all pairs of %d positions, d = %d", T, dim)
set xlabel "offset t - s"
set ylabel "dot product"
set xrange [-T:T]
# E_t . E_t = dim / 2 is the largest value; the two sets are named beside them
set yrange [-0.12 * dim:0.6 * dim]
unset key
set label 1 "sine-cosine pairs: one curve" at first 0, first 0.5 * dim center offset 0,1.1 tc lt 1
set label 2 "sines only (the control): scattered" at first 0, first -0.12 * dim center offset 0,0.7 tc rgb "#808080"
plot data index 0 using 1:3 with points pt 7 ps 0.5 lc rgb "#b0b0b0" notitle, \
     ''   index 0 using 1:2 with points lt 1 pt 7 ps 0.6 notitle
unset label 1
unset label 2
set lmargin at screen 0.6
set rmargin at screen 0.97
set title "max |attn(P X + E) - P attn(X + E)|"
unset xlabel
set ylabel "largest difference"
set logscale y
set format y "10^{%L}"
set mytics 1
set yrange [1e-17:1e8]
set xrange [-0.6:3.6]
set xtics ("rotation\nsingle A" 0, "rotation\npair" 1, "shuffle\nsingle A" 2, "shuffle\npair" 3) scale 0
set grid noxtics
set boxwidth 0.35
set style fill solid 0.85 noborder
set key inside top left Left reverse box lc rgb "#cccccc" opaque width 1
plot data index 1 using ($1 - 0.19):2 with boxes lt 7 title "E = 0 (Q4)", \
     ''   index 1 using ($1 + 0.19):3 with boxes lt 2 title "with E (P1)", \
     tol with lines dt 2 lw 2 lc rgb accent title sprintf("Q4 allows %.0e", tol), \
     1e6 * tol with lines dt 3 lw 2.5 lc rgb accent title sprintf("P1 needs over %.0e", 1e6 * tol)
unset multiplot
