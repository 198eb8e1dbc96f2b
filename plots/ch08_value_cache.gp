# Chapter 8, claim H2: the value cache against the head size r.
# caption: The value cache against the head size r: folding W_o into the values makes each head cache d numbers per token, keeping them apart caches r.
# claims: H2
set title "Value cache of the chapter 5 model (5,000 tokens, 50 layers, 20 heads, d = 1,000)"
set xlabel "head size r (numbers cached per token, layer and head)"
set ylabel "value cache (GB, 10^9 bytes)"
set xrange [0:*]
set yrange [0:*]
set key top left box lc rgb "#cccccc" opaque width 1
set arrow from rank, graph 0 to rank, first kept_gb nohead dt 2 lw 2 lc rgb accent
set arrow from dim, graph 0 to dim, first folded_gb nohead dt 2 lw 2 lc rgb accent
set label sprintf("r = %d: %g GB", rank, kept_gb) at first rank, first kept_gb offset 1,-1.2 tc rgb accent
set label sprintf("r = d: the same %g GB", folded_gb) at first dim, first folded_gb offset 1,-1.2 tc rgb accent
plot data index 0 using 1:2 with lines lt 1 title "W_o kept apart: values of size r", \
     ''   index 0 using 1:3 with lines lt 2 title "W_o folded into V_j: values of size d", \
     '+'  using (rank):(kept_gb) every ::0::0 with points lt 7 pt 7 ps 2 notitle
