# Chapter 14: every choice of the derivation removed one at a time.
# caption: What each piece is worth: held-out loss (nats per character, always causal) of each model minus the full model's at the same seed (same draw, same batches), each model at its best learning rate (three tried, one more beyond an edge); points are the mean over the paired seeds, bars the 95% Student-t interval; the grey band is the margin +-m fixed before the runs, so a bar wholly above it 'costs', wholly below it 'helps', wholly inside it is 'equivalent'; 'full again' (the full model at other seeds) and the full model on 3/4, 1/2 and 1/4 of its steps are the yardsticks; a bar past the top of the axis (no mask, at --full) is cut and its mean written there.
# claims: A1 A2 A3 A4 A5 A6 A8 A9 A10
set title sprintf("Each piece removed in turn, paired with the full model (%d steps, %d seeds)", steps, seeds) font titlefont
set rmargin 6
set ylabel "held-out loss minus the full model's,\nsame seed (nats per character)"
set key off
set xrange [-0.6:rows - 0.4]
set yrange [*:highest]
set xtics () rotate by -35 font ",24"
do for [i = 0:rows - 1] { set xtics add (value(sprintf("label%d", i)) i) }
set grid ytics
set clip two
set object 1 rectangle from -0.6, -margin to rows - 0.4, margin fc rgb "#dddddd" fs solid 1.0 noborder behind
set label 1 sprintf("margin +-%.2f", margin) at -0.5, -margin left offset 0, -0.8 font ",24" front
cut(y) = y > highest ? highest : y
plot 0 with lines lt 7 lw 1.5, \
     data index 0 using 1:(cut($2)):(cut($3)):(cut($4)) with yerrorbars lt 1 pt 7 ps 1.5 lw 2, \
     ''   index 0 using 1:($2 > highest ? highest : 1/0):(sprintf("%+.2f (cut)", $2)) with labels offset 0,-1 notitle
