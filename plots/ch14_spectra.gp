# Chapter 14, K1: the spectra of the trained heads' circuits, of their initial draw, and of free A.
# caption: Singular values over the largest, averaged over the heads of the trained model: W_QK = W_q^T W_k and W_OV = W_o W_v trained and as drawn (rank at most r: zero beyond it), and the free d×d matrix A of the free-A ablation, trained from the drawn product, which fills the dimensions beyond r.
# claims: K1
set title sprintf("The heads' circuits, mean over %d heads (width d = %d, head size r = %d)", heads, width, rank) font titlefont
set xlabel "index k of the singular value"
set ylabel "σ_k / σ_1"
set yrange [0:1.05]
set xrange [0.5:width + 0.5]
set key at graph 0.99, graph 0.97 right box lc rgb "#cccccc" opaque width 1 font ",27"
set arrow from rank + 0.5, graph 0 to rank + 0.5, graph 1 nohead dt 2 lw 2 lc rgb accent
set label sprintf("k = r = %d", rank) at rank + 0.5, graph 0.55 offset 1,0 tc rgb accent
plot data index 0 using 1:2 with linespoints lt 1 ps 0.9 title "W_{QK} trained", \
     ''   index 0 using 1:3 with linespoints lt 1 dt 2 ps 0.6 title "W_{QK} as drawn", \
     ''   index 0 using 1:4 with linespoints lt 2 ps 0.9 title "W_{OV} trained", \
     ''   index 0 using 1:5 with linespoints lt 2 dt 2 ps 0.6 title "W_{OV} as drawn", \
     ''   index 0 using 1:6 with linespoints lt 3 ps 1.0 title "free A trained (drawn: W_{QK} as drawn)"
