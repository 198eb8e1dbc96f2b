# Chapter 14, claim A11: held-out loss by position in a long window.
# caption: Held-out loss (nats per character) at each position of windows of the long context, mean over the paired seeds: the Transformer, which attends to every character before it, against the gated recurrent cell (GRU) and chapter 1's cell, whose memory is a state of fixed size, and the trigram, which sees two characters at every position; a model that uses a longer past keeps falling along the window (Kaplan et al., 2020, compare LSTMs and Transformers this way).
# claims: A11
set title sprintf("Loss by position in windows of %d characters (%d windows)", context, windows) font titlefont
set xlabel "position in the window (characters seen; bins a quarter of an octave wide)"
set ylabel "held-out loss (nats per character)"
set logscale x 2
set xrange [1:context]
set grid
set key outside top center horizontal
plot data index 0 using 1:2 with lines lt 1 lw 3 title "Transformer", \
     ''   index 1 using 1:2 with lines lt 2 lw 3 title "GRU", \
     ''   index 2 using 1:2 with lines lt 3 lw 3 title "Elman cell", \
     ''   index 3 using 1:2 with lines lt 7 dt 2 lw 2 title "trigram counts"
