# Chapter 13, claim G3: the loss while training (train and held-out windows),
# against what counting characters achieves on the same held-out windows.
set title sprintf("A %d-layer Transformer of width %d learning the text, one character at a time", layers, width)
set xlabel "training step"
set ylabel "cross-entropy (nats per character)"
set key top right box lc rgb "#cccccc" opaque width 1
set yrange [0:*]
set xrange [0:*]
set autoscale xfixmax
set label sprintf("unigram counts: %.2f", unigram) at graph 0.98, first unigram right offset 0,0.7 tc rgb accent
set label sprintf("bigram counts: %.2f", bigram) at graph 0.98, first bigram right offset 0,0.7 tc rgb accent
if (trigram > 0) { set label sprintf("trigram counts: %.2f", trigram) at graph 0.98, first trigram right offset 0,0.7 tc rgb accent }
plot unigram with lines lt 7 dt 3 lw 1.5 notitle, \
     bigram with lines lt 7 dt 2 lw 1.5 notitle, \
     (trigram > 0 ? trigram : 1/0) with lines lt 7 dt 4 lw 1.5 notitle, \
     data index 0 using 1:2 with linespoints lt 1 title "training windows", \
     ''   index 0 using 1:3 with linespoints lt 2 title "held-out windows"
