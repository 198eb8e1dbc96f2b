# caption: What each piece is worth at this budget: held-out loss (nats per character, always causal) of each ablation, of chapter 1's recurrent cell (at the full model's parameter count and with a state of 2), and of the full model trained on 3/4, 1/2 and 1/4 of the steps, minus the full model's at the same seed (same draw, same batches): points are the mean over seeds, whiskers the smallest and largest; 'full again' is the full model at other seeds (unpaired, what luck alone does); the dashed line is what the budget's last quarter costs, the bound of the claims A3-A6, A8 and A9 (A5, A6, A8, A9 with --full); a row beyond the axis (no mask with --full) is cut and its mean written at the top; with --full the last model row is the recurrent model trained for the full model's wall-clock time.
# claims: A1 A2 A3 A4 A5 A6 A7 A8 A9 A10
# Chapter 14: every choice of the derivation removed one at a time.
set title sprintf("Each piece removed in turn (%d steps, %d seeds, width %d, %d layer%s)", steps, seeds, width, layers, layers > 1 ? "s" : "") font titlefont
set ylabel "held-out loss minus full model's,\nsame seed (nats per character)"
set key off
set xlabel "points: mean over seeds; whiskers: smallest and largest" font ",27"
set xrange [-0.6:rows - 0.4]
set yrange [lowest - 0.05 : highest + 0.1]
set xtics () rotate by -30
do for [i = 0:rows - 1] { set xtics add (value(sprintf("label%d", i)) i) }
set grid ytics
set clip two
cut(y) = y > highest ? highest : y
set label 1 "full model" at 0.25, 0 left offset 0, -0.9 font ",27" tc rgb accent front
set label 2 "the budget's last quarter (3/4 of the steps): bound of ".bounded at rows - 0.5, quarter right offset 0, 0.7 font ",27" tc lt 2 front
plot 0 with lines lt 7 lw 1.5, \
     quarter with lines lt 2 dt 2 lw 2, \
     data index 0 using 1:(cut($2)):(cut($3)):(cut($4)) with yerrorbars lt 1 pt 7 ps 1.5 lw 2, \
     ''   index 0 using 1:($2 > highest ? highest : 1/0):(sprintf("%+.2f (cut)", $2)) with labels offset 0,1 notitle
