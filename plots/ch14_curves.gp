# Chapter 14: the learning curve of each ablation beside the full model's.
# caption: Held-out loss (nats per character) against training steps for each model of chapter 14, each at its own best learning rate: the line is the mean over the paired seeds, the band the lowest and highest seed; the full model's mean is the grey line in every panel, the trigram's loss the dashed line; curves are scored on a quarter of the held-out windows.
# claims: A1 A2 A3 A4 A5 A6 A8 A9 A10
set multiplot layout 2, 5 title "Learning curves: each model (colour) against the full model (grey)" font titlefont
set grid
set key off
set tics font ",20"
set xtics steps / 2
set yrange [trigram - 0.5 : *]
do for [i = 0:panels - 1] {
    set title value(sprintf("label%d", i)) font ",24"
    plot data index panels using 1:2 with lines lt 7 lw 2, \
         trigram with lines lt 7 dt 2 lw 1.5, \
         data index i using 1:3:4 with filledcurves lt 1 fs transparent solid 0.25, \
         ''   index i using 1:2 with lines lt 1 lw 2.5
}
unset multiplot
