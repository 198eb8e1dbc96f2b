# Chapter 3, claims F1-F3: parameters of one dynamic d x d weight, three ways.
# caption: A fully dynamic d×d weight needs d² scalar functions; a diagonal one d; a few shared static matrices with one dynamic coefficient each need H, at the price of H·d² static parameters.
# claims: F1 F2 F3
set title sprintf("Cost of one dynamic d×d weight (each scalar function: h = %d hidden units)", h)
set xlabel "token width d"
set ylabel "parameters"
set logscale xy
set format y "10^{%T}"
set xtics (4, 16, 64, 256, 1024, 4096)
# a little room around the data, so no point sits on the frame
stats data index 0 using 2 nooutput
top = STATS_max
stats data index 0 using 3 nooutput
bottom = STATS_min
stats data index 0 using 1 nooutput
set xrange [STATS_min / 1.4:STATS_max * 1.4]
set yrange [bottom / 4:top * 6]
set key top left reverse Left box lc rgb "#cccccc" opaque width 1
set arrow from mark_d, graph 0 to mark_d, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("d = %d", mark_d) at mark_d, graph 0.06 offset 0.7, 0 tc rgb accent
plot data index 0 using 1:2 with linespoints lt 2 title "fully dynamic: d^2 functions", \
     ''   index 0 using 1:4 with linespoints lt 3 title sprintf("mixture: H = %d functions + H learned matrices", H), \
     ''   index 0 using 1:3 with linespoints lt 1 title "diagonal: d functions"
