# Chapter 8, claim H2: three ways to cache what the values need, against the head size r.
# caption: Three caches that give the same output, against the head size r: values with W_o folded in (d numbers per head), values kept apart from W_o (r per head), and the raw tokens shared by every head (d per layer), the smallest; keeping W_o apart buys work per pair, r instead of d.
# claims: H2
set title "Cache of the chapter 5 model (5,000 tokens, 50 layers, 20 heads, d = 1,000)"
set xlabel "head size r (numbers per token, layer and head when values are cached per head)"
set ylabel "cache (GB, 10^9 bytes)"
set xrange [0:dim]
set yrange [0:folded_gb * 1.6]
set key top right box lc rgb "#cccccc" opaque width 1
set arrow from rank, graph 0 to rank, first kept_gb nohead dt 2 lw 2 lc rgb accent
set label sprintf("r = %d: %g GB", rank, kept_gb) at first rank, first kept_gb offset 1,-1.2 tc rgb accent
set arrow from dim / heads, first folded_gb / 2 to dim / heads, first raw_gb * 1.1 head filled lw 2 lc rgb accent
set label sprintf("r = d/H = %d: as small as the raw tokens", dim / heads) at first dim / heads, first folded_gb / 2 offset -1,0.8 tc rgb accent
set label sprintf("raw tokens: %g GB at every r", raw_gb) at graph 0.55, first raw_gb offset 0,1.2 tc rgb accent
plot data index 0 using 1:3 with lines lt 2 title "W_o folded into V_j: values of size d per head", \
     ''   index 0 using 1:2 with lines lt 1 title "W_o kept apart: values of size r per head", \
     ''   index 0 using 1:4 with lines lt 3 title "raw tokens x_i, one cache shared by every head", \
     '+'  using (rank):(kept_gb) every ::0::0 with points lt 7 pt 7 ps 2 notitle
