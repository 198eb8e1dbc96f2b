# Chapter 12, claims L4 and L5: a free matrix A against W_q^T W_k of rank r,
# trained on a teacher of rank r*: the test loss where each run's stopping
# rule (on a validation set) stopped, against Adam's learning rate (mean and
# spread over runs), and the singular values the free A and W_q^T W_k with
# r = d ended with.
# caption: Left: the test loss each form ends at against Adam's learning rate, over runs: W_q^T W_k with r = r* ends lower than a free A at its best rate but is hurt more by the largest rate. Right: the singular values of a trained free A and of a trained W_q^T W_k with r = d, beside the teacher's.
# claims: L4 L5
set multiplot title sprintf("Free A (d = %d) against W_q^T W_k, teacher of rank %d, %d runs per point", dim, teacher, runs) font titlefont
set lmargin at screen 0.08
set rmargin at screen 0.6
set tmargin at screen 0.8
set bmargin at screen 0.13
set title "test loss against the learning rate"
set xlabel "Adam's learning rate"
set ylabel "cross-entropy (mean ± sd)"
set logscale x
set logscale y
set xrange [rate_lo / 1.4 : rate_hi * 1.4]
set yrange [*:10]
set key inside right bottom box lc rgb "#cccccc" opaque width 1 samplen 1.5
plot for [k = 0:forms - 1] data index k using 1:2:3 with yerrorlines lt k + 1 title value(sprintf("name%d", k))
unset logscale
set lmargin at screen 0.72
set rmargin at screen 0.97
set title "singular values, run 1"
set xlabel "index j (largest first)"
set ylabel "s_j / s_1"
set xrange [0.5:dim + 0.5]
set yrange [0:1.5]
set xtics 1
set key at graph 0.98, graph 0.98 right top box lc rgb "#cccccc" opaque width 1
set arrow from teacher + 0.5, graph 0 to teacher + 0.5, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("r* = %d", teacher) at teacher + 0.5, graph 0.6 left offset 0.5,0 tc rgb accent
set style fill solid 0.85 noborder
set boxwidth 0.4
set boxwidth 0.27
plot data index forms using ($1 - 0.27):2 with boxes lt 2 title "free A", \
     ''   index forms using 1:3 with boxes lt 3 title "W_q^T W_k, r = d", \
     ''   index forms using ($1 + 0.27):4 with boxes lt 7 title "teacher"
unset multiplot
