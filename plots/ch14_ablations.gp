# caption: Held-out loss (nats per character, always causal) of chapter 13's model, of each ablation and of chapter 1's recurrent cell at the same parameter count, trained with the same budget and batches; bars are means over seeds, whiskers one standard deviation, the dashed line the full model; a bar beyond the axis (no mask with --full) is cut and its value written at the top; with --full the last bar is the recurrent model trained for the full model's wall-clock time.
# claims: A1 A2 A3 A4 A5 A6 A7 A8 A9 A10
# Chapter 14: every choice of the derivation removed one at a time.
set title sprintf("One piece removed at a time (%d steps, %d seeds, width %d, %d layer%s)", steps, seeds, width, layers, layers > 1 ? "s" : "") font titlefont
set ylabel "held-out cross-entropy (nats per character)"
set style fill solid 0.6 border -1
set boxwidth 0.6
set key off
set xrange [-0.6:bars - 0.4]
top = highest + 0.1
set yrange [lowest - 0.1 : top]
set xtics () rotate by -30
do for [i = 0:bars - 1] { set xtics add (value(sprintf("label%d", i)) i) }
set grid ytics
set clip two
plot data index 0 using 1:2 with boxes lc rgb accent, \
     ''   index 0 using 1:2:3 with yerrorbars lt -1 pt 0 lw 2, \
     full with lines lt 1 dt 2 lw 2, \
     ''   index 0 using 1:($2 + $3 < highest ? $2 + $3 : highest - 0.04):(sprintf($2 + $3 < highest ? "%.3f" : "%.2f (cut)", $2)) with labels offset 0,1
