# caption: Held-out loss (nats per character, always causal) of chapter 13's model and of each ablation, trained with the same budget, initial draw and batches; bars are means over seeds, whiskers one standard deviation, the dashed line the full model; a bar beyond the axis (no mask with --full) is cut and its value written at the top.
# claims: A1 A2 A3 A4 A5 A6 A7 A8
# Chapter 14: every choice of the derivation removed one at a time.
set title sprintf("One piece removed at a time (%d steps, %d seeds, width %d, %d layer%s)", steps, seeds, width, layers, layers > 1 ? "s" : "") font titlefont
set ylabel "held-out cross-entropy (nats per character)"
set style fill solid 0.6 border -1
set boxwidth 0.6
set key off
set xrange [-0.6:7.6]
top = highest + 0.1
set yrange [lowest - 0.1 : top]
set xtics (label0 0, label1 1, label2 2, label3 3, label4 4, label5 5, label6 6, label7 7)
set grid ytics
set clip two
plot data index 0 using 1:2 with boxes lc rgb accent, \
     ''   index 0 using 1:2:3 with yerrorbars lt -1 pt 0 lw 2, \
     full with lines lt 1 dt 2 lw 2, \
     ''   index 0 using 1:($2 + $3 < highest ? $2 + $3 : highest - 0.04):(sprintf($2 + $3 < highest ? "%.3f" : "%.2f (cut)", $2)) with labels offset 0,1
