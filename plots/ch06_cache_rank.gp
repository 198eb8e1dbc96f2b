# Chapter 6, claim Q1: the cache of keys against their size r (ledger setting).
# caption: The cache of keys shrinks in proportion to the key size r; r = d is the single free matrix A.
# claims: Q1
set title sprintf("Cache of keys for %d tokens, %d layers, %d functions, %d bytes a number", tokens, layers, funcs, bytes)
set xlabel "numbers per cached key (r; r = d is the single matrix A)"
set ylabel "cache size (GB, 10^9 bytes)"
set xrange [0:dim]
set yrange [0:full_gb * 1.45]
set key top left Left reverse box lc rgb "#cccccc" opaque width 1
set label sprintf("r = %d: %g GB", r0, r0_gb) at first r0, first r0_gb offset 1,-1.2 tc rgb accent
set label sprintf("d = %d: %g GB", dim, full_gb) at first dim, first full_gb right offset -1,0.9 tc rgb accent
plot data index 0 using 1:2 with lines lt 1 title "keys W_k x_i of r numbers", \
     full_gb with lines dt 2 lw 2 lc rgb accent title "single matrix: keys A x_i of d numbers", \
     '+' using (r0):(r0_gb) every ::0::0 with points lt 7 pt 7 ps 2 notitle
