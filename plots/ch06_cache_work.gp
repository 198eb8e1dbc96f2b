# Chapter 6, claims C1 and C2: what factoring saves. Left, the ledger's
# cache against r for the three caches that give the same scores; right, the
# multiply-adds of the pair over those of one matrix A, counted by running
# both at every r, for three sequence lengths.
# caption: Left: three caches that give the same scores; keys A_j·x_i take 10 GB, factored keys W_k·x_i 2 GB at r = 200, raw tokens shared by every function 0.5 GB. Right: multiply-adds of the pair W_q, W_k over those of one matrix A, counted by running both: factoring pays in work below a crossover r that grows with T.
# claims: C1 C2
set multiplot title "What A = W_q^T W_k saves: memory against keys A_j x_i, and work below a crossover" font titlefont
set lmargin at screen 0.095
set rmargin at screen 0.47
set tmargin at screen 0.82
set bmargin at screen 0.14
set title sprintf("cache, ledger setting (d = %d)", dim)
set xlabel "r: rows of W_q and W_k (numbers per key)"
set ylabel "cache size (GB)"
set xrange [0:dim]
set yrange [0:16]
set key top left Left reverse box lc rgb "#cccccc" opaque width 1 spacing 1.1
set label 1 sprintf("r = d / %d: as small as the raw tokens", funcs) at first 0.2 * dim, first 1.5 left tc rgb accent
set arrow 1 from first 0.19 * dim, first 1.45 to first dim / funcs + 8, first 0.6 lw 1.5 lc rgb accent
plot data index 0 using 1:2 with lines lt 2 dt 2 title sprintf("keys A_j x_i, one per function (%d)", funcs), \
     ''   index 0 using 1:3 with lines lt 1 title "keys W_k x_i, one per function", \
     ''   index 0 using 1:4 with lines lt 3 title "raw tokens x_i, shared", \
     '+'  using (dim / funcs):(0.5) every ::0::0 with points lt 7 pt 7 ps 1.5 notitle
unset label 1
unset arrow 1
set lmargin at screen 0.6
set rmargin at screen 0.97
set title "work: the pair over A, d = 64"
set xlabel "r: rows of W_q and W_k (numbers per key)"
set ylabel "multiply-adds, pair / A"
set xrange [0:64]
set yrange [0:2.2]
set key top left Left reverse box lc rgb "#cccccc" opaque width 1 spacing 1.1 title "the pair does less work" left
set arrow 2 from 0, first 1 to 64, first 1 nohead dt 2 lw 2 lc rgb accent
set label 2 "below 1: the pair does less work" at first 63, first 0.1 right tc rgb accent
plot for [k = 0:2] data index k + 1 using 1:2 with lines lt k + 1 \
         title sprintf("T = %d: up to r = %d", value(sprintf("T%d", k)), value(sprintf("cross%d", k)))
unset multiplot
