# Chapter 9, claim M2: a memory built from chosen (key, value) pairs.
# caption: An MLP built from chosen key-value pairs: each stored key switches on its own hidden unit, and the memory returns that unit's value; an unrelated input returns little.
# claims: M2
set multiplot layout 1,2 margins 0.10, 0.97, 0.17, 0.80 spacing 0.11, 0 \
    title "An MLP as a key-value memory: each stored key switches on its own unit" font titlefont
# left: for each input, how well it matches every hidden unit's key; a unit fires above θ
set title "match k_i · x of every hidden unit i"
set xlabel "input x: the stored keys, then an unrelated vector"
set ylabel "match k_i · x"
set xrange [0.3 : pairs + 1.7]
set yrange [-0.6:1.9]
set key at graph 0.98, graph 0.99 right box lc rgb "#cccccc" opaque
set arrow from graph 0, first threshold to graph 1, first threshold nohead dt 2 lw 2 lc rgb accent
set label sprintf("dashed: θ = %.1f, a unit fires above it", threshold) at graph 0.03, graph 0.07 tc rgb accent
# above 8 keys, only every kstep-th key is named, so that the names do not collide
kstep = pairs <= 8 ? 1 : int(ceil(pairs / 8.0))
keyname(n) = n > pairs ? "other" : ((n - 1) % kstep == 0 ? sprintf("k_{%d}", n) : "")
set xtics scale 0.5
set ytics -0.5, 0.5, 1
plot for [i=2:pairs+1] data index 0 using 1:(int($1) == i - 1 ? NaN : column(i)) \
         with points pt 7 ps 0.7 lc rgb "#999999" title (i == 2 ? "every other unit" : ""), \
     data index 0 using 1:(int($1) > pairs ? NaN : column(int($1) + 1)):xtic(keyname(int($1))) \
         with points lt 1 pt 7 ps 1.8 title "the unit that stores this key"
# right: recalled against stored value, coordinate by coordinate
unset arrow
unset label
set title "what the memory returns"
set xlabel "stored value v_i, every coordinate"
set ylabel "output y for input k_i"
set autoscale
set xtics 0.2 scale default
set ytics autofreq
set key default
set key top left reverse Left samplen 2.5 spacing 1.2 box lc rgb "#cccccc" opaque width -5
# the unrelated input has no stored value to plot against: its output is given in words
set label 1 sprintf("unrelated input:\noutput norm |y| = %.2g", quiet_norm) at graph 0.97, graph 0.12 right tc rgb accent
plot x with lines lt 7 dt 2 title "y = v", \
     data index 1 using 1:2 with points lt 1 pt 7 ps 0.9 title "input k_i: y against v_i"
unset multiplot
