# Chapter 9, claim M2: a memory built from chosen (key, value) pairs.
set multiplot layout 1,2 title "An MLP as a key-value memory: each stored key switches on its own unit" font titlefont
# left: how well each probe matches each unit's key; a unit fires above the threshold
set title "match k_i · x of every hidden unit i"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 noborder
set boxwidth 1
set xlabel "input x: the stored keys, then an unrelated vector"
set ylabel "k_i · x   (activation: max(0, k_i · x − θ))"
set yrange [-0.6:1.1]
set key off
set arrow from graph 0, first threshold to graph 1, first threshold nohead dt 2 lw 2 lc rgb accent
set label sprintf("dashed: θ = %.1f, a unit fires above it", threshold) at graph 0.03, graph 0.07 tc rgb accent
plot for [i=2:pairs+1] data index 0 using i:xtic(int($1) > pairs ? "other" : sprintf("k_%d", int($1))) lt (i - 2) % 6 + 1
# right: recalled against stored value, coordinate by coordinate
unset arrow
unset label
set style data points
set title "what the memory returns"
set xlabel "stored value v_i, every coordinate"
set ylabel "output y for input k_i"
set autoscale
set xtics 0.2
set key bottom right
plot x with lines lt 7 dt 2 title "y = v", \
     data index 1 using 1:2 with points lt 1 pt 7 ps 0.9 title "stored keys", \
     NaN with points lt 2 pt 5 ps 1.5 title sprintf("unrelated input: |y| = %.2g", quiet_norm)
unset multiplot
