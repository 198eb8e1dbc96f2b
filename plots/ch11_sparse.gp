# Chapter 11, computing fewer scores: time of the sparse kernels relative to the dense tiled kernel, against the fraction of scores computed.
# caption: Computing a fraction f of the scores: the sparse kernels' time as a share of the dense tiled kernel's, measured on this machine (noisy), against the share the lists really compute; the dotted line is time in proportion to it.
# claims: N1 N3
set title sprintf("Sparse against dense attention, T = %d, %d heads of %d", T, heads, dh)
set xlabel "fraction of the visible scores computed"
set ylabel "time / dense tiled kernel's time"
set logscale x 10
set logscale y 10
set xrange [0.005 : 1.3]
set yrange [0.003 : 30]
set key top left box lc rgb "#cccccc" opaque
# Small f rounds the block lists down to the diagonal blocks: those points coincide.
alike_text = alike > 1 ? \
    sprintf("f = %.0f%% %s %.0f%%: the diagonal\nblocks alone, %.1f%% of the scores", 100 * first_f, alike > 2 ? "to" : "and", 100 * last_alike_f, 100 * diagonal) : \
    sprintf("f = %.0f%%: the diagonal blocks\nalone, %.1f%% of the scores", 100 * first_f, 100 * diagonal)
set label 1 alike_text at diagonal * 1.25, diagonal_time / 4 left front textcolor rgb accent
set arrow 1 from diagonal * 1.22, diagonal_time / 3.2 to diagonal * 1.03, diagonal_time / 1.15 lc rgb accent lw 1.5 front
plot data index 0 using 1:2 with linespoints lt 2 title "key lists (scores gathered one by one)", \
     ''   index 0 using 3:4 with linespoints lt 1 title "block lists (whole tiles)", \
     1 with lines lt 3 dt 2 title "as slow as dense", \
     x with lines lt 4 dt 3 title "time in proportion to the share computed"
