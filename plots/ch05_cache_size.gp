# Chapter 5, claim B3: how big the cache of A x_i grows with the sequence.
# caption: Caching A·x_i for every past token costs tokens × layers × functions × numbers × bytes; for the ledger's model that is 10 GB at 5,000 tokens.
# claims: B3
set title "The cache keeps one vector per token, layer and score function"
set xlabel "sequence length (tokens)"
set ylabel "cache size (GB, 10^9 bytes)"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [256:1048576]
set yrange [0.01:1e6]
set key top left Left reverse box lc rgb "#cccccc" opaque width 1
set label sprintf("ledger: %g GB at %g tokens", ledger_gb, ledger_tokens) at first ledger_tokens, first ledger_gb right offset -1,1 tc rgb accent
plot data index 0 using 1:2 with lines lt 1 title label0, \
     ''   index 1 using 1:2 with lines lt 2 title label1, \
     ''   index 2 using 1:2 with lines lt 3 title label2, \
     80 with lines dt 2 lw 2 lc rgb accent title "80 GB: the memory of one large accelerator", \
     '+'  using (ledger_tokens):(ledger_gb) every ::0::0 with points lt 7 pt 7 ps 2 notitle
