# Chapter 5, claims B3 and C1: how big the cache grows with the sequence, as
# one key per score function, and as raw tokens shared by all functions.
# caption: Caching a key A_j·x_i of d numbers per function costs tokens × layers × functions × d × bytes, 10 GB in the ledger's setting at 5,000 tokens (two hypothetical models beside it); one raw token per layer, shared by every function, gives the same scores for a twentieth of that.
# claims: B3 C1
set title "Per token and layer: a key of d numbers per function, or one raw token"
set xlabel "sequence length (tokens)"
set ylabel "cache size (GB, 10^9 bytes)"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [256:1048576]
set yrange [0.01:1e10]
set key top left Left reverse box lc rgb "#cccccc" opaque width 1 title "keys of d numbers per function, 2 bytes a number" left
# room above 1e6, where no line runs, for the legend
set label sprintf("%g GB of keys", ledger_gb) at first ledger_tokens, first ledger_gb right offset -1,0.9 tc rgb accent
set label sprintf("%g GB of raw tokens (the ledger, %s tokens)", shared_gb, ledger_tokens_text) at first ledger_tokens, first shared_gb left offset 1,-0.8 tc rgb accent
plot data index 0 using 1:2 with lines lt 1 title label0, \
     ''   index 1 using 1:2 with lines lt 2 title label1, \
     ''   index 2 using 1:2 with lines lt 3 title label2, \
     ''   index 3 using 1:2 with lines lt 2 dt 2 title "the same, raw tokens shared by its functions", \
     80 with lines dt 3 lw 2 lc rgb accent title "80 GB: the memory of one large accelerator", \
     '+'  using (ledger_tokens):(ledger_gb) every ::0::0 with points lt 7 pt 7 ps 2 notitle, \
     '+'  using (ledger_tokens):(shared_gb) every ::0::0 with points lt 7 pt 7 ps 2 notitle
