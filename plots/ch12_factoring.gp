# Chapter 12, claim L4: a free matrix A against W_q^T W_k of rank r, trained
# on a teacher of rank r*: held-out loss while training (mean over runs,
# shaded +- one sd), and the singular values the free A ended with.
# caption: A free matrix A against W_q^T W_k of rank r, trained on a low-rank teacher: held-out loss while training, and the singular values the free A ended with.
# claims: L4
set multiplot title sprintf("Free A (d = %d) against W_q^T W_k, teacher of rank %d, %d runs", dim, teacher, runs) font titlefont
set lmargin at screen 0.1
set rmargin at screen 0.56
set tmargin at screen 0.8
set bmargin at screen 0.13
set title "held-out loss while training"
set xlabel "Adam step"
set ylabel "cross-entropy"
set yrange [0:*]
set key top right box lc rgb "#cccccc" opaque width 1
set style fill transparent solid 0.18 noborder
plot for [k = 0:models - 1] data index k using 1:($2 - $3):($2 + $3) with filledcurves lt k + 1 notitle, \
     for [k = 0:models - 1] data index k using 1:2 with lines lt k + 1 title value(sprintf("name%d", k))
set lmargin at screen 0.66
set rmargin at screen 0.97
set title "singular values of A (run 1)"
set xlabel "index j (largest first)"
set ylabel "s_j / s_1"
set xrange [0.5:dim + 0.5]
set yrange [0:1.05]
set xtics 1
set key top right
set arrow from teacher + 0.5, graph 0 to teacher + 0.5, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("r* = %d", teacher) at teacher + 0.5, graph 0.6 left offset 0.5,0 tc rgb accent
set style fill solid 0.85 noborder
set boxwidth 0.4
plot data index models using ($1 - 0.2):2 with boxes lt 2 title "learned free A", \
     ''   index models using ($1 + 0.2):3 with boxes lt 7 title "teacher A*"
unset multiplot
